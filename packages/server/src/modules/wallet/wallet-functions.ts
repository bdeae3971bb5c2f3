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
]);
