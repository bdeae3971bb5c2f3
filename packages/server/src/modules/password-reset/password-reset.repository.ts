import { Inject, Injectable } from '@nestjs/common';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { passwordResetRequests, passwordResets } from '../../db/schema';
import { rowsOf } from '../../db/rows';

/** Wakes the request worker; NOTIFY is delivered on commit. */
export const RESET_REQUEST_CHANNEL = 'coinpurse_password_reset';

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

  /** Queues a forgot-password request (known or unknown email alike) and wakes the worker. One statement. */
  async enqueueRequest(email: string, requestId: string | undefined, executor: Executor = this.db): Promise<void> {
    await executor.execute(sql`
      with queued as (insert into ${passwordResetRequests} (email, request_id) values (${email}, ${requestId ?? null}) returning id)
      select pg_notify(${RESET_REQUEST_CHANNEL}, '') from queued`);
  }

  /**
   * Takes the oldest queued request out of the queue inside `executor`'s transaction (rolled back, it is back in
   * the queue). `skip locked`: several workers never take the same request.
   */
  async takeRequest(executor: Executor): Promise<{ email: string; requestId: string | null } | undefined> {
    const result = await executor.execute(sql`
      delete from password_reset_requests
      where id = (select id from password_reset_requests order by created_at limit 1 for update skip locked)
      returning email, request_id`);
    const row = rowsOf(result)[0] as { email: string; request_id: string | null } | undefined;
    return row && { email: row.email, requestId: row.request_id };
  }
}
