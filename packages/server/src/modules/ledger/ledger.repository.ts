import { Inject, Injectable } from '@nestjs/common';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { ledgerAccounts } from '../../db/schema';
/** Platform accounts, one per token: the other side of every customer movement. */
export type PlatformCode = 'deposits' | 'withdrawals_pending' | 'withdrawals_settled' | 'swap_pool' | 'adjustments' | 'network_fees' | 'network_fee_margin';

/**
 * A platform account may be split into shards (`swap_pool#3`): each shard is an ordinary account with its own lines and
 * balance; together they are the platform account. Sharding spreads the row locks of hot accounts (every swap touches
 * the swap pool) so concurrent movements do not queue on one row.
 */
export type AccountKey =
  | { kind: 'customer'; userId: string; token: string }
  /** `shard: 'leased'`: the shard the ledger leases to the posting (replaced by its number before any lookup). */
  | { kind: 'platform'; code: PlatformCode; token: string; shard?: number | 'leased' };

export function platformCodeOf(key: { code: PlatformCode; shard?: number | 'leased' }): string {
  return key.shard ? `${key.code}#${key.shard}` : key.code;
}

export function accountKeyString(key: AccountKey): string {
  return key.kind === 'customer' ? `c:${key.userId}:${key.token}` : `p:${platformCodeOf(key)}:${key.token}`;
}

async function rows<T>(executor: Executor, query: SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

@Injectable()
export class LedgerRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async customerBalances(userIds: string[], executor: Executor = this.db): Promise<Array<{ userId: string; token: string; balance: string }>> {
    if (!userIds.length) return [];
    const result = await executor
      .select({ userId: ledgerAccounts.userId, token: ledgerAccounts.token, balance: ledgerAccounts.balance })
      .from(ledgerAccounts)
      .where(and(eq(ledgerAccounts.kind, 'customer'), inArray(ledgerAccounts.userId, userIds)));
    return result.map((row) => ({ userId: row.userId!, token: row.token, balance: row.balance }));
  }

  /** Per token: Σ of all lines (must be 0). */
  async tokenSums(executor: Executor = this.db): Promise<Array<{ token: string; sum: string; lines: number }>> {
    return rows(executor, sql`select token, sum(amount)::text as sum, count(*)::int as lines from journal_lines group by token order by token`);
  }

  /** Accounts whose balance differs from the sum of their lines. */
  async balanceMismatches(executor: Executor = this.db): Promise<Array<{ accountId: string; token: string; balance: string; linesSum: string }>> {
    return rows(
      executor,
      sql`select a.id as "accountId", a.token, a.balance::text as balance, coalesce(l.sum, 0)::text as "linesSum"
          from ledger_accounts a
          left join (select account_id, sum(amount) as sum from journal_lines group by account_id) l on l.account_id = a.id
          where a.balance <> coalesce(l.sum, 0)
          order by a.id
          limit 100`,
    );
  }

  async accountStats(executor: Executor = this.db): Promise<{ accounts: number; negativeCustomer: number }> {
    const [row] = await rows<{ accounts: number; negative: number }>(
      executor,
      sql`select count(*)::int as accounts, count(*) filter (where kind = 'customer' and balance < 0)::int as negative from ledger_accounts`,
    );
    return { accounts: row.accounts, negativeCustomer: row.negative };
  }

  /** Per token: Σ customer balances, Σ held for pending withdrawals, number of holders. */
  async liabilities(executor: Executor = this.db): Promise<Array<{ token: string; customer: string; pending: string; holders: number }>> {
    return rows(
      executor,
      sql`select token,
                 coalesce(sum(balance) filter (where kind = 'customer'), 0)::text as customer,
                 coalesce(sum(balance) filter (where kind = 'platform' and split_part(platform_code, '#', 1) = 'withdrawals_pending'), 0)::text as pending,
                 count(*) filter (where kind = 'customer' and balance > 0)::int as holders
          from ledger_accounts group by token order by token`,
    );
  }
}
