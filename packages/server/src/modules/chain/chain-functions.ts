import { SqlFunction } from '../../db/sql-function';

/** The chain jobs' money operations (drizzle/0016_chain_functions.sql); values in the order of their parameters. */
export const CREDIT_CHAIN_DEPOSIT = new SqlFunction('cp_credit_chain_deposit', [
  'uuid', // p_deposit
  'int', // p_confirmations
  'int', // p_required
  'int', // p_shard
  'jsonb', // p_records
  'jsonb', // p_hold_records: {limit, sanctions} (drizzle/0063_deposit_holds.sql)
]);

export const FAIL_PAYOUT = new SqlFunction('cp_fail_payout', [
  'uuid', // p_payout
  'text', // p_reason
  'jsonb', // p_payout_details
  'int', // p_shard
  'jsonb', // p_records
]);

/** A held chain deposit released (drizzle/0063_deposit_holds.sql). */
export const RELEASE_DEPOSIT_HOLD = new SqlFunction('cp_release_deposit_hold', [
  'uuid', // p_deposit
  'uuid', // p_actor
  'int', // p_shard
  'jsonb', // p_records
]);
