import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { JobLocks, tryXactLock } from '../../db/advisory-locks';
import { DATABASE, type Database } from '../../db/database';
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
  private readonly logger = new Logger('Sessions');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: SessionsRepository,
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

  /** How many sessions were deleted (0 when another instance holds the job lock). */
  purge(now = new Date()): Promise<number> {
    const endedBefore = new Date(now.getTime() - ENDED_SESSION_RETENTION_DAYS * 86_400_000);
    this.running ??= this.purgeAll(endedBefore)
      .catch((error: unknown) => {
        this.logger.warn(`Purging ended sessions failed: ${(error as Error).message}`);
        return 0;
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async purgeAll(endedBefore: Date): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await this.db.transaction(async (tx) =>
        (await tryXactLock(tx, JobLocks.sessionsPurge)) ? this.sessions.purgeEnded(endedBefore, this.config.jwtTtlSeconds, BATCH, tx) : 0,
      );
      total += deleted;
      if (deleted < BATCH) return total;
    }
  }
}
