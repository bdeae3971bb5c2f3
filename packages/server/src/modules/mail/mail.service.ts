import { Injectable } from '@nestjs/common';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '../../config/config';
import type { Executor } from '../../db/database';
import { MailRepository } from './mail.repository';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** A mail as `cp_write_records` takes it (the columns of `mail_outbox`). */
export interface MailRow {
  to: string;
  subject: string;
  text: string;
  html: string | null;
}

export interface QueuedMailReceipt {
  /** The mail_outbox row; the delivery job sends it after the enqueuing transaction commits. */
  id: string;
}

/** Where mails go without SMTP_URL: DATA_DIR/outbox (the OS temp dir for an in-memory test database). */
export function outboxDirectory(config: AppConfig): string {
  return config.dataDir === ':memory:' ? join(tmpdir(), 'coinpurse-outbox') : join(config.dataDir, 'outbox');
}

/**
 * Outgoing mail through a transactional outbox. `send(mail, tx)` writes a `mail_outbox` row in the caller's
 * transaction: the mail exists if and only if its cause committed. Without `tx` the row is written on its own.
 * The delivery job (`MailDeliveryService`) wakes on commit and hands it to SMTP_URL, or writes it as an .eml file to
 * DATA_DIR/outbox, retrying with back-off until it succeeds (at least once; never lost on a crash or an outage).
 */
@Injectable()
export class MailService {
  constructor(private readonly outbox: MailRepository) {}

  /**
   * `send` as a row for a money function to write with its movement (`cp_write_records`), and the delivery job's
   * wake-up: `announce` once the call committed on its own, or `publish` in the caller's transaction.
   */
  outboxRecord(mail: OutgoingMail): { row: MailRow; announce: () => void; publish: (tx: Executor) => Promise<void> } {
    return {
      row: { to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? null },
      announce: () => this.outbox.wake(),
      publish: (tx) => this.outbox.wakeOnCommit(tx),
    };
  }

  async send(mail: OutgoingMail, executor?: Executor): Promise<QueuedMailReceipt> {
    return { id: await this.outbox.enqueue(mail, executor) };
  }
}
