import { Inject, Injectable } from '@nestjs/common';
import { eq, sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { appState } from '../../db/schema';

/** Keys of the small job-state table. */
export const AppStateKeys = {
  /** Market refresh: last run claim, last success, failures, back-off. */
  marketRefresh: 'market.refresh',
  /** Changes whenever the market list changes (refresh, custom tokens): instances compare it to drop their cache. */
  marketVersion: 'market.version',
  /** Set once the default supported tokens were created, so deleting them is never undone at boot. */
  supportedTokensSeeded: 'supported_tokens.seeded',
  /** Prefix: `price_history.backfill.<coinId>` → when each provider range was last fetched. */
  priceHistoryBackfill: 'price_history.backfill',
} as const;

/** What the market refresh job remembers under `AppStateKeys.marketRefresh` (shared by every instance on the database). */
export interface RefreshState {
  /** Last claim of a refresh run (any instance): at most one run per interval. */
  lastRunAt?: string;
  lastAttemptAt?: string;
  lastSuccessAt?: string;
  /** Consecutive failures (429, 5xx, unreachable, unusable answer). */
  failures?: number;
  /** No provider call before this time. */
  backoffUntil?: string | null;
  lastError?: string | null;
}

@Injectable()
export class AppStateRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async get<T>(key: string, executor: Executor = this.db, forUpdate = false): Promise<T | undefined> {
    const query = executor.select({ value: appState.value }).from(appState).where(eq(appState.key, key));
    const [row] = forUpdate ? await query.for('update') : await query;
    return row?.value as T | undefined;
  }

  async set(key: string, value: unknown, executor: Executor = this.db): Promise<void> {
    await executor
      .insert(appState)
      .values({ key, value, updatedAt: new Date() })
      .onConflictDoUpdate({ target: appState.key, set: { value: sql`excluded.value`, updatedAt: sql`now()` } });
  }

  /** Inserts the key only when absent; true when this call created it. */
  async setIfAbsent(key: string, value: unknown, executor: Executor = this.db): Promise<boolean> {
    const rows = await executor.insert(appState).values({ key, value, updatedAt: new Date() }).onConflictDoNothing().returning({ key: appState.key });
    return rows.length > 0;
  }
}
