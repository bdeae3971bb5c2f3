import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { JobLocks } from '../../db/advisory-locks';
import { DATABASE, type Database } from '../../db/database';
import { ScheduledJob } from '../../jobs/scheduled-job';
import { RateLimitRepository } from './rate-limit.repository';

const PURGE_EVERY_MS = 60_000;

/** Deletes ended rate-limit counters every minute, on one instance at a time. Never throws. */
@Injectable()
export class RateLimitPurgeService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly job: ScheduledJob<number>;

  constructor(@Inject(DATABASE) db: Database, counters: RateLimitRepository) {
    this.job = new ScheduledJob<number>({
      name: 'Purging rate-limit counters',
      logger: new Logger('RateLimit'),
      everyMs: PURGE_EVERY_MS,
      lock: { db, key: JobLocks.rateLimitPurge },
      work: async () => (await this.job.locked((tx) => counters.purgeExpired(tx))) ?? 0,
      failed: 0,
    });
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.job.close();
  }

  /** Returns how many counters were deleted (0 when another instance holds the job lock). */
  async purge(): Promise<number> {
    return (await this.job.run()) ?? 0;
  }
}
