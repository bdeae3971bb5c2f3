import { Inject, Injectable } from '@nestjs/common';
import { and, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { coins, supportedTokens, sweeps, type SweepState } from '../../db/schema';

export type SweepRecord = typeof sweeps.$inferSelect;
export type NewSweep = Pick<
  typeof sweeps.$inferInsert,
  'network' | 'address' | 'token' | 'contract' | 'decimals' | 'nativeToken' | 'nativeDecimals' | 'requiredConfirmations'
>;

/** All SQL of the sweeps: the rows and their row locks, the addresses worth a look, the prices the threshold needs. */
@Injectable()
export class SweepsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /**
   * The deposit addresses of `network` that may hold coins to sweep: a deposit to them was credited, none is still
   * waiting for its confirmations (coins not credited yet are never swept: a reorganisation may take them back), no
   * sweep of them is open, and none failed in the last day (a token that refuses its transfer is not tried every run).
   */
  async candidates(network: string, executor: Executor = this.db): Promise<string[]> {
    const result = (await executor.execute(sql`
      select da.address from deposit_addresses da
      where da.network = ${network}
        and exists (select 1 from chain_deposits cd where cd.network = da.network and cd.user_id = da.user_id and cd.state = 'credited')
        and not exists (select 1 from chain_deposits cd where cd.network = da.network and cd.user_id = da.user_id and cd.state in ('seen', 'confirming'))
        and not exists (select 1 from sweeps s where s.network = da.network and s.address = da.address and s.state not in ('completed', 'failed'))
        and not exists (select 1 from sweeps s where s.network = da.network and s.address = da.address and s.state = 'failed' and s.updated_at > now() - interval '1 day')
      order by da.derivation_index
    `)) as unknown as { rows: Array<{ address: string }> };
    return result.rows.map((row) => row.address);
  }

  /** Current USD prices of supported tokens (a token without a live row or price is absent). */
  async prices(tokens: string[], executor: Executor = this.db): Promise<Map<string, string>> {
    if (!tokens.length) return new Map();
    const rows = await executor
      .select({ id: coins.id, price: coins.currentPrice })
      .from(coins)
      .innerJoin(supportedTokens, and(eq(supportedTokens.coinId, coins.id), isNull(supportedTokens.deletedAt)))
      .where(inArray(coins.id, tokens));
    return new Map(rows.map((row) => [row.id, row.price]));
  }

  /** Inserts a planned sweep unless the address already has an open one (then undefined). */
  async insert(sweep: NewSweep, executor: Executor): Promise<SweepRecord | undefined> {
    const [row] = await executor.insert(sweeps).values(sweep).onConflictDoNothing().returning();
    return row;
  }

  /** The oldest sweep of `network` in one of `states` not `visited` by this run, row-locked; one another instance holds is skipped. */
  async lockNext(network: string, states: SweepState[], visited: string[], executor: Executor): Promise<SweepRecord | undefined> {
    const [row] = await executor
      .select()
      .from(sweeps)
      .where(and(eq(sweeps.network, network), inArray(sweeps.state, states), visited.length ? notInArray(sweeps.id, visited) : undefined))
      .orderBy(sweeps.createdAt, sweeps.id)
      .limit(1)
      .for('update', { skipLocked: true });
    return row;
  }

  async update(
    id: string,
    change: Partial<
      Pick<
        SweepRecord,
        'state' | 'topupAmountBase' | 'topupRawTx' | 'topupTxid' | 'amountBase' | 'rawTx' | 'txid' | 'confirmations' | 'lastError' | 'signedAt' | 'broadcastAt'
      >
    > & { attempted?: boolean },
    executor: Executor,
  ): Promise<void> {
    const { attempted, ...fields } = change;
    await executor
      .update(sweeps)
      .set({ ...fields, ...(attempted ? { attempts: sql`${sweeps.attempts} + 1` } : {}), updatedAt: new Date() })
      .where(eq(sweeps.id, id));
  }

  /** Drops a sweep nothing was signed for (not worth it any more): the address is looked at again next run. */
  async remove(id: string, executor: Executor): Promise<void> {
    await executor.delete(sweeps).where(and(eq(sweeps.id, id), isNull(sweeps.rawTx), isNull(sweeps.topupRawTx)));
  }

  async list(network: string, executor: Executor = this.db): Promise<SweepRecord[]> {
    return executor.select().from(sweeps).where(eq(sweeps.network, network)).orderBy(sweeps.createdAt, sweeps.id);
  }
}
