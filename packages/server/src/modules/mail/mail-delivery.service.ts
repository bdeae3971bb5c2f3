import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { JobLocks } from '../../db/advisory-locks';
import { DATABASE, type Database, type DatabaseHandle } from '../../db/database';
import { DATABASE_HANDLE } from '../../db/database.module';
import { ScheduledJob } from '../../jobs/scheduled-job';
import { MAIL_CHANNEL, MailRepository, type QueuedMail } from './mail.repository';
import { outboxDirectory } from './mail.service';

/** A claimed row is leased this long: longer than one delivery can take (the SMTP timeouts below). */
const LEASE_MS = 2 * 60_000;
/** Retry back-off: 2 s, 4 s, 8 s, ... at most 15 minutes (plus up to 10 % jitter). */
const RETRY_BASE_MS = 2_000;
const RETRY_MAX_MS = 15 * 60_000;
/** The job also wakes on its own (missed notifications, retries coming due, another instance's lease ending). */
const POLL_MS = 5_000;
/** Another instance held the job lock: look again shortly, in case it had already passed over our new row. */
const LOCKED_RETRY_MS = 250;
const KEEP_SENT_MS = 7 * 24 * 3600_000;
const PURGE_EVERY_MS = 3600_000;

export function retryDelayMs(attempts: number): number {
  const base = Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_MS);
  return Math.round(base * (1 + Math.random() * 0.1));
}

/**
 * Delivers the mail outbox. Woken by NOTIFY on commit of every enqueued mail (so mails still go out at once) and by a
 * timer. Rows are claimed one at a time under an advisory transaction lock (one instance claims at a time; PGlite has
 * one process) and leased while being sent; a row is marked sent only after SMTP or the .eml file took it, so a crash
 * between the two sends it again when the lease ends: delivery is at least once (the Message-ID is the row id, so
 * receivers can recognise a repeat). Failures are retried with exponential back-off, never dropped. Never throws.
 */
@Injectable()
export class MailDeliveryService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Mail');
  private readonly transport: Transporter;
  private readonly via: 'smtp' | 'outbox';
  /** Runs now when a mail is queued (NOTIFY), else when `deliverDue` says; one instance claims at a time (its lock). */
  private readonly job: ScheduledJob<number>;
  private stopped = false;
  private unlisten: (() => Promise<void>) | undefined;
  private lastPurge = 0;

  constructor(
    @Inject(DATABASE) db: Database,
    @Inject(DATABASE_HANDLE) private readonly handle: DatabaseHandle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly outbox: MailRepository,
  ) {
    this.job = new ScheduledJob<number>({
      name: 'Mail delivery run',
      logger: this.logger,
      everyMs: POLL_MS,
      nextRunMs: (nextInMs) => nextInMs ?? POLL_MS,
      lock: { db, key: JobLocks.mailDelivery },
      work: () => this.deliverDue(),
      failed: POLL_MS,
    });
    const timeouts = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };
    if (config.smtpUrl) {
      this.via = 'smtp';
      this.transport = nodemailer.createTransport(config.smtpUrl, { from: config.mailFrom, ...timeouts });
    } else {
      this.via = 'outbox';
      this.transport = nodemailer.createTransport(
        { streamTransport: true, buffer: true, newline: 'unix' } as Parameters<typeof nodemailer.createTransport>[0],
        { from: config.mailFrom },
      );
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    if (typeof this.handle?.listen === 'function') this.unlisten = await this.handle.listen(MAIL_CHANNEL, () => this.kick());
    this.job.start();
    this.kick();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.job.stop();
    await this.unlisten?.().catch(() => undefined);
    await this.job.close();
    this.transport.close();
  }

  /** Runs the job now (or once more right after the current run). */
  kick(): void {
    this.job.kick();
  }

  /** Delivers every due mail; returns when to look again (ms). */
  private async deliverDue(): Promise<number> {
    for (;;) {
      if (this.stopped) return POLL_MS;
      const claim = await this.job.locked(async (tx) => (await this.outbox.claimDue(LEASE_MS, tx)) ?? ('none' as const));
      if (claim === undefined) return LOCKED_RETRY_MS;
      if (claim === 'none') break;
      await this.deliverOne(claim);
    }
    if (Date.now() - this.lastPurge > PURGE_EVERY_MS) {
      this.lastPurge = Date.now();
      const purged = await this.outbox.purgeSent(KEEP_SENT_MS);
      if (purged) this.logger.log(`Deleted ${purged} mail(s) sent more than 7 days ago from the outbox.`);
    }
    const due = await this.outbox.nextDueInMs();
    return due === undefined ? POLL_MS : Math.min(Math.max(due, 50), POLL_MS);
  }

  private async deliverOne(mail: QueuedMail): Promise<void> {
    try {
      await this.transmit(mail);
    } catch (error) {
      const delay = retryDelayMs(mail.attempts);
      const message = (error as Error)?.message ?? String(error);
      await this.outbox.markFailed(mail.id, message, delay);
      this.logger.warn(`Mail ${mail.id} "${mail.subject}" not delivered (attempt ${mail.attempts}: ${message}); next try in ${Math.round(delay / 1000)} s.`);
      return;
    }
    await this.outbox.markSent(mail.id);
  }

  private async transmit(mail: QueuedMail): Promise<void> {
    const info = await this.transport.sendMail({
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? undefined,
      messageId: `<${mail.id}@coinpurse.mail>`,
      date: mail.createdAt,
    });
    if (this.via === 'smtp') return;
    const directory = outboxDirectory(this.config);
    await mkdir(directory, { recursive: true });
    // One file per row: a repeat delivery rewrites the same file instead of adding a second one.
    const file = join(directory, `${mail.createdAt.toISOString().replace(/[:.]/g, '-')}-${mail.id}.eml`);
    await writeFile(file, (info as unknown as { message: Buffer }).message, { mode: 0o600 });
    this.logger.log(`No SMTP_URL: mail "${mail.subject}" to ${mail.to} written to ${file}`);
  }
}
