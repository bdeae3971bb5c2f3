import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import type { PriceHistoryDto, PriceHistoryRange } from '@coinpurse/contract';
import { createHash } from 'node:crypto';
import { NotFoundError } from '../../common/errors';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { DATABASE, type Database } from '../../db/database';
import { AppStateKeys, AppStateRepository, type RefreshState } from './app-state.repository';
import { type CoinRecord, CoinsRepository } from './coins.repository';
import { fetchProviderJson, marketChartRequest, parseMarketChart } from './coingecko';
import { PriceHistoryRepository } from './price-history.repository';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Per range: how far back, the chart's point spacing, the provider's `days`, and how long a backfill counts. */
export const RANGES: Record<PriceHistoryRange, { spanMs: number | null; bucketMs: number; providerDays: string; backfillFreshMs: number }> = {
  '1d': { spanMs: DAY, bucketMs: 5 * MINUTE, providerDays: '1', backfillFreshMs: HOUR },
  '7d': { spanMs: 7 * DAY, bucketMs: HOUR, providerDays: '7', backfillFreshMs: DAY },
  '30d': { spanMs: 30 * DAY, bucketMs: HOUR, providerDays: '30', backfillFreshMs: DAY },
  '1y': { spanMs: 365 * DAY, bucketMs: DAY, providerDays: '365', backfillFreshMs: 7 * DAY },
  all: { spanMs: null, bucketMs: DAY, providerDays: 'max', backfillFreshMs: 7 * DAY },
};

export interface PriceHistoryBody {
  body: Buffer;
  etag: string;
}

/** Served answers are kept this long per coin and range (and sent with the same max-age). */
export const PRICE_HISTORY_CACHE_SECONDS = 60;
/** Backfill calls per minute from this instance (CoinGecko's demo plan allows about 30 calls a minute in all). */
const BACKFILLS_PER_MINUTE = 10;
/** A rate-limited answer without Retry-After pauses provider calls this long. */
const DEFAULT_BACKOFF_SECONDS = 60;
const FETCH_TIMEOUT_MS = 10_000;
const COMPACT_EVERY_MS = 10 * MINUTE;
const CACHE_LIMIT = 2000;

type BackfillState = Record<string, string>;

/**
 * Chart data. Points come from `price_points` (the refresh job's prices, manual prices of custom tokens, provider
 * backfills), plus the coin's stored 7-day hourly sparkline — which for the offline snapshot's coins is the committed
 * offline history. Market coins are backfilled from CoinGecko's market_chart on first demand per range, within a
 * per-instance budget, never during the market back-off, and a 429 or 5xx extends that shared back-off.
 */
@Injectable()
export class PriceHistoryService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('PriceHistory');
  private readonly cache = new Map<string, { at: number; entry: PriceHistoryBody }>();
  private readonly pending = new Map<string, Promise<PriceHistoryBody>>();
  private readonly backfills = new Map<string, Promise<void>>();
  private budget: number[] = [];
  private compactedAt = 0;
  private readonly shutdown = new AbortController();

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly coins: CoinsRepository,
    private readonly points: PriceHistoryRepository,
    private readonly appState: AppStateRepository,
  ) {}

  beforeApplicationShutdown(): void {
    this.shutdown.abort();
  }

  /** The serialized history of one coin over one range, cached per instance for PRICE_HISTORY_CACHE_SECONDS. */
  async history(coinId: string, range: PriceHistoryRange = '7d'): Promise<PriceHistoryBody> {
    const key = `${coinId}|${range}`;
    const cached = this.cache.get(key);
    if (cached && Date.now() - cached.at < PRICE_HISTORY_CACHE_SECONDS * 1000) return cached.entry;
    let pending = this.pending.get(key);
    if (!pending) {
      pending = this.build(coinId, range).finally(() => this.pending.delete(key));
      this.pending.set(key, pending);
    }
    const entry = await pending;
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(key, { at: Date.now(), entry });
    return entry;
  }

  /** Drops cached answers (tests, and after prices were written straight to the tables). */
  invalidate(): void {
    this.cache.clear();
  }

  /** Thins old points; called by the refresh job after each success, at most every 10 minutes. Never throws. */
  async compactIfDue(now = new Date()): Promise<void> {
    if (now.getTime() - this.compactedAt < COMPACT_EVERY_MS) return;
    this.compactedAt = now.getTime();
    try {
      await this.points.compact(now);
    } catch (error) {
      this.logger.warn(`Price history compaction failed: ${(error as Error)?.message}`);
    }
  }

  private async build(coinId: string, range: PriceHistoryRange): Promise<PriceHistoryBody> {
    const coin = await this.coins.findById(coinId);
    if (!coin) throw new NotFoundError('Coin not found.');
    if (!coin.manualPrice) await this.backfill(coin.id, range);
    const now = Date.now();
    const { spanMs, bucketMs } = RANGES[range];
    // Market coins: the range ends at the newest price known (on snapshot prices, the snapshot's time), so an
    // offline machine still draws the day or week before it. A manual price holds until now.
    const end = coin.manualPrice ? now : Math.max(coin.lastUpdated.getTime(), (await this.points.newestAt(coin.id))?.getTime() ?? 0);
    const since = spanMs === null ? null : new Date(end - spanMs);
    const stored = await this.points.list(coin.id, since);
    let points: Array<[number, number]> = stored.map((p) => [p.at.getTime(), Number(p.price)]);
    if (coin.manualPrice) {
      // A price set by hand holds until the next change: from the range start (or its first setting) up to now.
      const before = since ? await this.points.lastBefore(coin.id, since) : undefined;
      if (before && since) points.unshift([since.getTime(), Number(before.price)]);
      points.push([Math.max(now, coin.lastUpdated.getTime()), Number(coin.currentPrice)]);
    } else {
      const current: [number, number] = [coin.lastUpdated.getTime(), Number(coin.currentPrice)];
      points.push(...[...sparklinePoints(coin), current].filter(([at]) => !since || at >= since.getTime()));
    }
    points = downsample(points, bucketMs);
    const dto: PriceHistoryDto = { coinId: coin.id, range, points };
    const body = Buffer.from(JSON.stringify(dto));
    return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` };
  }

  /** Fetches the provider's history for this range once (then again when it has aged), best effort. Never throws. */
  private backfill(coinId: string, range: PriceHistoryRange): Promise<void> {
    const { providerDays } = RANGES[range];
    const key = `${coinId}|${providerDays}`;
    let running = this.backfills.get(key);
    if (!running) {
      running = this.runBackfill(coinId, range)
        .catch((error: unknown) => this.logger.warn(`Price history backfill of ${coinId} failed: ${(error as Error)?.message}`))
        .finally(() => this.backfills.delete(key));
      this.backfills.set(key, running);
    }
    return running;
  }

  private async runBackfill(coinId: string, range: PriceHistoryRange): Promise<void> {
    const { providerDays, backfillFreshMs } = RANGES[range];
    const stateKey = `${AppStateKeys.priceHistoryBackfill}.${coinId}`;
    const done = (await this.appState.get<BackfillState>(stateKey)) ?? {};
    const now = Date.now();
    if (done[providerDays] && now - Date.parse(done[providerDays]) < backfillFreshMs) return;
    const refresh = (await this.appState.get<RefreshState>(AppStateKeys.marketRefresh)) ?? {};
    if (refresh.backoffUntil && Date.parse(refresh.backoffUntil) > now) return;
    this.budget = this.budget.filter((at) => now - at < MINUTE);
    if (this.budget.length >= BACKFILLS_PER_MINUTE || this.shutdown.signal.aborted) return;
    this.budget.push(now);

    const { url, headers } = marketChartRequest(this.config.coingeckoBaseUrl, this.config.coingeckoApiKey, coinId, providerDays);
    const fetched = await fetchProviderJson(url, headers, AbortSignal.any([this.shutdown.signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)]));
    if (this.shutdown.signal.aborted) return;
    if (!fetched.ok) {
      if (fetched.status === 429 || (fetched.status ?? 0) >= 500) await this.extendBackoff(fetched.error, fetched.retryAfterSeconds);
      // The provider does not know this coin (or the plan refuses the range): do not ask again before it ages.
      if (fetched.status === 404 || fetched.status === 401 || fetched.status === 403) await this.markDone(stateKey, providerDays);
      this.logger.warn(`Price history backfill of ${coinId} (${providerDays} days): ${fetched.error}`);
      return;
    }
    const points = parseMarketChart(fetched.data);
    await this.points.insertMany(coinId, points);
    await this.markDone(stateKey, providerDays);
  }

  private async markDone(stateKey: string, providerDays: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const state = (await this.appState.get<BackfillState>(stateKey, tx, true)) ?? {};
      await this.appState.set(stateKey, { ...state, [providerDays]: new Date().toISOString() }, tx);
    });
  }

  /** The market refresh's back-off, shared: a rate-limited history call pauses every provider call. */
  private async extendBackoff(error: string, retryAfterSeconds: number | undefined): Promise<void> {
    await this.db.transaction(async (tx) => {
      const state = (await this.appState.get<RefreshState>(AppStateKeys.marketRefresh, tx, true)) ?? {};
      const until = Date.now() + Math.max(retryAfterSeconds ?? DEFAULT_BACKOFF_SECONDS, 1) * 1000;
      const current = state.backoffUntil ? Date.parse(state.backoffUntil) : 0;
      if (current >= until) return;
      await this.appState.set(AppStateKeys.marketRefresh, { ...state, backoffUntil: new Date(until).toISOString(), lastError: error }, tx);
    });
  }
}

/** The stored 7-day sparkline as timed points: hourly, its last point at the coin's price time. */
export function sparklinePoints(coin: Pick<CoinRecord, 'sparkline7d' | 'lastUpdated'>): Array<[number, number]> {
  const prices = coin.sparkline7d ?? [];
  const end = coin.lastUpdated.getTime();
  return prices.map((price, i) => [end - (prices.length - 1 - i) * HOUR, price]);
}

/** Sorted by time, one point per bucket (the newest in it); the last point is always kept as it is. */
export function downsample(points: Array<[number, number]>, bucketMs: number): Array<[number, number]> {
  const sorted = [...points].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  let lastBucket = Number.NaN;
  for (const point of sorted) {
    const bucket = Math.floor(point[0] / bucketMs);
    if (bucket === lastBucket) out[out.length - 1] = point;
    else out.push(point);
    lastBucket = bucket;
  }
  return out;
}
