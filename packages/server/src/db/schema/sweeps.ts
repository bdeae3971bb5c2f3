import { sql } from 'drizzle-orm';
import { integer, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const SWEEP_STATES = ['planned', 'topping_up', 'ready', 'signed', 'broadcast', 'completed', 'failed'] as const;
export type SweepState = (typeof SWEEP_STATES)[number];

/**
 * One sweep of a customer deposit address's balance of one coin to the hot address (EVM family; migration 0021):
 * planned → (ERC-20: topping_up, the hot address's gas top-up stored and sent) → ready → signed (bytes and txid stored
 * before the broadcast) → broadcast → completed (recorded in the ledger by `cp_record_sweep`) or failed (reverted).
 */
export const sweeps = pgTable(
  'sweeps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    network: text('network').notNull(),
    address: text('address').notNull(),
    token: text('token').notNull(),
    /** The ERC-20 contract; null: the network's own coin. */
    contract: text('contract'),
    decimals: integer('decimals').notNull(),
    nativeToken: text('native_token').notNull(),
    nativeDecimals: integer('native_decimals').notNull(),
    state: text('state').$type<SweepState>().notNull().default('planned'),
    topupAmountBase: numeric('topup_amount_base', { precision: 78, scale: 0 }),
    topupRawTx: text('topup_raw_tx'),
    topupTxid: text('topup_txid'),
    topupFeeBase: numeric('topup_fee_base', { precision: 78, scale: 0 }),
    amountBase: numeric('amount_base', { precision: 78, scale: 0 }),
    rawTx: text('raw_tx'),
    txid: text('txid'),
    feeBase: numeric('fee_base', { precision: 78, scale: 0 }),
    confirmations: integer('confirmations').notNull().default(0),
    requiredConfirmations: integer('required_confirmations').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    broadcastAt: timestamp('broadcast_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sweeps_open_address_key')
      .on(t.network, t.address)
      .where(sql`${t.state} not in ('completed', 'failed')`),
    uniqueIndex('sweeps_network_txid_key')
      .on(t.network, t.txid)
      .where(sql`${t.txid} is not null`),
  ],
);
