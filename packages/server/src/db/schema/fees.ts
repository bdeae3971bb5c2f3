import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The operator's fee schedule (issue 34), read by the money functions (drizzle/0050_fees.sql) under their locks. One
 * row per token, and the row `*`: the default of every token. A value left NULL falls back to the default row, then
 * to 0 — an empty table (or all zeros) prices swaps and sends exactly as before fees existed. The `*` row is written
 * from the configuration at boot (FEE_* settings, HOUSE_MIN_POSITION_USD) until an administrator sets it on the Fees
 * screen (`set_by` then names them, and the configuration no longer overrides it).
 */
export const feeSchedule = pgTable(
  'fee_schedule',
  {
    token: text('token').primaryKey(),
    /** The swap spread, in basis points of the USD value, taken when the house sells this token (the `to` side). */
    swapSpreadBps: integer('swap_spread_bps'),
    /** The swap fee in basis points of the USD value (default row only). */
    swapFeeBps: integer('swap_fee_bps'),
    /** The least swap fee in USD when a swap fee is charged (default row only). */
    swapFeeMinUsd: numeric('swap_fee_min_usd', { precision: 38, scale: 18 }),
    /** A withdrawal's fee in coins of this token, on top of the network fee (the platform's). */
    withdrawalFee: numeric('withdrawal_fee', { precision: 38, scale: 18 }),
    /**
     * Per network of this token (migration 0062), the withdrawal fee and its mode, overriding `withdrawal_fee` there:
     * `{"<network>": {"mode": "network" | "fixed", "fee": "<coins>"}}`. `network`: the network fee passed through to the
     * customer plus `fee` (as `withdrawal_fee`); `fixed`: the customer pays `fee` only, the platform the network fee.
     */
    withdrawalNetworks: jsonb('withdrawal_networks').$type<Record<string, { mode: 'network' | 'fixed'; fee: string }>>(),
    /** The house position (holdings minus what customers are owed) may not go below this USD value. */
    houseMinPositionUsd: numeric('house_min_position_usd', { precision: 38, scale: 18 }),
    /** Coins the operator holds of a token without a chain connection (off chain): its holdings for the position. */
    inventory: numeric('inventory', { precision: 38, scale: 18 }),
    /** The administrator who last set the row (NULL: written from the configuration). */
    setBy: uuid('set_by'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('fee_schedule_spread_range', sql`${t.swapSpreadBps} is null or (${t.swapSpreadBps} >= 0 and ${t.swapSpreadBps} < 5000)`),
    check('fee_schedule_fee_range', sql`${t.swapFeeBps} is null or (${t.swapFeeBps} >= 0 and ${t.swapFeeBps} < 5000)`),
    check('fee_schedule_withdrawal_networks_object', sql`${t.withdrawalNetworks} is null or jsonb_typeof(${t.withdrawalNetworks}) = 'object'`),
    check('fee_schedule_nonnegative', sql`coalesce(${t.swapFeeMinUsd}, 0) >= 0 and coalesce(${t.withdrawalFee}, 0) >= 0 and coalesce(${t.inventory}, 0) >= 0`),
  ],
);

/**
 * A swap quote a customer may accept once before it expires (POST /api/crypto/swap-quote): its exact numbers, which
 * cp_swap executes whatever the prices do meanwhile. `used_at`/`transaction_id` are set by the swap that used it.
 */
export const swapQuotes = pgTable(
  'swap_quotes',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    fromToken: text('from_token').notNull(),
    toToken: text('to_token').notNull(),
    fromQuantity: numeric('from_quantity', { precision: 38, scale: 18 }).notNull(),
    toQuantity: numeric('to_quantity', { precision: 38, scale: 18 }).notNull(),
    spreadQuantity: numeric('spread_quantity', { precision: 38, scale: 18 }).notNull(),
    feeQuantity: numeric('fee_quantity', { precision: 38, scale: 18 }).notNull(),
    usd: numeric('usd', { precision: 38, scale: 18 }).notNull(),
    feeUsd: numeric('fee_usd', { precision: 38, scale: 18 }).notNull(),
    fromPrice: numeric('from_price', { precision: 38, scale: 18 }).notNull(),
    toPrice: numeric('to_price', { precision: 38, scale: 18 }).notNull(),
    rate: numeric('rate').notNull(),
    spreadBps: integer('spread_bps').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    transactionId: uuid('transaction_id'),
  },
  (t) => [index('swap_quotes_expires_idx').on(t.expiresAt)],
);

/**
 * The last complete on-chain reading of each token (hot, deposit and cold addresses: the reserves check), the
 * holdings of the house position for a token with a chain connection.
 */
export const houseHoldings = pgTable('house_holdings', {
  token: text('token').primaryKey(),
  onChain: numeric('on_chain', { precision: 38, scale: 18 }).notNull(),
  readAt: timestamp('read_at', { withTimezone: true }).notNull(),
});

/** A token whose house position refused a swap or withdrawal: the operator was alerted (once, until it recovers). */
export const houseExposureAlerts = pgTable('house_exposure_alerts', {
  token: text('token').primaryKey(),
  alertedAt: timestamp('alerted_at', { withTimezone: true }).notNull().defaultNow(),
});
