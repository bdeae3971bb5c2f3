import { Inject, Injectable } from '@nestjs/common';
import { and, asc, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { coins, pricePoints } from '../../db/schema';

export interface PricePoint {
  at: Date;
  price: string;
}

const INSERT_CHUNK = 1000;

@Injectable()
export class PriceHistoryRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** One point per coin at its stored price and time (the refresh job, after it stored new prices). Market coins only. */
  async appendCurrent(coinIds: string[], executor: Executor = this.db): Promise<void> {
    if (!coinIds.length) return;
    await executor.execute(sql`
      insert into ${pricePoints} (coin_id, at, price)
      select ${coins.id}, ${coins.lastUpdated}, ${coins.currentPrice} from ${coins}
      where ${inArray(coins.id, coinIds)} and ${coins.manualPrice} = false
      on conflict (coin_id, at) do nothing`);
  }

  /** Provider history (backfill); points already stored are kept. */
  async insertMany(coinId: string, points: Array<[number, number]>, executor: Executor = this.db): Promise<void> {
    for (let i = 0; i < points.length; i += INSERT_CHUNK) {
      const chunk = points.slice(i, i + INSERT_CHUNK).map(([at, price]) => ({ coinId, at: new Date(at), price: String(price) }));
      await executor.insert(pricePoints).values(chunk).onConflictDoNothing();
    }
  }

  /** Points from `since` on (all when null), oldest first. */
  async list(coinId: string, since: Date | null, executor: Executor = this.db): Promise<PricePoint[]> {
    return executor
      .select({ at: pricePoints.at, price: pricePoints.price })
      .from(pricePoints)
      .where(since ? and(eq(pricePoints.coinId, coinId), gte(pricePoints.at, since)) : eq(pricePoints.coinId, coinId))
      .orderBy(asc(pricePoints.at));
  }

  /** The newest point's time. */
  async newestAt(coinId: string, executor: Executor = this.db): Promise<Date | undefined> {
    const [row] = await executor.select({ at: pricePoints.at }).from(pricePoints).where(eq(pricePoints.coinId, coinId)).orderBy(desc(pricePoints.at)).limit(1);
    return row?.at;
  }

  /** The last point before `before` (a custom token's price still in force at the start of a range). */
  async lastBefore(coinId: string, before: Date, executor: Executor = this.db): Promise<PricePoint | undefined> {
    const [row] = await executor
      .select({ at: pricePoints.at, price: pricePoints.price })
      .from(pricePoints)
      .where(and(eq(pricePoints.coinId, coinId), lt(pricePoints.at, before)))
      .orderBy(desc(pricePoints.at))
      .limit(1);
    return row;
  }

  /**
   * Thins points with age, keeping the newest point of each bucket: 5-minute buckets for the last day, hourly up to
   * 30 days, daily beyond. Only points newer than `windowDays` are looked at (older ones were thinned when they
   * crossed). Returns how many points were removed.
   */
  async compact(now: Date, windowDays = 35, executor: Executor = this.db): Promise<number> {
    const dayAgo = new Date(now.getTime() - 86_400_000);
    const monthAgo = new Date(now.getTime() - 30 * 86_400_000);
    const windowStart = new Date(now.getTime() - windowDays * 86_400_000);
    const origin = sql`timestamptz '2000-01-01 00:00:00+00'`;
    const result = await executor.execute(sql`
      with buckets as (
        select coin_id, at,
          row_number() over (
            partition by coin_id,
              case when at >= ${dayAgo} then date_bin('5 minutes', at, ${origin})
                   when at >= ${monthAgo} then date_bin('1 hour', at, ${origin})
                   else date_bin('1 day', at, ${origin}) end
            order by at desc) as rank
        from ${pricePoints}
        where at >= ${windowStart}
      )
      delete from ${pricePoints} p using buckets b
      where b.rank > 1 and p.coin_id = b.coin_id and p.at = b.at`);
    return Number((result as { rowCount?: number; affectedRows?: number }).rowCount ?? (result as { affectedRows?: number }).affectedRows ?? 0);
  }
}
