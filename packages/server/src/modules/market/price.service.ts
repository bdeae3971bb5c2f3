import { Inject, Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { InvalidInputError, ServiceUnavailableError } from '../../common/errors';
import type { Executor } from '../../db/database';
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

/**
 * The server's own prices for money operations. In production a price older than PRICE_MAX_AGE_SECONDS is refused
 * (503); elsewhere snapshot prices are used and labelled by `source`. Manual (custom token) prices never go stale.
 */
@Injectable()
export class PriceService {
  constructor(
    private readonly coins: CoinsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async quote(coinId: string, executor?: Executor): Promise<Quote> {
    const [coin] = await this.coins.findPricing([coinId], executor);
    return this.toQuote(coinId, coin, executor);
  }

  /**
   * The quotes of several coins read with one query (one round trip instead of one per coin). A coin whose quote is
   * refused is left out: `quote` it again to get its error.
   */
  async quoteMany(coinIds: string[], executor?: Executor): Promise<Map<string, Quote>> {
    const rows = new Map((await this.coins.findPricing(coinIds, executor)).map((coin) => [coin.id, coin]));
    const out = new Map<string, Quote>();
    for (const coinId of new Set(coinIds)) {
      const quote = await this.toQuote(coinId, rows.get(coinId), executor).catch(() => undefined);
      if (quote) out.set(coinId, quote);
    }
    return out;
  }

  private async toQuote(coinId: string, coin: CoinPricing | undefined, executor?: Executor): Promise<Quote> {
    if (!coin) throw new InvalidInputError(`Unknown token "${coinId}".`);
    // A deleted custom token keeps its coin row (history, audit) but is no longer priced for trading.
    if (coin.manualPrice && !(await this.coins.isCustomTokenListed(coin.id, executor))) throw new InvalidInputError(`Unknown token "${coinId}".`);
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
