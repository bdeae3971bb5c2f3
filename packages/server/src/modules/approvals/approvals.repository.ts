import { Inject, Injectable } from '@nestjs/common';
import type { ApprovalAction, ApprovalStatus } from '@coinpurse/contract';
import { and, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { adminApprovals, adminDirectActions, users } from '../../db/schema';

export interface NewApproval {
  action: ApprovalAction;
  requestedBy: string;
  userId: string | null;
  transactionId: string | null;
  payload: Record<string, unknown>;
  usdValue: string;
  summary: string;
  reason: string | null;
  /** What the approval applies, exactly (BoundEffect; the new admin's account for create-admin). */
  effect: Record<string, unknown> | null;
  gateReasons: string[];
}

export interface ApprovalRecord extends NewApproval {
  id: string;
  status: ApprovalStatus;
  createdAt: Date;
  decidedBy: string | null;
  decidedAt: Date | null;
  decisionReason: string | null;
  lastError: string | null;
}

export interface ApprovalView extends ApprovalRecord {
  requesterName: string;
  requesterEmail: string;
  deciderName: string | null;
  deciderEmail: string | null;
  userEmail: string | null;
}

const columns = {
  id: adminApprovals.id,
  action: adminApprovals.action,
  status: adminApprovals.status,
  requestedBy: adminApprovals.requestedBy,
  userId: adminApprovals.userId,
  transactionId: adminApprovals.transactionId,
  payload: adminApprovals.payload,
  effect: adminApprovals.effect,
  gateReasons: adminApprovals.gateReasons,
  usdValue: adminApprovals.usdValue,
  summary: adminApprovals.summary,
  reason: adminApprovals.reason,
  createdAt: adminApprovals.createdAt,
  decidedBy: adminApprovals.decidedBy,
  decidedAt: adminApprovals.decidedAt,
  decisionReason: adminApprovals.decisionReason,
  lastError: adminApprovals.lastError,
};

const requester = alias(users, 'requester');
const decider = alias(users, 'decider');
const customer = alias(users, 'customer');

@Injectable()
export class ApprovalsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async insert(input: NewApproval, executor: Executor = this.db): Promise<ApprovalRecord> {
    const [row] = await executor.insert(adminApprovals).values(input).returning(columns);
    return row;
  }

  /** The pending request, locked: concurrent approvals queue here, and only the first finds it still pending. */
  async lockPending(id: string, executor: Executor): Promise<ApprovalRecord | undefined> {
    const [row] = await executor
      .select(columns)
      .from(adminApprovals)
      .where(and(eq(adminApprovals.id, id), eq(adminApprovals.status, 'pending')))
      .for('update');
    return row;
  }

  /** pending → approved/rejected; the WHERE clause makes the transition happen once. */
  async decide(id: string, status: 'approved' | 'rejected', by: string, reason: string | null, executor: Executor): Promise<boolean> {
    const rows = await executor
      .update(adminApprovals)
      .set({ status, decidedBy: by, decidedAt: new Date(), decisionReason: reason, lastError: null })
      .where(and(eq(adminApprovals.id, id), eq(adminApprovals.status, 'pending')))
      .returning({ id: adminApprovals.id });
    return rows.length === 1;
  }

  async recordFailure(id: string, message: string, executor: Executor = this.db): Promise<void> {
    await executor
      .update(adminApprovals)
      .set({ lastError: message.slice(0, 1000) })
      .where(and(eq(adminApprovals.id, id), eq(adminApprovals.status, 'pending')));
  }

  /**
   * Serializes the four-eyes velocity decisions of one admin and of one customer (transaction-scoped advisory locks,
   * always the admin's first): two concurrent actions cannot both pass on the same sums.
   */
  async lockVelocity(adminId: string, userId: string | null, executor: Executor): Promise<void> {
    await executor.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`four-eyes:admin:${adminId}`}, 0))`);
    if (userId) await executor.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`four-eyes:customer:${userId}`}, 0))`);
  }

  /** USD of the direct (not approved) admin money actions since `since`: by this admin, and on this customer by any admin. */
  async directSums(adminId: string, userId: string | null, since: Date, executor: Executor): Promise<{ admin: string; customer: string }> {
    const [row] = await executor
      .select({
        admin: sql<string>`coalesce(sum(${adminDirectActions.usdValue}) filter (where ${adminDirectActions.adminId} = ${adminId}), 0)::text`,
        customer: sql<string>`coalesce(sum(${adminDirectActions.usdValue}) filter (where ${adminDirectActions.userId} = ${userId}), 0)::text`,
      })
      .from(adminDirectActions)
      .where(
        and(
          sql`${adminDirectActions.createdAt} > ${since.toISOString()}::timestamptz`,
          userId ? sql`(${adminDirectActions.adminId} = ${adminId} or ${adminDirectActions.userId} = ${userId})` : eq(adminDirectActions.adminId, adminId),
        ),
      );
    return row;
  }

  async recordDirect(adminId: string, userId: string | null, usdValue: string, executor: Executor): Promise<void> {
    await executor.insert(adminDirectActions).values({ adminId, userId, usdValue });
  }

  async countPending(executor: Executor = this.db): Promise<number> {
    const [row] = await executor
      .select({ n: sql<number>`count(*)::int` })
      .from(adminApprovals)
      .where(eq(adminApprovals.status, 'pending'));
    return row.n;
  }

  list(filter: { status?: ApprovalStatus; id?: string; userId?: string; limit: number }, executor: Executor = this.db): Promise<ApprovalView[]> {
    const conditions = [
      filter.status ? eq(adminApprovals.status, filter.status) : undefined,
      filter.id ? eq(adminApprovals.id, filter.id) : undefined,
      filter.userId ? eq(adminApprovals.userId, filter.userId) : undefined,
    ].filter((c) => c !== undefined);
    return executor
      .select({
        ...columns,
        requesterName: requester.name,
        requesterEmail: requester.email,
        deciderName: decider.name,
        deciderEmail: decider.email,
        userEmail: customer.email,
      })
      .from(adminApprovals)
      .innerJoin(requester, eq(requester.id, adminApprovals.requestedBy))
      .leftJoin(decider, eq(decider.id, adminApprovals.decidedBy))
      .leftJoin(customer, eq(customer.id, adminApprovals.userId))
      .where(conditions.length ? and(...conditions) : undefined)
      .orderBy(desc(adminApprovals.createdAt), desc(adminApprovals.id))
      .limit(filter.limit);
  }
}
