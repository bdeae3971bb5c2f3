import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { idValues, preparedPerCount } from '../../db/prepared';
import { coins, pricePoints, supportedTokens } from '../../db/schema';
import { ReferenceDataCache } from '../reference-data/reference-data.cache';
import type { CoinPricing } from '../reference-data/reference-data.types';

export type { CoinPricing };

export interface CoinRecord extends CoinPricing {
  marketCap?: string | null;
  image: string;
  marketCapRank: number | null;
  low24h: string | null;
  high24h: string | null;
  priceChangePercentage24h: string | null;
  sparkline7d: number[];
}

const coinColumns = {
  id: coins.id,
  marketCap: coins.marketCap,
  symbol: coins.symbol,
  name: coins.name,
  image: coins.image,
  currentPrice: coins.currentPrice,
  marketCapRank: coins.marketCapRank,
  low24h: coins.low24h,
  high24h: coins.high24h,
  priceChangePercentage24h: coins.priceChangePercentage24h,
  sparkline7d: coins.sparkline7d,
  lastUpdated: coins.lastUpdated,
  source: coins.source,
  manualPrice: coins.manualPrice,
};

const pricingColumns = {
  id: coins.id,
  symbol: coins.symbol,
  name: coins.name,
  currentPrice: coins.currentPrice,
  lastUpdated: coins.lastUpdated,
  source: coins.source,
  manualPrice: coins.manualPrice,
};

export interface CoinUpsert {
  id: string;
  symbol: string;
  name: string;
  image: string;
  currentPrice: string;
  marketCap?: string | null;
  marketCapRank?: number | null;
  low24h?: string | null;
  high24h?: string | null;
  priceChangePercentage24h?: string | null;
  sparkline7d?: number[];
  lastUpdated: Date;
  source: 'live' | 'snapshot' | 'manual';
  manualPrice?: boolean;
}

@Injectable()
export class CoinsRepository {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly referenceData: ReferenceDataCache,
  ) {}

  async findById(id: string, executor: Executor = this.db): Promise<CoinRecord | undefined> {
    const [row] = await executor.select(coinColumns).from(coins).where(eq(coins.id, id));
    return row;
  }

  private readonly pricingQuery = preparedPerCount((placeholders, count) =>
    this.db.select(pricingColumns).from(coins).where(inArray(coins.id, placeholders)).prepare(`coins_pricing_${count}`),
  );

  /** The pricing columns of these coins (a prepared statement for short lists outside a transaction). */
  async findPricing(ids: string[], executor: Executor = this.db): Promise<CoinPricing[]> {
    if (!ids.length) return [];
    const prepared = executor === this.db ? this.pricingQuery(ids.length) : undefined;
    if (prepared) return prepared.execute(idValues(ids));
    return executor.select(pricingColumns).from(coins).where(inArray(coins.id, ids));
  }

  async findByIds(ids: string[], executor: Executor = this.db): Promise<CoinRecord[]> {
    if (!ids.length) return [];
    return executor.select(coinColumns).from(coins).where(inArray(coins.id, ids));
  }

  async listByMarketCap(executor: Executor = this.db): Promise<CoinRecord[]> {
    return executor.select(coinColumns).from(coins).orderBy(asc(coins.marketCapRank), asc(coins.id));
  }

  /**
   * The market list: market coins by market cap, then custom tokens (manual price) that are still listed.
   * Once the provider has answered, coins only present in the offline snapshot are left out.
   */
  async listMarket(executor: Executor = this.db): Promise<CoinRecord[]> {
    return executor
      .select(coinColumns)
      .from(coins)
      .where(
        sql`(${coins.manualPrice} = false and (${coins.source} = 'live' or not exists (select 1 from coins l where l.source = 'live' and l.manual_price = false)))
          or (${coins.manualPrice} = true and exists (select 1 from ${supportedTokens} s where s.coin_id = ${coins.id} and s.deleted_at is null and s.kind = 'custom'))`,
      )
      .orderBy(sql`${coins.marketCapRank} asc nulls last`, asc(coins.name), asc(coins.id));
  }

  /** Whether a coin with a manual price still has a live custom token (deleted custom tokens are no longer traded). */
  async isCustomTokenListed(coinId: string, executor: Executor = this.db): Promise<boolean> {
    const rows = await executor
      .select({ id: supportedTokens.id })
      .from(supportedTokens)
      .where(and(eq(supportedTokens.coinId, coinId), sql`${supportedTokens.deletedAt} is null`, eq(supportedTokens.kind, 'custom')))
      .limit(1);
    return rows.length > 0;
  }

  /** Market coins per source (manual prices left out): how many and the newest price time. */
  async marketSummary(executor: Executor = this.db): Promise<Array<{ source: 'live' | 'snapshot'; count: number; newest: Date | null }>> {
    const rows = await executor
      .select({ source: coins.source, count: sql<number>`count(*)::int`, newest: sql<string | null>`max(${coins.lastUpdated})` })
      .from(coins)
      .where(eq(coins.manualPrice, false))
      .groupBy(coins.source);
    return rows.map((row) => ({ source: row.source as 'live' | 'snapshot', count: Number(row.count), newest: row.newest ? new Date(row.newest) : null }));
  }

  async findForUpdate(id: string, executor: Executor): Promise<CoinRecord | undefined> {
    const [row] = await executor.select(coinColumns).from(coins).where(eq(coins.id, id)).for('update');
    return row;
  }

  /** Inserts a custom token's coin (manual price); false when the id is taken. */
  async insertManual(row: Omit<CoinUpsert, 'source' | 'manualPrice'>, executor: Executor): Promise<boolean> {
    const inserted = await executor
      .insert(coins)
      .values({ ...row, sparkline7d: row.sparkline7d ?? [], source: 'manual', manualPrice: true, updatedAt: new Date() })
      .onConflictDoNothing()
      .returning({ id: coins.id });
    if (inserted.length) await this.recordManualPoint(row.id, row.lastUpdated, row.currentPrice, executor);
    return inserted.length > 0;
  }

  /** A custom token's price history is its manual price changes (a point per change). */
  private async recordManualPoint(coinId: string, at: Date, price: string, executor: Executor): Promise<void> {
    await executor
      .insert(pricePoints)
      .values({ coinId, at, price })
      .onConflictDoUpdate({ target: [pricePoints.coinId, pricePoints.at], set: { price: sql`excluded.price` } });
  }

  /** Updates a custom token's coin (only rows with a manual price). */
  async updateManual(
    id: string,
    values: Partial<Pick<CoinUpsert, 'symbol' | 'name' | 'image' | 'currentPrice' | 'low24h' | 'high24h' | 'priceChangePercentage24h' | 'lastUpdated'>>,
    executor: Executor,
  ): Promise<void> {
    const updated = await executor
      .update(coins)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(coins.id, id), eq(coins.manualPrice, true)))
      .returning({ id: coins.id });
    if (updated.length && values.currentPrice) await this.recordManualPoint(id, values.lastUpdated ?? new Date(), values.currentPrice, executor);
  }

  /**
   * Inserts or replaces coins; rows priced by hand (custom tokens) are never overwritten by market data. Every instance
   * hears of the change by NOTIFY on commit (table trigger); outside a transaction the change is committed here, so
   * this instance's cached prices are dropped at once (its next quote reads the new price, not the notification race).
   */
  async upsertMany(rows: CoinUpsert[], executor: Executor = this.db): Promise<void> {
    if (!rows.length) return;

    await executor
      .insert(coins)
      .values(rows.map((row) => ({ ...row, sparkline7d: row.sparkline7d ?? [], manualPrice: row.manualPrice ?? false, updatedAt: new Date() })))
      .onConflictDoUpdate({
        target: coins.id,
        set: {
          symbol: sql`excluded.symbol`,
          name: sql`excluded.name`,
          image: sql`excluded.image`,
          currentPrice: sql`excluded.current_price`,
          marketCap: sql`excluded.market_cap`,
          marketCapRank: sql`excluded.market_cap_rank`,
          low24h: sql`excluded.low_24h`,
          high24h: sql`excluded.high_24h`,
          priceChangePercentage24h: sql`excluded.price_change_percentage_24h`,
          sparkline7d: sql`excluded.sparkline_7d`,
          lastUpdated: sql`excluded.last_updated`,
          source: sql`excluded.source`,
          updatedAt: sql`now()`,
        },
        setWhere: sql`${coins.manualPrice} = false or excluded.manual_price = true`,
      });
    if (executor === this.db) this.referenceData.invalidate();
  }
}
