import { SqlFunction } from '../../db/sql-function';

/** The customer's money operations (drizzle/0013_wallet_functions.sql); values in the order of their parameters. */
export const SEND = new SqlFunction('cp_send', [
  'uuid', // p_transaction
  'uuid', // p_user
  'text', // p_token
  'text', // p_network
  'text', // p_address
  'text', // p_memo
  'numeric', // p_quantity
  'numeric', // p_usd
  'numeric', // p_price
  'jsonb', // p_details
  'timestamptz', // p_at
  'boolean', // p_code_checked
  'int', // p_price_grace_ms
  'int', // p_shard
  'jsonb', // p_key
  'jsonb', // p_records
  'numeric', // p_fee (0050)
]);

export const SWAP = new SqlFunction('cp_swap', [
  'uuid', // p_transaction
  'uuid', // p_user
  'text', // p_from
  'text', // p_to
  'numeric', // p_from_quantity
  'numeric', // p_to_quantity
  'numeric', // p_usd
  'numeric', // p_from_price
  'numeric', // p_to_price
  'text', // p_note
  'jsonb', // p_details
  'timestamptz', // p_at
  'int', // p_price_grace_ms
  'int', // p_shard
  'jsonb', // p_key
  'jsonb', // p_records
  'uuid', // p_quote (0050)
  'numeric', // p_spread_quantity
  'numeric', // p_fee_quantity
]);

/**
 * Swaps in one call, one transaction (group commit, drizzle/0065_swap_group_commit.sql): each element cp_swap's values
 * in SWAP's order; answers one result per swap ({} written, or its SQLSTATE and message).
 */
export const SWAP_BATCH = new SqlFunction('cp_swap_batch', ['jsonb']);

/**
 * The terms of swaps under the fee schedule now (cp_swap_terms, drizzle/0050_fees.sql), read before swaps priced now:
 * each element its from, to, from quantity, from price and to price (drizzle/0066_swap_terms_batch.sql).
 */
export const SWAP_TERMS_BATCH = new SqlFunction('cp_swap_terms_batch', ['jsonb']);

/** A swap quote, stored for its customer until it expires. */
export const QUOTE_SWAP = new SqlFunction('cp_quote_swap', ['uuid', 'uuid', 'text', 'text', 'numeric', 'numeric', 'numeric', 'int', 'timestamptz']);
