import { Inject, Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { InvalidInputError, ServiceUnavailableError } from '../../common/errors';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { ReferenceDataCache } from '../reference-data/reference-data.cache';
import { type CoinPricing, CoinsRepository } from './coins.repository';

export interface Quote {
  coinId: string;
  symbol: string;
  name: string;
  /** USD per coin, exact. */
  price: Decimal;
  lastUpdated: Date;
  source: 'live' | 'snapshot' | 'manual';
}

/** The pricing rows of some coins and whether a manual-price coin still has a live custom token. */
interface PricingLookup {
  rows: Map<string, CoinPricing>;
  listed: (coinId: string) => boolean | Promise<boolean>;
}

/**
 * The server's own prices for money operations. In production a price older than PRICE_MAX_AGE_SECONDS is refused
 * (503); elsewhere snapshot prices are used and labelled by `source`. Manual (custom token) prices never go stale.
 * Outside a transaction prices come from the in-memory reference data (refreshed on every price change); the age rule
 * applies to the price's own time, so a cached price ages exactly as a fresh read would.
 */
@Injectable()
export class PriceService {
  constructor(
    private readonly coins: CoinsRepository,
    private readonly referenceData: ReferenceDataCache,
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async quote(coinId: string, executor?: Executor): Promise<Quote> {
    const lookup = await this.lookup([coinId], executor);
    return this.toQuote(coinId, lookup.rows.get(coinId), lookup);
  }

  /**
   * The quotes of several coins read with one query (one round trip instead of one per coin). A coin whose quote is
   * refused is left out: `quote` it again to get its error.
   */
  async quoteMany(coinIds: string[], executor?: Executor): Promise<Map<string, Quote>> {
    const lookup = await this.lookup(coinIds, executor);
    const out = new Map<string, Quote>();
    for (const coinId of new Set(coinIds)) {
      const quote = await this.toQuote(coinId, lookup.rows.get(coinId), lookup).catch(() => undefined);
      if (quote) out.set(coinId, quote);
    }
    return out;
  }

  /** From memory outside a transaction; inside one, read in it. */
  private async lookup(coinIds: string[], executor?: Executor): Promise<PricingLookup> {
    if (!executor || executor === this.db) {
      const { pricing, tokenByCoin } = await this.referenceData.get();
      return { rows: pricing, listed: (coinId) => tokenByCoin.get(coinId)?.kind === 'custom' };
    }
    const rows = new Map((await this.coins.findPricing(coinIds, executor)).map((coin) => [coin.id, coin]));
    return { rows, listed: (coinId) => this.coins.isCustomTokenListed(coinId, executor) };
  }

  private async toQuote(coinId: string, coin: CoinPricing | undefined, lookup: PricingLookup): Promise<Quote> {
    if (!coin) throw new InvalidInputError(`Unknown token "${coinId}".`);
    // A deleted custom token keeps its coin row (history, audit) but is no longer priced for trading.
    if (coin.manualPrice && !(await lookup.listed(coin.id))) throw new InvalidInputError(`Unknown token "${coinId}".`);
    const price = new Decimal(coin.currentPrice);
    if (!price.isFinite() || price.lte(0)) throw new ServiceUnavailableError(`No price is available for ${coin.symbol.toUpperCase()} right now.`);
    if (this.config.nodeEnv === 'production' && !coin.manualPrice) {
      const ageSeconds = (Date.now() - coin.lastUpdated.getTime()) / 1000;
      if (ageSeconds > this.config.priceMaxAgeSeconds) {
        throw new ServiceUnavailableError(`The ${coin.symbol.toUpperCase()} price is out of date. Please try again in a minute.`);
      }
    }
    return { coinId: coin.id, symbol: coin.symbol, name: coin.name, price, lastUpdated: coin.lastUpdated, source: coin.source };
  }
}
