import { foreignKey, index, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { payouts } from './payouts';

/** Why a version of a payout's payment is no longer its own (see migration 0019). */
export type ReplacedReason = 'replaced' | 'rejected' | 'lost';

/**
 * The versions of a payout's payment a fee bump replaced, kept: each spends the same inputs (UTXO) or nonce (EVM) as
 * the payout's own, so at most one of them is mined, and the one that is completes the payout.
 */
export const payoutReplacedTxs = pgTable(
  'payout_replaced_txs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    payoutId: uuid('payout_id').notNull(),
    network: text('network').notNull(),
    txid: text('txid').notNull(),
    rawTx: text('raw_tx').notNull(),
    feeBase: numeric('fee_base', { precision: 78, scale: 0 }),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    replacedAt: timestamp('replaced_at', { withTimezone: true }).notNull().defaultNow(),
    reason: text('reason').$type<ReplacedReason>().notNull(),
  },
  (t) => [
    uniqueIndex('payout_replaced_txs_network_txid_key').on(t.network, t.txid),
    index('payout_replaced_txs_payout_idx').on(t.payoutId),
    // Named as migration 0019 made it (inline REFERENCES): the snapshot describes the database as it is.
    foreignKey({ name: 'payout_replaced_txs_payout_id_fkey', columns: [t.payoutId], foreignColumns: [payouts.id] }).onDelete('cascade'),
  ],
);
