import { Injectable, Logger } from '@nestjs/common';
import type { MarketCoinDto } from '@coinpurse/contract';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { AppStateKeys, AppStateRepository } from './app-state.repository';
import { type CoinRecord, CoinsRepository } from './coins.repository';

export interface CachedBody {
  body: Buffer;
  gzip: Buffer;
  etag: string;
  version: string | undefined;
}

interface FullList extends CachedBody {
  coins: MarketCoinDto[];
  count: number;
  /** First-n answers built from this list (`limit`). */
  slices: Map<number, CachedBody>;
}

/** How long a cached list is served before this instance checks (in the background) whether another changed it. */
const REVALIDATE_MS = 1000;

/**
 * The serialized get-crypto body, built once per change. This instance drops it on its own changes (refresh, custom
 * tokens); changes made by another instance are noticed through the market version in app_state, checked in the
 * background at most once a second, so the hot path never waits for the database.
 */
@Injectable()
export class MarketCacheService {
  private readonly logger = new Logger('MarketCache');
  private entry: FullList | undefined;
  private building: Promise<FullList> | undefined;
  private checkedAt = 0;
  private checking = false;
  private generation = 0;

  constructor(
    private readonly coins: CoinsRepository,
    private readonly appState: AppStateRepository,
  ) {}

  invalidate(): void {
    this.generation += 1;
    this.entry = undefined;
    this.building = undefined;
  }

  /** The whole list, or its first `limit` coins (the home page's top 8), each serialized once per list version. */
  async get(limit?: number): Promise<CachedBody> {
    const full = await this.full();
    if (!limit || limit >= full.count) return full;
    let slice = full.slices.get(limit);
    if (!slice) {
      slice = serialize(full.coins.slice(0, limit), full.version);
      if (full.slices.size < 50) full.slices.set(limit, slice);
    }
    return slice;
  }

  /** The whole list when it is built (checked in the background like get()), else undefined: use get() then. */
  ready(): CachedBody | undefined {
    const entry = this.entry;
    if (entry && Date.now() - this.checkedAt > REVALIDATE_MS) this.revalidate(entry);
    return entry;
  }

  private async full(): Promise<FullList> {
    const entry = this.entry;
    if (entry) {
      if (Date.now() - this.checkedAt > REVALIDATE_MS) this.revalidate(entry);
      return entry;
    }
    if (!this.building) {
      const generation = this.generation;
      const building = this.build().then(
        (built) => {
          if (generation === this.generation) {
            this.entry = built;
            this.checkedAt = Date.now();
          }
          if (this.building === building) this.building = undefined;
          return built;
        },
        (error: unknown) => {
          if (this.building === building) this.building = undefined;
          throw error;
        },
      );
      this.building = building;
    }
    return this.building;
  }

  private revalidate(entry: FullList): void {
    if (this.checking) return;
    this.checking = true;
    this.checkedAt = Date.now();
    this.appState
      .get<{ version?: string }>(AppStateKeys.marketVersion)
      .then((state) => {
        if (this.entry === entry && state?.version !== entry.version) this.invalidate();
      })
      .catch((error: unknown) => this.logger.warn(`Market version check failed: ${(error as Error)?.message}`))
      .finally(() => {
        this.checking = false;
      });
  }

  private async build(): Promise<FullList> {
    // Version first: a change committed after this read makes the next check rebuild.
    const state = await this.appState.get<{ version?: string }>(AppStateKeys.marketVersion);
    const coins = (await this.coins.listMarket()).map(toMarketCoin);
    return { ...serialize(coins, state?.version), coins, count: coins.length, slices: new Map() };
  }
}

function serialize(coins: MarketCoinDto[], version: string | undefined): CachedBody {
  const body = Buffer.from(JSON.stringify(coins));
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
  return { body, gzip: gzipSync(body, { level: 6 }), etag, version };
}

/** Display numbers as JSON numbers. No sparklines: charts load the price history of one coin when shown. */
export function toMarketCoin(coin: CoinRecord): MarketCoinDto {
  return {
    id: coin.id,
    name: coin.name,
    symbol: coin.symbol,
    image: coin.image,
    current_price: Number(coin.currentPrice),
    low_24h: numberOrNull(coin.low24h),
    high_24h: numberOrNull(coin.high24h),
    price_change_percentage_24h: numberOrNull(coin.priceChangePercentage24h),
    market_cap: numberOrNull(coin.marketCap ?? null),
    market_cap_rank: coin.marketCapRank,
    last_updated: coin.lastUpdated.toISOString(),
    manual_price: coin.manualPrice,
  };
}

function numberOrNull(value: string | null): number | null {
  return value === null || value === undefined ? null : Number(value);
}
