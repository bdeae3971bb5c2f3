import { Inject, Injectable } from '@nestjs/common';
import type { DashboardWaitingDto } from '@coinpurse/contract';
import { and, desc, eq, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { adminApprovals, apiKeys, auditLog, chainDeposits, notifications, supportedTokens, tickets, transactions, users } from '../../db/schema';

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
  /** The prefix of the API key the actor used (null: a session). */
  apiKey: string | null;
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

  /** Deactivates (the caller ends the sessions). Balances, ledger and history stay. */
  async deactivate(id: string, by: string, executor: Executor = this.db): Promise<Date> {
    const now = new Date();
    await executor
      .update(users)
      .set({ deactivatedAt: now, deactivatedBy: by, updatedAt: now })
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

  /**
   * What waits for an admin, in one statement: one walk over the open withdrawals (their partial index) counting each
   * queue, the open deposit reviews (their partial index) and the pending approvals (status index).
   */
  async waiting(
    open: SQL,
    queues: { review: SQL; manual: SQL; funds: SQL; unsigned: SQL; cold: SQL },
    executor: Executor = this.db,
  ): Promise<DashboardWaitingDto> {
    const [row] = await executor
      .select({
        withdrawalsToReview: sql<number>`w.review`,
        withdrawalsToPayByHand: sql<number>`w.manual`,
        payoutsAwaitingFunds: sql<number>`w.funds`,
        payoutsNotSigned: sql<number>`w.unsigned`,
        payoutsAwaitingColdSignature: sql<number>`w.cold`,
        depositsToReview: sql<number>`(select count(*)::int from ${chainDeposits} where ${chainDeposits.review} is not null and ${chainDeposits.reviewResolution} is null)`,
        approvalsWaiting: sql<number>`(select count(*)::int from ${adminApprovals} where ${adminApprovals.status} = 'pending')`,
      })
      .from(
        sql`(select count(*) filter (where ${queues.review})::int as review, count(*) filter (where ${queues.manual})::int as manual,
          count(*) filter (where ${queues.funds})::int as funds, count(*) filter (where ${queues.unsigned})::int as unsigned,
          count(*) filter (where ${queues.cold})::int as cold
          from ${transactions} where ${open}) as w`,
      );
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
        apiKey: apiKeys.prefix,
        createdAt: auditLog.createdAt,
      })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorId))
      .leftJoin(apiKeys, eq(apiKeys.id, auditLog.apiKeyId))
      .where(conditions.length ? and(...conditions) : undefined)
      .orderBy(desc(auditLog.id))
      .limit(filter.limit);
  }
}
