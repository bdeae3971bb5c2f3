import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { JobLocks } from '../../db/advisory-locks';
import { DATABASE, type Database } from '../../db/database';
import { ScheduledJob } from '../../jobs/scheduled-job';
import { SessionsRepository } from './sessions.repository';

/**
 * Ended sessions are kept this long: they still tell "a sign-in from a new device" apart from a known one, and show in
 * the audit trail of a recent incident. After that they are deleted.
 */
export const ENDED_SESSION_RETENTION_DAYS = 90;
const PURGE_EVERY_MS = 60 * 60_000;
const BATCH = 5_000;

/** Deletes long-ended sessions every hour, on one instance at a time, in batches. Safe to re-run; never throws. */
@Injectable()
export class SessionsPurgeService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly job: ScheduledJob<number>;

  constructor(
    @Inject(DATABASE) db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: SessionsRepository,
  ) {
    this.job = new ScheduledJob<number>({
      name: 'Purging ended sessions',
      logger: new Logger('Sessions'),
      everyMs: PURGE_EVERY_MS,
      lock: { db, key: JobLocks.sessionsPurge },
      work: () => this.purgeAll(new Date()),
      failed: 0,
    });
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.job.close();
  }

  /** How many sessions were deleted (0 when another instance holds the job lock). */
  async purge(now = new Date()): Promise<number> {
    return (await this.job.run(() => this.purgeAll(now))) ?? 0;
  }

  private async purgeAll(now: Date): Promise<number> {
    const endedBefore = new Date(now.getTime() - ENDED_SESSION_RETENTION_DAYS * 86_400_000);
    let total = 0;
    for (;;) {
      const deleted = (await this.job.locked((tx) => this.sessions.purgeEnded(endedBefore, this.config.jwtTtlSeconds, BATCH, tx))) ?? 0;
      total += deleted;
      if (deleted < BATCH) return total;
    }
  }
}
