import { Inject, Injectable } from '@nestjs/common';
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { baseToCoins } from './node-wallet-signer';
import { payoutNetworks, payouts, type PayoutState, transactions } from '../../db/schema';

export type PayoutRecord = typeof payouts.$inferSelect;

/** All SQL of the payouts: the rows, their row locks, and the payout fields mirrored on the withdrawal's transaction. */
@Injectable()
export class PayoutsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** Marks the network as paying out by itself from now on (first run only; later runs keep the first time). */
  async enableNetwork(network: string, executor: Executor = this.db): Promise<void> {
    await executor.insert(payoutNetworks).values({ network }).onConflictDoNothing();
  }

  /**
   * A payout row for every withdrawal on `network` approved since the network pays out by itself, not voided, not
   * settled by hand (no txHash) and without one yet; unique per withdrawal, so racing instances create one. An amount
   * finer than the chain's unit cannot be paid exactly: its payout is failed at once with the reason.
   */
  async createDue(network: string, decimals: number, requiredConfirmations: number, executor: Executor = this.db): Promise<number> {
    const scale = sql.raw(`1${'0'.repeat(decimals)}`);
    const result = (await executor.execute(sql`
      insert into payouts (transaction_id, network, address, amount_base, required_confirmations, state, last_error)
      select t.id, t.network, coalesce(t.address, ''), trunc(t.coin_amount * ${scale}), ${requiredConfirmations},
        case when t.coin_amount * ${scale} = trunc(t.coin_amount * ${scale}) and trunc(t.coin_amount * ${scale}) > 0 and t.address is not null
          then 'approved' else 'failed' end,
        case when t.coin_amount * ${scale} = trunc(t.coin_amount * ${scale}) and trunc(t.coin_amount * ${scale}) > 0 and t.address is not null
          then null else 'The amount cannot be paid exactly in the chain''s smallest unit (or there is no address).' end
      from transactions t
      join payout_networks n on n.network = t.network
      where t.network = ${network} and t.type = 'withdrawal' and t.status = 'approved' and t.voided_at is null
        and t.updated_at >= n.enabled_at and t.details->>'txHash' is null
        and not exists (select 1 from payouts p where p.transaction_id = t.id)
        and t.coin_amount > 0
      on conflict (transaction_id) do nothing
    `)) as unknown as { affectedRows?: number; rowCount?: number };
    return Number(result.affectedRows ?? result.rowCount ?? 0);
  }

  /** The oldest payout of `network` in one of `states` not `visited` by this run, row-locked; one another instance holds is skipped. */
  async lockNext(network: string, states: PayoutState[], visited: string[], executor: Executor): Promise<PayoutRecord | undefined> {
    const [row] = await executor
      .select()
      .from(payouts)
      .where(and(eq(payouts.network, network), inArray(payouts.state, states), visited.length ? notInArray(payouts.id, visited) : undefined))
      .orderBy(payouts.createdAt, payouts.id)
      .limit(1)
      .for('update', { skipLocked: true });
    return row;
  }

  async byTransaction(transactionId: string, executor: Executor = this.db): Promise<PayoutRecord | undefined> {
    const [row] = await executor.select().from(payouts).where(eq(payouts.transactionId, transactionId));
    return row;
  }

  /** The signed payments of `network` not broadcast yet (their bytes). */
  async unsentRawTxs(network: string, executor: Executor = this.db): Promise<string[]> {
    const rows = await executor
      .select({ rawTx: payouts.rawTx })
      .from(payouts)
      .where(and(eq(payouts.network, network), eq(payouts.state, 'signed')));
    return rows.map((r) => r.rawTx!).filter(Boolean);
  }

  async remove(id: string, executor: Executor): Promise<void> {
    await executor.delete(payouts).where(eq(payouts.id, id));
  }

  /** Moves the payout and mirrors what the customer sees on its withdrawal (payoutState, txHash, fee, confirmations). */
  async update(
    payout: PayoutRecord,
    change: Partial<Pick<PayoutRecord, 'state' | 'rawTx' | 'txid' | 'feeBase' | 'confirmations' | 'lastError' | 'signedAt' | 'broadcastAt' | 'completedAt'>> & {
      attempted?: boolean;
    },
    decimals: number,
    executor: Executor,
  ): Promise<PayoutRecord> {
    const { attempted, ...fields } = change;
    const [row] = await executor
      .update(payouts)
      .set({ ...fields, ...(attempted ? { attempts: sql`${payouts.attempts} + 1` } : {}), updatedAt: new Date() })
      .where(eq(payouts.id, payout.id))
      .returning();
    const fee = row.feeBase === null ? null : baseToCoins(BigInt(row.feeBase), decimals);
    await executor
      .update(transactions)
      .set({
        details: sql`coalesce(${transactions.details}, '{}'::jsonb) || ${JSON.stringify({
          payoutState: row.state,
          ...(row.txid ? { txHash: row.txid } : {}),
          ...(fee !== null ? { fee } : {}),
          confirmations: row.confirmations,
          requiredConfirmations: row.requiredConfirmations,
        })}::jsonb`,
      })
      .where(eq(transactions.id, row.transactionId));
    return row;
  }
}
