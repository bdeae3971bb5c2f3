import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { JobLocks, tryXactLock, xactLock } from '../../db/advisory-locks';
import { DATABASE, type Database } from '../../db/database';
import { ScheduledJob } from '../../jobs/scheduled-job';
import { AppStateKeys, AppStateRepository, type RefreshState } from './app-state.repository';
import { type CoinUpsert, CoinsRepository } from './coins.repository';
import { fetchProviderJson, marketsRequest, parseMarketRows, type ProviderFetchResult } from './coingecko';
import { ReferenceDataCache } from '../reference-data/reference-data.cache';
import { MarketCacheService } from './market-cache.service';
import { MarketMetrics } from './market-metrics';
import { loadSnapshot } from './market-snapshot';
import { PriceHistoryRepository } from './price-history.repository';
import { PriceHistoryService } from './price-history.service';
import { SupportedTokensRepository } from './supported-tokens.repository';

export type RefreshOutcome =
  | { status: 'refreshed'; stored: number; skipped: number }
  | { status: 'skipped'; reason: 'locked' | 'not-due' | 'backoff' | 'running' | 'stopping'; until?: string }
  | { status: 'failed'; error: string; backoffUntil?: string };

/** Tokens a fresh database supports (no deposit address until an admin sets one). */
export const DEFAULT_SUPPORTED_TOKENS = ['bitcoin', 'ethereum', 'tether'] as const;
const MAX_BACKOFF_SECONDS = 30 * 60;
const FETCH_TIMEOUT_MS = 15_000;

/**
 * The market price job. At boot: loads the offline snapshot into an empty market and creates the default supported
 * tokens once. Then, when MARKET_REFRESH_SECONDS > 0, refreshes from CoinGecko every interval. A refresh never
 * throws; it backs off exponentially on failures (429, 5xx, unreachable), honouring Retry-After; and with several
 * instances on one database only one refreshes per interval: a PostgreSQL advisory transaction lock guards a
 * "last run" claim in app_state, and the claim commits before the HTTP call (no transaction spans the network).
 */
@Injectable()
export class MarketRefreshService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Market');
  private inFlight: Promise<RefreshOutcome> | null = null;
  private readonly shutdown = new AbortController();
  /** Every MARKET_REFRESH_SECONDS, and a first attempt right after boot (live prices replace the snapshot at once). */
  private readonly schedule: ScheduledJob<RefreshOutcome>;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly coins: CoinsRepository,
    private readonly tokens: SupportedTokensRepository,
    private readonly appState: AppStateRepository,
    private readonly cache: MarketCacheService,
    private readonly referenceData: ReferenceDataCache,
    private readonly pricePoints: PriceHistoryRepository,
    private readonly priceHistory: PriceHistoryService,
    private readonly metrics: MarketMetrics,
  ) {
    this.schedule = new ScheduledJob<RefreshOutcome>({
      name: 'Market refresh',
      logger: this.logger,
      everyMs: config.marketRefreshSeconds * 1000,
      firstRunMs: 50,
      // Never throws, and claims its interval under the refresh lock itself (`run`).
      work: () => this.refresh(),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.seed();
    if (this.config.marketRefreshEnabled) this.schedule.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.schedule.stop();
    this.shutdown.abort();
    await this.inFlight?.catch(() => undefined);
  }

  /**
   * Snapshot into an empty market (the provider never answered here), and the default supported tokens once per
   * database (a flag in app_state, so tokens an admin deleted stay deleted). Idempotent; safe with several instances.
   */
  async seed(): Promise<void> {
    let loaded = 0;
    await this.db.transaction(async (tx) => {
      await xactLock(tx, JobLocks.marketSeed);
      const summary = await this.coins.marketSummary(tx);
      if (summary.every((entry) => entry.count === 0)) {
        const { rows } = loadSnapshot();
        await this.coins.upsertMany(rows, tx);
        loaded = rows.length;
        await this.appState.set(AppStateKeys.marketVersion, { version: newVersion() }, tx);
      }
      if (await this.appState.setIfAbsent(AppStateKeys.supportedTokensSeeded, { at: new Date().toISOString(), tokens: DEFAULT_SUPPORTED_TOKENS }, tx)) {
        const present = new Set((await this.coins.findByIds([...DEFAULT_SUPPORTED_TOKENS], tx)).map((coin) => coin.id));
        for (const coinId of DEFAULT_SUPPORTED_TOKENS) {
          if (present.has(coinId)) await this.tokens.insertIfAbsent({ coinId, kind: 'market', address: null }, tx);
        }
      }
    });
    this.referenceData.invalidate();
    if (loaded) {
      this.cache.invalidate();
      this.logger.log(`Loaded the offline market snapshot (${loaded} coins).`);
    }
  }

  /**
   * One refresh attempt. Never throws. `force` skips the once-per-interval check (tests, admin tools) but never the
   * back-off or the lock.
   */
  refresh(options: { force?: boolean } = {}): Promise<RefreshOutcome> {
    if (this.shutdown.signal.aborted) return Promise.resolve(this.counted({ status: 'skipped', reason: 'stopping' }));
    if (this.inFlight) return Promise.resolve(this.counted({ status: 'skipped', reason: 'running' }));
    const run = this.run(options.force ?? false)
      .catch((error: unknown): RefreshOutcome => {
        const message = error instanceof Error ? error.message : String(error);
        if (!this.shutdown.signal.aborted) this.logger.warn(`Market refresh failed: ${message}`);
        return { status: 'failed', error: message };
      })
      .then((outcome) => this.counted(outcome));
    this.inFlight = run.finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private counted(outcome: RefreshOutcome): RefreshOutcome {
    this.metrics.countRefresh(outcome.status);
    return outcome;
  }

  /** The shared refresh state (any instance's last run). */
  state(): Promise<RefreshState> {
    return this.appState.get<RefreshState>(AppStateKeys.marketRefresh).then((state) => state ?? {});
  }

  private async run(force: boolean): Promise<RefreshOutcome> {
    const intervalMs = this.config.marketRefreshSeconds * 1000;
    // Timers on different instances are not aligned: a claim counts for the interval minus a little slack.
    const slackMs = Math.min(2000, intervalMs * 0.1);
    const claim = await this.db.transaction(async (tx): Promise<RefreshOutcome | 'claimed'> => {
      if (!(await tryXactLock(tx, JobLocks.marketRefresh))) return { status: 'skipped', reason: 'locked' };
      const state = (await this.appState.get<RefreshState>(AppStateKeys.marketRefresh, tx)) ?? {};
      const now = Date.now();
      if (state.backoffUntil && Date.parse(state.backoffUntil) > now) return { status: 'skipped', reason: 'backoff', until: state.backoffUntil };
      if (!force && state.lastRunAt && now - Date.parse(state.lastRunAt) < intervalMs - slackMs) return { status: 'skipped', reason: 'not-due' };
      const at = new Date(now).toISOString();
      await this.appState.set(AppStateKeys.marketRefresh, { ...state, lastRunAt: at, lastAttemptAt: at }, tx);
      return 'claimed';
    });
    if (claim !== 'claimed') return claim;

    // No transaction is open during the HTTP call.
    const fetched = await this.fetchMarket();
    if (this.shutdown.signal.aborted) return { status: 'skipped', reason: 'stopping' };
    if (fetched.ok) {
      const { rows, skipped } = parseMarketRows(fetched.data, 'live');
      if (rows.length) await this.addMissingSupported(rows);
      if (rows.length) {
        await this.db.transaction(async (tx) => {
          await this.coins.upsertMany(rows, tx);
          await this.pricePoints.appendCurrent(
            rows.map((row) => row.id),
            tx,
          );
          const state = (await this.appState.get<RefreshState>(AppStateKeys.marketRefresh, tx, true)) ?? {};
          await this.appState.set(
            AppStateKeys.marketRefresh,
            { ...state, lastSuccessAt: new Date().toISOString(), failures: 0, backoffUntil: null, lastError: null },
            tx,
          );
          await this.appState.set(AppStateKeys.marketVersion, { version: newVersion() }, tx);
        });
        this.cache.invalidate();
        this.referenceData.invalidate();
        await this.priceHistory.compactIfDue();
        if (skipped) this.logger.warn(`Market refresh: skipped ${skipped} malformed row(s) from the provider.`);
        return { status: 'refreshed', stored: rows.length, skipped };
      }
      return this.recordFailure(
        Array.isArray(fetched.data) ? 'The price provider returned no usable coins.' : 'The price provider returned an unexpected answer.',
      );
    }
    return this.recordFailure(fetched.error, fetched.retryAfterSeconds);
  }

  private async recordFailure(error: string, retryAfterSeconds?: number): Promise<RefreshOutcome> {
    const backoffUntil = await this.db.transaction(async (tx) => {
      const state = (await this.appState.get<RefreshState>(AppStateKeys.marketRefresh, tx, true)) ?? {};
      const failures = (state.failures ?? 0) + 1;
      // Exponential: 2, 4, 8, ... intervals (at most 30 minutes), and never before the provider's Retry-After.
      const exponential = Math.min(this.config.marketRefreshSeconds * 2 ** failures, Math.max(MAX_BACKOFF_SECONDS, this.config.marketRefreshSeconds));
      const delaySeconds = Math.max(exponential, retryAfterSeconds ?? 0);
      const until = new Date(Date.now() + delaySeconds * 1000).toISOString();
      await this.appState.set(AppStateKeys.marketRefresh, { ...state, failures, backoffUntil: until, lastError: error }, tx);
      return until;
    });
    this.logger.warn(`Market refresh failed: ${error} Next attempt after ${backoffUntil}.`);
    return { status: 'failed', error, backoffUntil };
  }

  /**
   * Supported market tokens that fell out of the top 250 are fetched by id in a second call (at most 250 ids), so
   * their prices stay fresh. Best effort: a failure here keeps their last prices and does not count as a failure.
   */
  private async addMissingSupported(rows: CoinUpsert[]): Promise<void> {
    const have = new Set(rows.map((row) => row.id));
    const missing = (await this.tokens.listWithCoins('market'))
      .map((token) => token.coinId)
      .filter((id) => !have.has(id))
      .slice(0, 250);
    if (!missing.length || this.shutdown.signal.aborted) return;
    const extra = await this.fetchMarket(missing);
    if (!extra.ok) {
      this.logger.warn(`Market refresh: prices of ${missing.join(', ')} not refreshed (${extra.error})`);
      return;
    }
    for (const row of parseMarketRows(extra.data, 'live').rows) {
      if (!have.has(row.id) && missing.includes(row.id)) {
        have.add(row.id);
        rows.push(row);
      }
    }
  }

  private fetchMarket(ids?: string[]): Promise<ProviderFetchResult> {
    const { url, headers } = marketsRequest(this.config.coingeckoBaseUrl, this.config.coingeckoApiKey, ids);
    return fetchProviderJson(url, headers, AbortSignal.any([this.shutdown.signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)]));
  }
}

export function newVersion(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}
