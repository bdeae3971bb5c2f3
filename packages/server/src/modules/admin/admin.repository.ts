import { Inject, Injectable } from '@nestjs/common';
import { and, desc, eq, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { auditLog, notifications, supportedTokens, tickets, users } from '../../db/schema';

export interface AccountRow {
  id: string;
  name: string;
  email: string;
  role: 'user' | 'admin';
  deactivatedAt: Date | null;
}

export interface AuditRow {
  id: number;
  actorId: string | null;
  actorRole: string | null;
  actorEmail: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  before: unknown;
  after: unknown;
  requestId: string | null;
  createdAt: Date;
}

export interface AuditFilter {
  actor?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  beforeId?: number;
  limit: number;
}

/** Reads and the one account write (deactivation) of the admin back office. */
@Injectable()
export class AdminRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async findAccount(id: string, options: { lock?: boolean } = {}, executor: Executor = this.db): Promise<AccountRow | undefined> {
    const query = executor
      .select({ id: users.id, name: users.name, email: users.email, role: users.role, deactivatedAt: users.deactivatedAt })
      .from(users)
      .where(eq(users.id, id));
    const [row] = options.lock ? await query.for('update') : await query;
    return row;
  }

  /** Deactivates and revokes every token (token_version + 1). Balances, ledger and history stay. */
  async deactivate(id: string, by: string, executor: Executor = this.db): Promise<Date> {
    const now = new Date();
    await executor
      .update(users)
      .set({ deactivatedAt: now, deactivatedBy: by, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: now })
      .where(and(eq(users.id, id), isNull(users.deactivatedAt)));
    return now;
  }

  async counts(executor: Executor = this.db): Promise<{ users: number; cryptoCurrencies: number; notifications: number; openTickets: number }> {
    const [row] = await executor
      .select({
        users: sql<number>`(select count(*)::int from ${users} where ${users.role} = 'user' and ${users.deactivatedAt} is null)`,
        cryptoCurrencies: sql<number>`(select count(*)::int from ${supportedTokens} where ${supportedTokens.deletedAt} is null)`,
        notifications: sql<number>`(select count(*)::int from ${notifications})`,
        openTickets: sql<number>`(select count(*)::int from ${tickets} where ${tickets.status} = 'open')`,
      })
      .from(sql`(select 1) as one`);
    return row;
  }

  /** Newest first, keyset on the sequential id. */
  listAudit(filter: AuditFilter, executor: Executor = this.db): Promise<AuditRow[]> {
    const conditions: SQL[] = [];
    if (filter.actor) conditions.push(eq(auditLog.actorId, filter.actor));
    if (filter.action) conditions.push(eq(auditLog.action, filter.action));
    if (filter.targetType) conditions.push(eq(auditLog.targetType, filter.targetType));
    if (filter.targetId) conditions.push(eq(auditLog.targetId, filter.targetId));
    if (filter.beforeId !== undefined) conditions.push(lt(auditLog.id, filter.beforeId));
    return executor
      .select({
        id: auditLog.id,
        actorId: auditLog.actorId,
        actorRole: auditLog.actorRole,
        actorEmail: users.email,
        action: auditLog.action,
        targetType: auditLog.targetType,
        targetId: auditLog.targetId,
        before: auditLog.before,
        after: auditLog.after,
        requestId: auditLog.requestId,
        createdAt: auditLog.createdAt,
      })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorId))
      .where(conditions.length ? and(...conditions) : undefined)
      .orderBy(desc(auditLog.id))
      .limit(filter.limit);
  }
}

/**
 * Read-only ledger queries for the dashboard, used only when the ledger module's LedgerService is not available
 * (same rules: Σ lines per token = 0, each balance = Σ its lines, no negative customer balance).
 */
export async function fallbackLedgerQueries(executor: Executor) {
  const rows = async <T>(query: SQL): Promise<T[]> => {
    const result = (await executor.execute(query)) as unknown as { rows?: T[] } | T[];
    return Array.isArray(result) ? result : (result.rows ?? []);
  };
  const [sums, mismatches, stats, liabilities] = await Promise.all([
    rows<{ token: string; sum: string; lines: number }>(sql`select token, sum(amount)::text as sum, count(*)::int as lines from journal_lines group by token order by token`),
    rows<{ accountId: string; token: string; balance: string; linesSum: string }>(
      sql`select a.id as "accountId", a.token, a.balance::text as balance, coalesce(l.sum, 0)::text as "linesSum"
          from ledger_accounts a
          left join (select account_id, sum(amount) as sum from journal_lines group by account_id) l on l.account_id = a.id
          where a.balance <> coalesce(l.sum, 0) order by a.id limit 100`,
    ),
    rows<{ accounts: number; negative: number }>(sql`select count(*)::int as accounts, count(*) filter (where kind = 'customer' and balance < 0)::int as negative from ledger_accounts`),
    rows<{ token: string; customer: string; pending: string; holders: number }>(
      sql`select token,
                 coalesce(sum(balance) filter (where kind = 'customer'), 0)::text as customer,
                 coalesce(sum(balance) filter (where kind = 'platform' and platform_code = 'withdrawals_pending'), 0)::text as pending,
                 count(*) filter (where kind = 'customer' and balance > 0)::int as holders
          from ledger_accounts group by token order by token`,
    ),
  ]);
  return { sums, mismatches, stats: stats[0] ?? { accounts: 0, negative: 0 }, liabilities };
}
