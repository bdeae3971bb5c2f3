import { Inject, Injectable } from '@nestjs/common';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { recoveryCodes, twoFactor } from '../../db/schema';

export interface TwoFactorRecord {
  userId: string;
  secretEncrypted: string;
  enabledAt: Date | null;
  lastUsedStep: number;
}

const columns = { userId: twoFactor.userId, secretEncrypted: twoFactor.secretEncrypted, enabledAt: twoFactor.enabledAt, lastUsedStep: twoFactor.lastUsedStep };

@Injectable()
export class TwoFactorRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async find(userId: string, options: { lock?: boolean } = {}, executor: Executor = this.db): Promise<TwoFactorRecord | undefined> {
    const query = executor.select(columns).from(twoFactor).where(eq(twoFactor.userId, userId));
    const [row] = options.lock ? await query.for('update') : await query;
    return row;
  }

  /** A new pending secret (enrolment not confirmed yet); refuses to replace an enabled one. */
  async savePending(userId: string, secretEncrypted: string, executor: Executor = this.db): Promise<boolean> {
    const rows = await executor
      .insert(twoFactor)
      .values({ userId, secretEncrypted })
      .onConflictDoUpdate({ target: twoFactor.userId, set: { secretEncrypted, lastUsedStep: 0, updatedAt: new Date() }, setWhere: isNull(twoFactor.enabledAt) })
      .returning({ userId: twoFactor.userId });
    return rows.length > 0;
  }

  async enable(userId: string, executor: Executor = this.db): Promise<void> {
    await executor.update(twoFactor).set({ enabledAt: new Date(), updatedAt: new Date() }).where(eq(twoFactor.userId, userId));
  }

  async remove(userId: string, executor: Executor = this.db): Promise<void> {
    await executor.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await executor.delete(twoFactor).where(eq(twoFactor.userId, userId));
  }

  /** Accepts a TOTP time step once: true only when `step` is later than the last accepted one (atomic across requests). */
  async useStep(userId: string, step: number, executor: Executor = this.db): Promise<boolean> {
    const rows = await executor
      .update(twoFactor)
      .set({ lastUsedStep: step, updatedAt: new Date() })
      .where(and(eq(twoFactor.userId, userId), lt(twoFactor.lastUsedStep, step)))
      .returning({ userId: twoFactor.userId });
    return rows.length > 0;
  }

  async replaceRecoveryCodes(userId: string, codeHashes: string[], executor: Executor = this.db): Promise<void> {
    await executor.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await executor.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
  }

  /** Uses an unused recovery code once (atomic); false when unknown or already used. */
  async useRecoveryCode(userId: string, codeHash: string, executor: Executor = this.db): Promise<boolean> {
    const rows = await executor
      .update(recoveryCodes)
      .set({ usedAt: new Date() })
      .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
      .returning({ id: recoveryCodes.id });
    return rows.length > 0;
  }

  async countUnusedRecoveryCodes(userId: string, executor: Executor = this.db): Promise<number> {
    const [row] = await executor
      .select({ count: sql<number>`count(*)::int` })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
    return row.count;
  }
}
