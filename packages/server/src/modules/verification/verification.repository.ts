import { Inject, Injectable } from '@nestjs/common';
import { and, desc, eq, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { users, verificationDocuments, verificationLimits, verificationSettings, verificationSubmissions } from '../../db/schema';
import type { LevelLimits } from '../../config/kyc-config';

export type SubmissionStatus = 'in_review' | 'approved' | 'rejected';
export type DocumentKind = 'id_front' | 'id_back' | 'selfie' | 'proof_of_address';

export interface SubmissionRecord {
  id: string;
  userId: string;
  level: number;
  status: SubmissionStatus;
  detailsSealed: string | null;
  assignedTo: string | null;
  decidedBy: string | null;
  decidedAt: Date | null;
  reason: string | null;
  createdAt: Date;
}

export interface SubmissionListRow extends SubmissionRecord {
  createdAtKey: string;
  userName: string;
  userEmail: string;
  currentLevel: number;
  assignedToName: string | null;
  decidedByName: string | null;
}

export interface DocumentRecord {
  id: string;
  userId: string;
  submissionId: string | null;
  kind: DocumentKind;
  contentType: string;
  size: number;
  createdAt: Date;
}

const submissionColumns = {
  id: verificationSubmissions.id,
  userId: verificationSubmissions.userId,
  level: verificationSubmissions.level,
  status: verificationSubmissions.status,
  detailsSealed: verificationSubmissions.detailsSealed,
  assignedTo: verificationSubmissions.assignedTo,
  decidedBy: verificationSubmissions.decidedBy,
  decidedAt: verificationSubmissions.decidedAt,
  reason: verificationSubmissions.reason,
  createdAt: verificationSubmissions.createdAt,
};

const documentColumns = {
  id: verificationDocuments.id,
  userId: verificationDocuments.userId,
  submissionId: verificationDocuments.submissionId,
  kind: verificationDocuments.kind,
  contentType: verificationDocuments.contentType,
  size: verificationDocuments.size,
  createdAt: verificationDocuments.createdAt,
};

const limitColumns = {
  level: verificationLimits.level,
  depositDay: verificationLimits.depositDay,
  depositMonth: verificationLimits.depositMonth,
  withdrawalDay: verificationLimits.withdrawalDay,
  withdrawalMonth: verificationLimits.withdrawalMonth,
  withdrawalSingle: verificationLimits.withdrawalSingle,
  swapDay: verificationLimits.swapDay,
  swapMonth: verificationLimits.swapMonth,
};

@Injectable()
export class VerificationRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async level(userId: string, executor: Executor = this.db): Promise<{ level: number; active: boolean; email: string; name: string } | undefined> {
    const [row] = await executor
      .select({ level: users.verificationLevel, deactivatedAt: users.deactivatedAt, email: users.email, name: users.name })
      .from(users)
      .where(eq(users.id, userId));
    return row && { level: row.level, active: !row.deactivatedAt, email: row.email, name: row.name };
  }

  async setLevel(userId: string, level: number, executor: Executor = this.db): Promise<void> {
    await executor.update(users).set({ verificationLevel: level, updatedAt: new Date() }).where(eq(users.id, userId));
  }

  /** The draft document of this kind is replaced (one per kind until submitted). */
  async putDraftDocument(
    input: { id: string; userId: string; kind: DocumentKind; contentType: string; size: number; sealed: Buffer },
    executor: Executor = this.db,
  ): Promise<void> {
    await executor
      .delete(verificationDocuments)
      .where(and(eq(verificationDocuments.userId, input.userId), eq(verificationDocuments.kind, input.kind), isNull(verificationDocuments.submissionId)));
    await executor.insert(verificationDocuments).values(input);
  }

  async draftDocuments(userId: string, executor: Executor = this.db): Promise<DocumentRecord[]> {
    return executor
      .select(documentColumns)
      .from(verificationDocuments)
      .where(and(eq(verificationDocuments.userId, userId), isNull(verificationDocuments.submissionId)))
      .orderBy(verificationDocuments.kind);
  }

  async attachDrafts(userId: string, submissionId: string, kinds: DocumentKind[], executor: Executor = this.db): Promise<void> {
    await executor
      .update(verificationDocuments)
      .set({ submissionId })
      .where(
        and(
          eq(verificationDocuments.userId, userId),
          isNull(verificationDocuments.submissionId),
          sql`${verificationDocuments.kind} = any(${sql.param(kinds)}::text[])`,
        ),
      );
  }

  async submissionDocuments(submissionId: string, executor: Executor = this.db): Promise<DocumentRecord[]> {
    return executor
      .select(documentColumns)
      .from(verificationDocuments)
      .where(eq(verificationDocuments.submissionId, submissionId))
      .orderBy(verificationDocuments.kind);
  }

  async documentBytes(submissionId: string, documentId: string, executor: Executor = this.db): Promise<(DocumentRecord & { sealed: Buffer }) | undefined> {
    const [row] = await executor
      .select({ ...documentColumns, sealed: verificationDocuments.sealed })
      .from(verificationDocuments)
      .where(and(eq(verificationDocuments.id, documentId), eq(verificationDocuments.submissionId, submissionId)));
    return row;
  }

  async insertSubmission(
    input: { id: string; userId: string; level: number; detailsSealed: string | null },
    executor: Executor = this.db,
  ): Promise<SubmissionRecord> {
    const [row] = await executor.insert(verificationSubmissions).values(input).returning(submissionColumns);
    return row;
  }

  async latestSubmission(userId: string, executor: Executor = this.db): Promise<SubmissionRecord | undefined> {
    const [row] = await executor
      .select(submissionColumns)
      .from(verificationSubmissions)
      .where(eq(verificationSubmissions.userId, userId))
      .orderBy(desc(verificationSubmissions.createdAt))
      .limit(1);
    return row;
  }

  async findSubmission(id: string, options: { lock?: boolean } = {}, executor: Executor = this.db): Promise<SubmissionRecord | undefined> {
    const query = executor.select(submissionColumns).from(verificationSubmissions).where(eq(verificationSubmissions.id, id));
    const [row] = options.lock ? await query.for('update') : await query;
    return row;
  }

  async decide(id: string, input: { status: 'approved' | 'rejected'; decidedBy: string; reason: string | null }, executor: Executor = this.db): Promise<void> {
    await executor
      .update(verificationSubmissions)
      .set({ ...input, decidedAt: new Date(), updatedAt: new Date() })
      .where(eq(verificationSubmissions.id, id));
  }

  async assign(id: string, adminId: string, executor: Executor = this.db): Promise<void> {
    await executor.update(verificationSubmissions).set({ assignedTo: adminId, updatedAt: new Date() }).where(eq(verificationSubmissions.id, id));
  }

  async adminName(id: string, executor: Executor = this.db): Promise<string | undefined> {
    const [row] = await executor
      .select({ name: users.name })
      .from(users)
      .where(and(eq(users.id, id), eq(users.role, 'admin'), isNull(users.deactivatedAt)));
    return row?.name;
  }

  /** Newest first, by (created_at, id); one customer's history with `userId`. */
  async list(
    filter: { status?: SubmissionStatus; userId?: string; id?: string; after?: { createdAt: string; id: string }; limit: number },
    executor: Executor = this.db,
  ): Promise<SubmissionListRow[]> {
    const assignee = alias(users, 'assignee');
    const decider = alias(users, 'decider');
    const conditions: SQL[] = [];
    if (filter.status) conditions.push(eq(verificationSubmissions.status, filter.status));
    if (filter.userId) conditions.push(eq(verificationSubmissions.userId, filter.userId));
    if (filter.id) conditions.push(eq(verificationSubmissions.id, filter.id));
    if (filter.after) {
      conditions.push(
        or(
          lt(verificationSubmissions.createdAt, sql`${filter.after.createdAt}::timestamptz`),
          and(eq(verificationSubmissions.createdAt, sql`${filter.after.createdAt}::timestamptz`), lt(verificationSubmissions.id, filter.after.id)),
        )!,
      );
    }
    return executor
      .select({
        ...submissionColumns,
        createdAtKey: sql<string>`${verificationSubmissions.createdAt}::text`,
        userName: users.name,
        userEmail: users.email,
        currentLevel: users.verificationLevel,
        assignedToName: assignee.name,
        decidedByName: decider.name,
      })
      .from(verificationSubmissions)
      .innerJoin(users, eq(users.id, verificationSubmissions.userId))
      .leftJoin(assignee, eq(assignee.id, verificationSubmissions.assignedTo))
      .leftJoin(decider, eq(decider.id, verificationSubmissions.decidedBy))
      .where(conditions.length ? and(...conditions) : undefined)
      .orderBy(desc(verificationSubmissions.createdAt), desc(verificationSubmissions.id))
      .limit(filter.limit);
  }

  // ----- limits -----

  async limits(executor: Executor = this.db): Promise<Array<LevelLimits & { level: number }>> {
    return executor.select(limitColumns).from(verificationLimits).orderBy(verificationLimits.level);
  }

  /** At start: each level's row from configuration when missing (the back office's changes are kept), and KYC_LIMITS. */
  async seed(defaults: Record<number, LevelLimits>, limitsEnabled: boolean, executor: Executor = this.db): Promise<void> {
    await executor
      .insert(verificationLimits)
      .values(Object.entries(defaults).map(([level, limits]) => ({ level: Number(level), ...limits })))
      .onConflictDoNothing();
    await executor
      .insert(verificationSettings)
      .values({ id: 1, limitsEnabled })
      .onConflictDoUpdate({ target: verificationSettings.id, set: { limitsEnabled, updatedAt: new Date() } });
  }

  async updateLimits(level: number, limits: LevelLimits, updatedBy: string, executor: Executor = this.db): Promise<void> {
    await executor
      .update(verificationLimits)
      .set({ ...limits, updatedBy, updatedAt: new Date() })
      .where(eq(verificationLimits.level, level));
  }

  /**
   * What the customer moved in USD over the last 24 hours and 30 days, per kind, as the limit rule counts it
   * (cp_verification_usage in drizzle/0056).
   */
  async usage(userId: string, executor: Executor = this.db): Promise<Record<'deposit' | 'withdrawal' | 'swap', { day: string; month: string }>> {
    const result = (await executor.execute(
      sql`select kind, day_usd::text as day, month_usd::text as month from cp_verification_usage(${userId}::uuid)`,
    )) as unknown as { rows: Array<{ kind: 'deposit' | 'withdrawal' | 'swap'; day: string; month: string }> };
    const usage = { deposit: { day: '0', month: '0' }, withdrawal: { day: '0', month: '0' }, swap: { day: '0', month: '0' } };
    for (const row of result.rows) usage[row.kind] = { day: row.day, month: row.month };
    return usage;
  }
}
