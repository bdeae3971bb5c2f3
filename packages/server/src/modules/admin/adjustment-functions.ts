import { SqlFunction } from '../../db/sql-function';

/** Balance adjustments (drizzle/0015_adjustment_functions.sql); values in the order of their parameters. */
export const ADJUST_BALANCE = new SqlFunction('cp_adjust_balance', [
  'uuid', // p_transaction
  'uuid', // p_user
  'text', // p_token
  'text', // p_mode: 'add' | 'set'
  'numeric', // p_quantity: added, or the balance to set
  'numeric', // p_price
  'numeric', // p_requested_usd
  'text', // p_reason
  'numeric', // p_expected_balance: bound by a four-eyes approval, else null
  'text', // p_symbol
  'int', // p_decimals
  'uuid', // p_actor
  'timestamptz', // p_at
  'int', // p_shard
  'jsonb', // p_key
  'jsonb', // p_notice
  'jsonb', // p_audit
  'jsonb', // p_answer
]);

/** A customer's balance in a token, locked for the rest of the transaction (the four-eyes gate decides from it). */
export const LOCK_CUSTOMER_BALANCE = new SqlFunction('cp_lock_customer_balance', [
  'uuid', // p_user
  'text', // p_token
]);
