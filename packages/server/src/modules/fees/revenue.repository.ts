import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { DATABASE, type Database } from '../../db/database';

/** The platform accounts of the house's revenue (drizzle/0050_fees.sql) and of its gain or cost on network fees (0019). */
export const REVENUE_ACCOUNTS = {
  revenue_swap_spread: 'swap_spread',
  revenue_swap_fee: 'swap_fee',
  revenue_withdrawal_fee: 'withdrawal_fee',
  network_fee_margin: 'network_fees',
} as const;

export interface RevenueRecord {
  day: string;
  token: string;
  symbol: string;
  code: keyof typeof REVENUE_ACCOUNTS;
  coinAmount: string;
  usd: string;
  count: number;
}

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

const CODES = sql.join(
  Object.keys(REVENUE_ACCOUNTS).map((code) => sql`${code}`),
  sql`, `,
);

/** Revenue from the ledger's lines: what each revenue account received per day (UTC) and token, in USD at the time. */
@Injectable()
export class RevenueRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /**
   * Lines of the revenue accounts between two days (inclusive). USD at the time: a swap's `to` price, a withdrawal's
   * price (its token's), else the coin's current price (gas of a token payout, paid in the network's coin).
   */
  async perDay(from: string, to: string): Promise<RevenueRecord[]> {
    return rowsOf<RevenueRecord>(
      await this.db.execute(sql`
        with accounts as (
          select id, token, split_part(platform_code, '#', 1) as code from ledger_accounts
          where kind = 'platform' and split_part(platform_code, '#', 1) in (${CODES})
        )
        select to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD') as day, a.token, coalesce(c.symbol, a.token) as symbol, a.code,
               sum(l.amount)::text as "coinAmount",
               round(sum(l.amount * coalesce(
                 case when t.type = 'swap' and t.details->>'toToken' = a.token then (t.details->>'toPrice')::numeric
                      when t.token = a.token then t.price end,
                 c.current_price, 0)), 8)::text as usd,
               count(*)::int as count
        from accounts a
        join journal_lines l on l.account_id = a.id
        join journal_entries e on e.id = l.entry_id
        left join transactions t on t.id = e.transaction_id
        left join coins c on c.id = a.token
        where e.created_at >= ${from}::date and e.created_at < ${to}::date + 1
        group by 1, 2, 3, 4
        order by 1 desc, 2, 4`),
    );
  }

  /** Σ per revenue account and token (the metric). */
  async totals(): Promise<Array<{ token: string; code: keyof typeof REVENUE_ACCOUNTS; balance: string }>> {
    return rowsOf(
      await this.db.execute(sql`
        select token, split_part(platform_code, '#', 1) as code, sum(balance)::text as balance from ledger_accounts
        where kind = 'platform' and split_part(platform_code, '#', 1) in (${CODES})
        group by 1, 2 order by 1, 2`),
    );
  }
}
