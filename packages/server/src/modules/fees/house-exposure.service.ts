import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Counter } from 'prom-client';
import { AuditService } from '../audit/audit.service';
import { MailService } from '../mail/mail.service';
import { NotificationsService } from '../notifications/notifications.service';
import { MetricsService } from '../observability/metrics.service';
import { HouseExposureAlerts } from '../wallet/house-exposure-alerts';
import { ScheduledJob } from '../../jobs/scheduled-job';
import { inTransaction } from '../../db/in-transaction';
import { Inject } from '@nestjs/common';
import { DATABASE, type Database } from '../../db/database';
import { FeesRepository } from './fees.repository';

/** How often open alerts are looked at again (closed once the position is back above its minimum). */
const RECOVERY_CHECK_MS = 60_000;

/**
 * The operator's alert when the house position refused a swap or a withdrawal (CPH01, drizzle/0050_fees.sql): an error
 * line in the log, the metric `coinpurse_house_exposure_refusals_total`, an audit entry (`house.exposure`), and a
 * notification and mail to every active administrator — once per token (house_exposure_alerts, shared by every
 * instance) until its position is back at or above the minimum, which a job checks every minute (logged and audited).
 */
@Injectable()
export class HouseExposureService extends HouseExposureAlerts implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('HouseExposure');
  private readonly refusals: Counter<'token' | 'kind'>;
  private readonly recovery = new ScheduledJob<void>({
    name: 'House exposure recovery',
    logger: this.logger,
    everyMs: RECOVERY_CHECK_MS,
    work: () => this.closeRecovered(),
  });

  constructor(
    private readonly repository: FeesRepository,
    private readonly audit: AuditService,
    private readonly mail: MailService,
    private readonly notifications: NotificationsService,
    @Inject(DATABASE) private readonly db: Database,
    metrics: MetricsService,
  ) {
    super();
    this.refusals = new Counter({
      name: 'coinpurse_house_exposure_refusals_total',
      help: 'Swaps and withdrawals refused because the house position of the token would go below its minimum (HOUSE_MIN_POSITION_USD / the Fees screen)',
      labelNames: ['token', 'kind'] as const,
      registers: [metrics.registry],
    });
  }

  onApplicationBootstrap(): void {
    this.recovery.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.recovery.close();
  }

  refused(token: string, kind: 'swap'): void {
    this.refusals.inc({ token, kind });
    void this.alert(token, kind).catch((error: Error) => this.logger.warn(`The house exposure alert of ${token} could not be raised: ${error.message}`));
  }

  /** Raises the alert of a token unless it is open; resolves true when it was raised now. */
  async alert(token: string, kind: 'swap'): Promise<boolean> {
    const raised = await inTransaction(this.db, async (tx) => {
      if (!(await this.repository.openAlert(token, tx))) return false;
      const text =
        `A swap into ${token} was refused: the house position of ${token} (what the platform holds minus what it owes customers) ` +
        `would go below its minimum. Swaps into it are refused until it recovers: add holdings (a deposit to ` +
        `the hot or cold wallet, or the inventory on the Fees screen for a token without a chain connection) or lower its minimum. ` +
        `See Back office → Fees and Reserves. This alert is sent once until the position recovers.`;
      await this.audit.record(null, { action: 'house.exposure', targetType: 'token', targetId: token, after: { kind, refused: true } }, tx);
      for (const admin of await this.repository.activeAdmins(tx)) {
        await this.notifications.notify({ userId: admin.id, title: `House position of ${token} too low`, message: text, status: 'rejected' }, tx);
        await this.mail.send({ to: admin.email, subject: `ALERT: ${token} house position below its minimum`, text: `Hello ${admin.name},\n\n${text}\n` }, tx);
      }
      return true;
    });
    if (raised) this.logger.error(`ALERT house exposure: ${kind} refused, ${token} position below its minimum; admins notified`);
    return raised;
  }

  /** Closes the alerts of tokens whose position recovered (logged and audited). */
  async closeRecovered(): Promise<void> {
    const closed = await inTransaction(this.db, async (tx) => {
      const tokens = await this.repository.closeRecovered(tx);
      for (const token of tokens)
        await this.audit.record(null, { action: 'house.recovered', targetType: 'token', targetId: token, after: { recovered: true } }, tx);
      return tokens;
    });
    for (const token of closed) this.logger.warn(`House exposure: ${token} position is back at or above its minimum`);
  }
}
