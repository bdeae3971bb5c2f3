import { Inject, Injectable } from '@nestjs/common';
import { desc, eq } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { payoutReplacedTxs, payouts, type ReplacedReason } from '../../db/schema';
import type { SignedPayout } from '../../chain-core/signer-contract';
import { type PayoutRecord, PayoutsRepository } from './payouts.repository';

export type ReplacedTx = typeof payoutReplacedTxs.$inferSelect;

/**
 * The SQL of a payout's payment versions (migration 0019): the payout row holds the version it stands by, the others
 * (replaced by a fee bump, refused by the node, or lost to a replaced one that confirmed) are kept in
 * payout_replaced_txs. Every change happens under the payout's row lock, in the caller's transaction.
 */
@Injectable()
export class PayoutVersionsRepository {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly payouts: PayoutsRepository,
  ) {}

  /** The versions a payout no longer stands by, newest first. */
  replacedOf(payoutId: string, executor: Executor = this.db): Promise<ReplacedTx[]> {
    return executor
      .select()
      .from(payoutReplacedTxs)
      .where(eq(payoutReplacedTxs.payoutId, payoutId))
      .orderBy(desc(payoutReplacedTxs.replacedAt), desc(payoutReplacedTxs.id));
  }

  /** The payout row, locked (undefined: gone). */
  async lock(payoutId: string, executor: Executor): Promise<PayoutRecord | undefined> {
    const [row] = await executor.select().from(payouts).where(eq(payouts.id, payoutId)).for('update');
    return row;
  }

  /** Makes `replacement` the payout's payment (stored before it is broadcast), keeping the one it replaces. */
  async replace(payout: PayoutRecord, replacement: SignedPayout, decimals: number, executor: Executor): Promise<PayoutRecord> {
    await this.keep(payout, 'replaced', executor);
    return this.payouts.update(
      payout,
      {
        txid: replacement.txid,
        rawTx: replacement.rawTx,
        feeBase: replacement.feeBase.toString(),
        bumps: payout.bumps + 1,
        bumpedAt: new Date(),
        lastError: null,
      },
      decimals,
      executor,
    );
  }

  /** Makes a kept version the payout's payment again; the one it stood by is kept with `reason`. */
  async restore(
    payout: PayoutRecord,
    kept: ReplacedTx,
    reason: Exclude<ReplacedReason, 'replaced'>,
    lastError: string | null,
    decimals: number,
    executor: Executor,
  ) {
    await this.keep(payout, reason, executor);
    await executor.delete(payoutReplacedTxs).where(eq(payoutReplacedTxs.id, kept.id));
    return this.payouts.update(payout, { txid: kept.txid, rawTx: kept.rawTx, feeBase: kept.feeBase, lastError }, decimals, executor);
  }

  /** Notes a bump that was not made (the reason in last_error), so the next try waits the stuck minutes again. */
  noteNoBump(payout: PayoutRecord, reason: string, decimals: number, executor: Executor): Promise<PayoutRecord> {
    return this.payouts.update(payout, { lastError: reason, bumpedAt: new Date() }, decimals, executor);
  }

  private async keep(payout: PayoutRecord, reason: ReplacedReason, executor: Executor): Promise<void> {
    await executor.insert(payoutReplacedTxs).values({
      payoutId: payout.id,
      network: payout.network,
      txid: payout.txid!,
      rawTx: payout.rawTx!,
      feeBase: payout.feeBase,
      signedAt: payout.signedAt,
      reason,
    });
  }
}
