import { Inject, Injectable } from '@nestjs/common';
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { baseToFixed, payoutAmountBase } from '../../chain-core/amounts';
import { rowsOf } from '../../db/rows';
import { coins, payoutNetworks, payouts, type PayoutState, transactions, users } from '../../db/schema';

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
   * A payout row for every withdrawal of the network's own coin (tokens on it are settled by hand) on `network` approved since the network pays out by itself, not voided, not
   * settled by hand (no txHash) and without one yet; unique per withdrawal, so racing instances create one. An amount
   * the chain cannot pay exactly (or a missing address) is left to the signer, which refuses it: the payout fails and
   * the amount goes back to the customer.
   */
  async createDue(network: string, nativeCoins: string[], decimals: number, requiredConfirmations: number, executor: Executor = this.db): Promise<number> {
    const due = rowsOf(
      await executor.execute(sql`
        select t.id, coalesce(t.address, '') as address, t.coin_amount::text as coin_amount
        from transactions t
        join payout_networks n on n.network = t.network
        where t.network = ${network} and t.type = 'withdrawal' and t.status = 'approved' and t.voided_at is null
          and t.token in (${sql.join(
            nativeCoins.map((coin) => sql`${coin}`),
            sql`, `,
          )})
          and t.updated_at >= n.enabled_at and t.details->>'txHash' is null
          and not exists (select 1 from payouts p where p.transaction_id = t.id)
          and t.coin_amount > 0
      `),
    ) as Array<{ id: string; address: string; coin_amount: string }>;
    if (!due.length) return 0;
    // The amount on the chain is decided in one place (payoutAmountBase: truncated to the chain's decimals, at least 1).
    const created = await executor
      .insert(payouts)
      .values(
        due.map((row) => ({
          transactionId: row.id,
          network,
          address: row.address,
          amountBase: payoutAmountBase(row.coin_amount, decimals).toString(),
          requiredConfirmations,
        })),
      )
      .onConflictDoNothing({ target: payouts.transactionId })
      .returning({ id: payouts.id });
    return created.length;
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
  /** The withdrawal of a payout with the customer's mail address and name (what its texts need; no lock). */
  async withdrawalView(id: string, executor: Executor) {
    const [row] = await executor
      .select({
        id: transactions.id,
        userId: transactions.userId,
        token: transactions.token,
        coinAmount: transactions.coinAmount,
        symbol: coins.symbol,
        email: users.email,
        name: users.name,
      })
      .from(transactions)
      .leftJoin(users, eq(users.id, transactions.userId))
      .leftJoin(coins, eq(coins.id, transactions.token))
      .where(eq(transactions.id, id));
    return row;
  }

  /** The token's symbol upper-cased for messages ("LTC"); its id when the coin is gone. */
  /** The schedule's withdrawal fee of a send of `token` on `network` and its mode (cp_withdrawal_terms: the rule cp_send checks). */
  async withdrawalTerms(token: string, network: string, executor: Executor): Promise<{ fee: string; mode: 'network' | 'fixed' }> {
    const [row] = rowsOf(await executor.execute(sql`select mode, fee::text as fee from cp_withdrawal_terms(${token}, ${network})`)) as Array<{
      fee: string;
      mode: 'network' | 'fixed';
    }>;
    return row ?? { fee: '0', mode: 'network' };
  }

  async symbolOf(token: string, executor: Executor): Promise<string> {
    const [row] = await executor.select({ symbol: coins.symbol }).from(coins).where(eq(coins.id, token));
    return (row?.symbol ?? token).toUpperCase();
  }

  async remove(id: string, executor: Executor): Promise<void> {
    await executor.delete(payouts).where(eq(payouts.id, id));
  }

  /** Moves the payout and mirrors what the customer sees on its withdrawal (payoutState, txHash, fee, confirmations). */
  async update(
    payout: PayoutRecord,
    change: Partial<
      Pick<
        PayoutRecord,
        | 'state'
        | 'rawTx'
        | 'txid'
        | 'feeBase'
        | 'chargedFeeBase'
        | 'bumps'
        | 'bumpedAt'
        | 'confirmations'
        | 'lastError'
        | 'signedAt'
        | 'broadcastAt'
        | 'completedAt'
        | 'coldReason'
        | 'unsignedTx'
        | 'unsignedFeeBase'
        | 'preparedAt'
      >
    > & {
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
    await executor
      .update(transactions)
      .set({
        details: sql`(coalesce(${transactions.details}, '{}'::jsonb) - 'payoutReason') || ${JSON.stringify(payoutDetails(row, decimals))}::jsonb`,
      })
      .where(eq(transactions.id, row.transactionId));
    return row;
  }
}

/**
 * What the customer sees of a payout, mirrored into its withdrawal's details (payoutState, txHash, fee, confirmations,
 * and recipientGets when the network fee was taken out of the amount); and for the admins only, why a payout waits for
 * funds or why its signature waits (payoutReason: the last error while approved or awaiting_funds, dropped with the next
 * change; toTransactionDto shows it to admins).
 */
export function payoutDetails(payout: PayoutRecord, decimals: number): Record<string, unknown> {
  const fee = payout.feeBase === null ? null : baseToFixed(BigInt(payout.feeBase), decimals);
  const charged = BigInt(payout.chargedFeeBase ?? '0');
  return {
    payoutState: payout.state,
    ...(payout.txid ? { txHash: payout.txid } : {}),
    ...(fee !== null ? { fee } : {}),
    ...(charged > 0n ? { recipientGets: baseToFixed(BigInt(payout.amountBase) - charged, decimals) } : {}),
    confirmations: payout.confirmations,
    requiredConfirmations: payout.requiredConfirmations,
    ...(isWaiting(payout.state) && payout.lastError ? { payoutReason: payout.lastError } : {}),
  };
}

/** A payout not signed yet that the job tries again every run (its last error says why it waits). */
const isWaiting = (state: string | undefined): boolean => state === 'approved' || state === 'awaiting_funds';
