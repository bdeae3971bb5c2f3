import { Inject, Injectable } from '@nestjs/common';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { coins } from '../../db/schema';

export interface CoinRecord {
  id: string;
  symbol: string;
  name: string;
  image: string;
  currentPrice: string;
  marketCapRank: number | null;
  low24h: string | null;
  high24h: string | null;
  priceChangePercentage24h: string | null;
  sparkline7d: number[];
  lastUpdated: Date;
  source: 'live' | 'snapshot' | 'manual';
  manualPrice: boolean;
}

const coinColumns = {
  id: coins.id,
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
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async findById(id: string, executor: Executor = this.db): Promise<CoinRecord | undefined> {
    const [row] = await executor.select(coinColumns).from(coins).where(eq(coins.id, id));
    return row;
  }

  async findByIds(ids: string[], executor: Executor = this.db): Promise<CoinRecord[]> {
    if (!ids.length) return [];
    return executor.select(coinColumns).from(coins).where(inArray(coins.id, ids));
  }

  async listByMarketCap(executor: Executor = this.db): Promise<CoinRecord[]> {
    return executor.select(coinColumns).from(coins).orderBy(asc(coins.marketCapRank), asc(coins.id));
  }

  /** Inserts or replaces coins; rows priced by hand (custom tokens) are never overwritten by market data. */
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
  }
}
