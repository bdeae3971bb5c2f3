import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface SentMail {
  /** 'smtp' when handed to SMTP_URL, 'outbox' when written to DATA_DIR/outbox. */
  via: 'smtp' | 'outbox';
  messageId: string;
  /** The .eml file, for the outbox. */
  file?: string;
}

/** Where mails go without SMTP_URL: DATA_DIR/outbox (the OS temp dir for an in-memory test database). */
export function outboxDirectory(config: AppConfig): string {
  return config.dataDir === ':memory:' ? join(tmpdir(), 'coinpurse-outbox') : join(config.dataDir, 'outbox');
}

/**
 * Outgoing mail. With SMTP_URL: nodemailer over SMTP. Without: the complete message is written as an .eml file to
 * DATA_DIR/outbox and its path logged, so reset links and ticket replies can be followed offline.
 */
@Injectable()
export class MailService implements OnModuleDestroy {
  private readonly logger = new Logger('Mail');
  private readonly transport: Transporter;
  private readonly via: 'smtp' | 'outbox';

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    if (config.smtpUrl) {
      this.via = 'smtp';
      this.transport = nodemailer.createTransport(config.smtpUrl, { from: config.mailFrom });
    } else {
      this.via = 'outbox';
      this.transport = nodemailer.createTransport(
        { streamTransport: true, buffer: true, newline: 'unix' } as Parameters<typeof nodemailer.createTransport>[0],
        { from: config.mailFrom },
      );
    }
  }

  async send(mail: OutgoingMail): Promise<SentMail> {
    const info = await this.transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    if (this.via === 'smtp') return { via: 'smtp', messageId: info.messageId };
    const directory = outboxDirectory(this.config);
    await mkdir(directory, { recursive: true });
    const file = join(directory, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`);
    await writeFile(file, (info as unknown as { message: Buffer }).message, { mode: 0o600 });
    this.logger.log(`No SMTP_URL: mail "${mail.subject}" to ${mail.to} written to ${file}`);
    return { via: 'outbox', messageId: info.messageId, file };
  }

  onModuleDestroy(): void {
    this.transport.close();
  }
}
