import { Inject, Injectable } from '@nestjs/common';
import { and, eq, isNull } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { passwordResets } from '../../db/schema';

export interface PasswordResetRecord {
  id: string;
  userId: string;
  expiresAt: Date;
  usedAt: Date | null;
}

const columns = { id: passwordResets.id, userId: passwordResets.userId, expiresAt: passwordResets.expiresAt, usedAt: passwordResets.usedAt };

@Injectable()
export class PasswordResetRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async insert(input: { userId: string; tokenHash: string; expiresAt: Date }, executor: Executor = this.db): Promise<void> {
    await executor.insert(passwordResets).values(input);
  }

  /** The reset with this token hash; `lock` takes a row lock so two uses of one token cannot both succeed. */
  async findByHash(tokenHash: string, options: { lock?: boolean } = {}, executor: Executor = this.db): Promise<PasswordResetRecord | undefined> {
    const query = executor.select(columns).from(passwordResets).where(eq(passwordResets.tokenHash, tokenHash));
    const [row] = options.lock ? await query.for('update') : await query;
    return row;
  }

  /** Ends every unused reset link of the user (a newer link, or the password was changed). */
  async useAllForUser(userId: string, executor: Executor = this.db): Promise<void> {
    await executor
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
  }
}
