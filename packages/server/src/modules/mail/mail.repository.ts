import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { DATABASE, type Database, type DatabaseHandle, type Executor } from '../../db/database';
import { DATABASE_HANDLE } from '../../db/database.module';
import { mailOutbox } from '../../db/schema';
import { rowsOf } from '../../db/rows';

/** The channel that wakes the delivery job; NOTIFY in a transaction is delivered only on commit. */
export const MAIL_CHANNEL = 'coinpurse_mail';

export interface QueuedMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  attempts: number;
  createdAt: Date;
}

@Injectable()
export class MailRepository {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(DATABASE_HANDLE) private readonly handle: DatabaseHandle,
  ) {}

  /** Wakes the delivery job now (a mail committed already). */
  wake(): void {
    this.handle.announcer.wake(MAIL_CHANNEL);
  }

  /** Wakes the delivery job when `tx` commits. */
  async wakeOnCommit(tx: Executor): Promise<void> {
    await tx.execute(sql`select pg_notify(${MAIL_CHANNEL}, '')`);
  }

  /** Queues a mail and wakes the delivery job (on commit, when `executor` is a transaction). */
  async enqueue(mail: { to: string; subject: string; text: string; html?: string | null }, executor: Executor = this.db): Promise<string> {
    const [row] = await executor
      .insert(mailOutbox)
      .values({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? null })
      .returning({ id: mailOutbox.id });
    await executor.execute(sql`select pg_notify(${MAIL_CHANNEL}, '')`);
    return row.id;
  }

  /**
   * Claims the oldest due mail: counts the attempt and leases the row for `leaseMs` (a sender that dies mid-delivery
   * leaves it due again when the lease ends). `skip locked`: a row another claim holds is passed over.
   */
  async claimDue(leaseMs: number, executor: Executor = this.db): Promise<QueuedMail | undefined> {
    const result = await executor.execute(sql`
      update mail_outbox set attempts = attempts + 1, next_attempt_at = now() + (${leaseMs}::bigint * interval '1 millisecond')
      where id = (select id from mail_outbox where sent_at is null and next_attempt_at <= now()
                  order by next_attempt_at, created_at limit 1 for update skip locked)
      returning id, "to", subject, text, html, attempts, created_at`);
    const row = rowsOf(result)[0] as
      { id: string; to: string; subject: string; text: string; html: string | null; attempts: number; created_at: Date | string } | undefined;
    return row && { ...row, attempts: Number(row.attempts), createdAt: new Date(row.created_at) };
  }

  async markSent(id: string, executor: Executor = this.db): Promise<void> {
    await executor.execute(sql`update mail_outbox set sent_at = now(), last_error = null where id = ${id}`);
  }

  async markFailed(id: string, error: string, retryInMs: number, executor: Executor = this.db): Promise<void> {
    await executor.execute(
      sql`update mail_outbox set last_error = ${error.slice(0, 1000)}, next_attempt_at = now() + (${retryInMs}::bigint * interval '1 millisecond') where id = ${id}`,
    );
  }

  /** Milliseconds until the next pending mail is due (0 when one is due now), or undefined when none is pending. */
  async nextDueInMs(executor: Executor = this.db): Promise<number | undefined> {
    const result = await executor.execute(
      // No greatest(0, …) here: greatest ignores a NULL, and an empty outbox would read as "due now" (a poll every 50 ms).
      sql`select ceil(extract(epoch from (min(next_attempt_at) - now())) * 1000)::bigint as due_ms from mail_outbox where sent_at is null`,
    );
    const value = (rowsOf(result)[0] as { due_ms: string | number | null } | undefined)?.due_ms;
    return value === null || value === undefined ? undefined : Math.max(0, Number(value));
  }

  /** Sent mails are kept a while for support, then deleted (their bodies may hold reset links). */
  async purgeSent(olderThanMs: number, executor: Executor = this.db): Promise<number> {
    const result = await executor.execute(sql`delete from mail_outbox where sent_at < now() - (${olderThanMs}::bigint * interval '1 millisecond') returning 1`);
    return rowsOf(result).length;
  }
}
