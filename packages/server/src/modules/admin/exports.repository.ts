import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq, gt, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { userMatches } from '../../common/search';
import { DATABASE, type Database } from '../../db/database';
import { apiKeys, auditLog, coins, ledgerAccounts, transactions, users } from '../../db/schema';

export interface TransactionExportFilter {
  userId?: string;
  token?: string;
  type?: string;
  status?: string;
  search?: string;
  /** A condition of the caller's on `transactions` (the withdrawals waiting in a queue). */
  where?: SQL;
}

export interface AuditExportFilter {
  actor?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
}

const actor = alias(users, 'actor');

/** Keyset batches for the CSV exports: each query reads one bounded batch, so memory stays flat whatever the size. */
@Injectable()
export class ExportsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** Tokens any customer account has ever held (the balance columns of the users export). */
  async customerTokens(): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ token: ledgerAccounts.token })
      .from(ledgerAccounts)
      .where(eq(ledgerAccounts.kind, 'customer'))
      .orderBy(asc(ledgerAccounts.token));
    return rows.map((row) => row.token);
  }

  customersAfter(afterId: string | undefined, limit: number) {
    return this.db
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        country: users.country,
        createdAt: users.createdAt,
        deactivatedAt: users.deactivatedAt,
      })
      .from(users)
      .where(and(eq(users.role, 'user'), afterId ? gt(users.id, afterId) : undefined))
      .orderBy(asc(users.id))
      .limit(limit);
  }

  balancesOf(userIds: string[]) {
    if (!userIds.length) return Promise.resolve([]);
    return this.db
      .select({ userId: ledgerAccounts.userId, token: ledgerAccounts.token, balance: ledgerAccounts.balance })
      .from(ledgerAccounts)
      .where(and(eq(ledgerAccounts.kind, 'customer'), inArray(ledgerAccounts.userId, userIds)));
  }

  transactionsAfter(filter: TransactionExportFilter, afterSeq: number, limit: number) {
    const conditions: SQL[] = [isNull(transactions.voidedAt), gt(transactions.seq, afterSeq)];
    if (filter.userId) conditions.push(eq(transactions.userId, filter.userId));
    if (filter.token) conditions.push(eq(transactions.token, filter.token));
    if (filter.type) conditions.push(sql`${transactions.type} = ${filter.type}`);
    if (filter.status) conditions.push(sql`${transactions.status} = ${filter.status}`);
    if (filter.where) conditions.push(filter.where);
    const term = filter.search?.trim();
    if (term) conditions.push(or(userMatches(term), sql`lower(${transactions.details} ->> 'txHash') = ${term.toLowerCase()}`)!);
    return this.db
      .select({
        id: transactions.id,
        seq: transactions.seq,
        createdAt: transactions.createdAt,
        email: users.email,
        name: users.name,
        type: transactions.type,
        direction: transactions.direction,
        token: transactions.token,
        symbol: coins.symbol,
        coinAmount: transactions.coinAmount,
        usdAmount: transactions.usdAmount,
        price: transactions.price,
        status: transactions.status,
        network: transactions.network,
        address: transactions.address,
        txHash: sql<string | null>`${transactions.details} ->> 'txHash'`,
        note: transactions.note,
      })
      .from(transactions)
      .innerJoin(users, eq(users.id, transactions.userId))
      .leftJoin(coins, eq(coins.id, transactions.token))
      .where(and(...conditions))
      .orderBy(asc(transactions.seq))
      .limit(limit);
  }

  auditAfter(filter: AuditExportFilter, afterId: number, limit: number) {
    const conditions: SQL[] = [gt(auditLog.id, afterId)];
    if (filter.actor) conditions.push(eq(auditLog.actorId, filter.actor));
    if (filter.action) conditions.push(eq(auditLog.action, filter.action));
    if (filter.targetType) conditions.push(eq(auditLog.targetType, filter.targetType));
    if (filter.targetId) conditions.push(eq(auditLog.targetId, filter.targetId));
    return this.db
      .select({
        id: auditLog.id,
        createdAt: auditLog.createdAt,
        actorEmail: actor.email,
        actorRole: auditLog.actorRole,
        action: auditLog.action,
        targetType: auditLog.targetType,
        targetId: auditLog.targetId,
        before: auditLog.before,
        after: auditLog.after,
        requestId: auditLog.requestId,
        apiKey: apiKeys.prefix,
      })
      .from(auditLog)
      .leftJoin(actor, eq(actor.id, auditLog.actorId))
      .leftJoin(apiKeys, eq(apiKeys.id, auditLog.apiKeyId))
      .where(and(...conditions))
      .orderBy(asc(auditLog.id))
      .limit(limit);
  }
}
