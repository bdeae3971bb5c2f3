import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { rowsOf } from '../../db/rows';

export interface RateLimitCounter {
  hits: number;
  /** Milliseconds until the window ends (database clock). */
  windowMs: number;
  /** Milliseconds until the block ends; 0 when not blocked. */
  blockMs: number;
}

@Injectable()
export class RateLimitRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /**
   * Counts one hit for `key` in one atomic upsert (concurrent hits on any instance serialise on the row), on the
   * database clock so every instance agrees:
   * - while blocked: nothing changes, the block is reported;
   * - a window (or a block) that ended starts over at 1;
   * - otherwise +1, and going over `limit` blocks the key for `blockMs`.
   */
  async hit(key: string, ttlMs: number, limit: number, blockMs: number, executor: Executor = this.db): Promise<RateLimitCounter> {
    const ttl = sql`(${ttlMs}::bigint * interval '1 millisecond')`;
    const block = sql`(${blockMs}::bigint * interval '1 millisecond')`;
    const result = await executor.execute(sql`
      insert into rate_limits as r (key, hits, window_ends_at, blocked_until)
      values (${key}, 1, now() + ${ttl}, case when 1 > ${limit}::int then now() + ${block} end)
      on conflict (key) do update set
        hits = case
          when r.blocked_until > now() then r.hits
          when r.window_ends_at <= now() or r.blocked_until <= now() then 1
          else r.hits + 1 end,
        window_ends_at = case
          when r.blocked_until > now() then r.window_ends_at
          when r.window_ends_at <= now() or r.blocked_until <= now() then now() + ${ttl}
          else r.window_ends_at end,
        blocked_until = case
          when r.blocked_until > now() then r.blocked_until
          when r.window_ends_at <= now() or r.blocked_until <= now() then case when 1 > ${limit}::int then now() + ${block} end
          when r.hits + 1 > ${limit}::int then now() + ${block}
          else null end
      returning hits,
        greatest(0, ceil(extract(epoch from (window_ends_at - now())) * 1000))::bigint as window_ms,
        greatest(0, ceil(extract(epoch from (coalesce(blocked_until, now()) - now())) * 1000))::bigint as block_ms`);
    const row = rowsOf(result)[0] as { hits: number | string; window_ms: number | string; block_ms: number | string };
    return { hits: Number(row.hits), windowMs: Number(row.window_ms), blockMs: Number(row.block_ms) };
  }

  /** Deletes counters whose window and block have both ended. Returns how many. */
  async purgeExpired(executor: Executor = this.db): Promise<number> {
    const result = await executor.execute(
      sql`delete from rate_limits where window_ends_at < now() and (blocked_until is null or blocked_until < now()) returning 1`,
    );
    return rowsOf(result).length;
  }
}
