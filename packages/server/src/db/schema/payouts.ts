import { sql } from 'drizzle-orm';
import { foreignKey, integer, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { transactions } from './ledger';

export const PAYOUT_STATES = ['approved', 'awaiting_funds', 'awaiting_cold_signature', 'signed', 'broadcast', 'confirming', 'completed', 'failed'] as const;
export type PayoutState = (typeof PAYOUT_STATES)[number];

/**
 * The on-chain payment of one approved withdrawal (see migration 0011): unique per withdrawal; the signed bytes and
 * txid are stored before the broadcast, and only those bytes are ever broadcast for it.
 */
export const payouts = pgTable(
  'payouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    transactionId: uuid('transaction_id').notNull(),
    network: text('network').notNull(),
    address: text('address').notNull(),
    /** The approved amount in the chain's base unit (satoshis). */
    amountBase: numeric('amount_base', { precision: 78, scale: 0 }).notNull(),
    state: text('state').$type<PayoutState>().notNull().default('approved'),
    rawTx: text('raw_tx'),
    txid: text('txid'),
    /** The network fee of the payment as signed; once completed, the fee the chain took (migration 0019). */
    feeBase: numeric('fee_base', { precision: 78, scale: 0 }),
    /** The network fee charged to the customer: the recipient gets amountBase − chargedFeeBase (migration 0019). */
    chargedFeeBase: numeric('charged_fee_base', { precision: 78, scale: 0 }).notNull().default('0'),
    /** Fee bumps so far, and when the last one was tried (the next waits the stuck minutes from then). */
    bumps: integer('bumps').notNull().default(0),
    bumpedAt: timestamp('bumped_at', { withTimezone: true }),
    confirmations: integer('confirmations').notNull().default(0),
    requiredConfirmations: integer('required_confirmations').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    broadcastAt: timestamp('broadcast_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Why the payout waits for a cold signature (migration 0020); null: paid by the hot signer. */
    coldReason: text('cold_reason'),
    /** The unsigned transaction handed out for the offline signature (base64 PSBT, or an unsigned EIP-1559 hex). */
    unsignedTx: text('unsigned_tx'),
    /** The fee of the unsigned transaction (the most a signed upload may pay). */
    unsignedFeeBase: numeric('unsigned_fee_base', { precision: 78, scale: 0 }),
    preparedAt: timestamp('prepared_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payouts_transaction_key').on(t.transactionId),
    uniqueIndex('payouts_network_txid_key')
      .on(t.network, t.txid)
      .where(sql`${t.txid} is not null`),
    // Named as migration 0011 made it (inline REFERENCES): the snapshot describes the database as it is.
    foreignKey({ name: 'payouts_transaction_id_fkey', columns: [t.transactionId], foreignColumns: [transactions.id] }),
  ],
);

/** Since when a network pays out by itself (withdrawals approved before were settled by hand). */
export const payoutNetworks = pgTable('payout_networks', {
  network: text('network').primaryKey(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }).notNull().defaultNow(),
});
