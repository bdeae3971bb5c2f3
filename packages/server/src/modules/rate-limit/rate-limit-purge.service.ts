import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { JobLocks, tryXactLock } from '../../db/advisory-locks';
import { DATABASE, type Database } from '../../db/database';
import { RateLimitRepository } from './rate-limit.repository';

const PURGE_EVERY_MS = 60_000;

/** Deletes ended rate-limit counters every minute, on one instance at a time. Never throws. */
@Injectable()
export class RateLimitPurgeService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('RateLimit');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly counters: RateLimitRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.purge(), PURGE_EVERY_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Returns how many counters were deleted (0 when another instance holds the job lock). */
  purge(): Promise<number> {
    this.running ??= this.db
      .transaction(async (tx) => ((await tryXactLock(tx, JobLocks.rateLimitPurge)) ? this.counters.purgeExpired(tx) : 0))
      .catch((error: unknown) => {
        this.logger.warn(`Purging rate-limit counters failed: ${(error as Error).message}`);
        return 0;
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }
}
