import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { JobLocks } from '../../db/advisory-locks';
import { DATABASE, type Database } from '../../db/database';
import { ScheduledJob } from '../../jobs/scheduled-job';
import { UsersRepository } from '../auth/users.repository';
import { MailService } from '../mail/mail.service';
import { NotificationsService } from '../notifications/notifications.service';
import { WebhookBodies, wireEventId } from './webhook-bodies';
import { WebhookSecrets } from './webhook-secrets';
import { sendWebhook, type WebhookAttemptResult } from './webhook-sender';
import { type AttemptOutcome, type ClaimedDelivery, WebhooksRepository } from './webhooks.repository';

/** Deliveries in flight at once on one instance (each to another endpoint): a slow receiver holds one of them. */
const MAX_IN_FLIGHT = 8;
/** The job wakes on its own this often (new events are written by triggers, which send no notification). */
const POLL_MS = 1_000;
/** Another instance held the job lock: look again shortly. */
const LOCKED_RETRY_MS = 500;
const KEEP_FINISHED_MS = 30 * 24 * 3600_000;
const PURGE_EVERY_MS = 3600_000;

/**
 * Delivers the webhook outbox. Each round claims, under an advisory transaction lock (one instance claims at a time),
 * the oldest pending delivery of each endpoint that is due, and leases it: an endpoint gets one delivery at a time, in
 * order, and a second instance never sends the one leased here. The HTTP call runs outside any transaction and any
 * request: a slow or dead receiver costs one of MAX_IN_FLIGHT slots for at most the timeout, never a customer's
 * request or a database connection. A delivery is marked delivered only after a 2xx answer, so a crash in between sends
 * it again when the lease ends: at least once, with the same `webhook-id`. Failures are retried after each wait of
 * WEBHOOK_RETRY_SCHEDULE; after the last one the delivery fails, the endpoint is disabled and its owner told. Never throws.
 */
@Injectable()
export class WebhookDeliveryService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Webhooks');
  /** A round claims and starts what is due; the next one comes when a delivery ends, one is due, or POLL_MS passed. */
  private readonly job: ScheduledJob<number>;
  private stopped = false;
  private lastPurge = 0;
  private readonly inFlight = new Map<number, { abort: AbortController; done: Promise<void> }>();

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly webhooks: WebhooksRepository,
    private readonly bodies: WebhookBodies,
    private readonly secrets: WebhookSecrets,
    private readonly users: UsersRepository,
    private readonly notifications: NotificationsService,
    private readonly mail: MailService,
  ) {
    this.job = new ScheduledJob<number>({
      name: 'Webhook delivery round',
      logger: this.logger,
      everyMs: POLL_MS,
      nextRunMs: (nextInMs) => nextInMs ?? POLL_MS,
      lock: { db, key: JobLocks.webhookDelivery },
      work: () => this.claimRound(),
      failed: POLL_MS,
    });
  }

  onApplicationBootstrap(): void {
    this.job.start();
    this.job.kick();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    await this.job.close();
    // A try cut short is not recorded: its lease ends and it is sent again (at least once).
    for (const flight of this.inFlight.values()) flight.abort.abort();
    await Promise.all([...this.inFlight.values()].map((flight) => flight.done));
  }

  /** A lease outlasts one try: its timeout and the time to record it. */
  private get leaseMs(): number {
    return this.config.integrations.webhooks.timeoutMs * 2 + 5_000;
  }

  /** A round now (or one more right after the current one): new work was queued, or a slot came free. */
  kick(): void {
    this.job.kick();
  }

  /** Claims what is due (up to the free slots) under the job's lock and starts sending it; returns when to look again (ms). */
  private async claimRound(): Promise<number> {
    const free = MAX_IN_FLIGHT - this.inFlight.size;
    if (free > 0) {
      const claimed = await this.job.locked((tx) => this.webhooks.claimDue(this.leaseMs, free, tx));
      if (!claimed) return LOCKED_RETRY_MS;
      for (const delivery of claimed) this.start(delivery);
    }
    if (Date.now() - this.lastPurge > PURGE_EVERY_MS) {
      this.lastPurge = Date.now();
      const purged = await this.webhooks.purgeFinished(KEEP_FINISHED_MS);
      if (purged) this.logger.log(`Deleted ${purged} webhook deliveries finished more than 30 days ago.`);
    }
    const due = await this.webhooks.nextDueInMs();
    return due === undefined ? POLL_MS : Math.min(Math.max(due, 50), POLL_MS);
  }

  private start(delivery: ClaimedDelivery): void {
    const abort = new AbortController();
    const done = this.deliver(delivery, abort.signal)
      .catch((error: unknown) => {
        if (!this.stopped) this.logger.warn(`Webhook delivery ${delivery.id} could not be recorded: ${(error as Error).message}`);
      })
      .finally(() => {
        this.inFlight.delete(delivery.id);
        this.kick();
      });
    this.inFlight.set(delivery.id, { abort, done });
  }

  private async deliver(delivery: ClaimedDelivery, signal: AbortSignal): Promise<void> {
    let body = delivery.body;
    if (body === null) {
      body = await this.bodies.render(delivery);
      await this.webhooks.saveBody(delivery.id, body);
    }
    const { timeoutMs, allowPrivateNetworks } = this.config.integrations.webhooks;
    const result = await sendWebhook(
      { url: delivery.url, eventId: wireEventId(delivery.eventId), body, secrets: this.secrets.signingSecrets(delivery) },
      { timeoutMs, allowPrivate: allowPrivateNetworks, signal },
    );
    if (this.stopped) return;
    await this.record(delivery, result);
  }

  private async record(delivery: ClaimedDelivery, result: WebhookAttemptResult): Promise<void> {
    const schedule = this.config.integrations.webhooks.retryScheduleMs;
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    const outcome: AttemptOutcome = ok
      ? { kind: 'delivered' }
      : delivery.tries < schedule.length
        ? { kind: 'retry', retryInMs: schedule[delivery.tries] }
        : { kind: 'failed' };
    if (outcome.kind !== 'failed') {
      await this.db.transaction((tx) => this.webhooks.recordAttempt(delivery.id, result, outcome, tx));
      if (!ok)
        this.logger.warn(
          `Webhook ${delivery.eventType} to endpoint ${delivery.endpointId} failed (${describe(result)}); try ${delivery.tries + 2} in ${Math.round((outcome as { retryInMs: number }).retryInMs / 1000)} s.`,
        );
      return;
    }
    const tries = delivery.tries + 1;
    const reason = `Disabled after ${tries} failed ${tries === 1 ? 'try' : 'tries'} of event ${wireEventId(delivery.eventId)} (${delivery.eventType}): ${describe(result)}`;
    await this.db.transaction(async (tx) => {
      await this.webhooks.recordAttempt(delivery.id, result, outcome, tx);
      if (!(await this.webhooks.disableEndpoint(delivery.endpointId, reason.slice(0, 500), tx))) return;
      const owner = await this.users.findById(delivery.userId, tx);
      if (!owner) return;
      const where = owner.role === 'admin' ? 'the back office (Webhooks)' : 'Profile → Webhooks';
      const message = `Your webhook endpoint ${delivery.url} was disabled: ${reason}. Its other events wait; fix the receiver, then turn the endpoint back on in ${where}.`;
      if (owner.role === 'user') await this.notifications.notify({ userId: owner.id, title: 'Webhook endpoint disabled', message, status: 'rejected' }, tx);
      await this.mail.send(
        { to: owner.email, subject: 'A Coinpurse webhook endpoint was disabled', text: `Hello ${owner.name},\n\n${message}\n\nCoinpurse\n` },
        tx,
      );
    });
    this.logger.warn(`Webhook endpoint ${delivery.endpointId} disabled: ${reason}`);
  }
}

function describe(result: WebhookAttemptResult): string {
  return result.status !== null ? `HTTP ${result.status}` : (result.error ?? 'no answer');
}
