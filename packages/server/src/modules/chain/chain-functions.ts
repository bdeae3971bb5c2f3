import { SqlFunction } from '../../db/sql-function';

/** The chain jobs' money operations (drizzle/0016_chain_functions.sql); values in the order of their parameters. */
export const CREDIT_CHAIN_DEPOSIT = new SqlFunction('cp_credit_chain_deposit', [
  'uuid', // p_deposit
  'int', // p_confirmations
  'int', // p_required
  'int', // p_shard
  'jsonb', // p_records
]);

export const FAIL_PAYOUT = new SqlFunction('cp_fail_payout', [
  'uuid', // p_payout
  'text', // p_reason
  'jsonb', // p_payout_details
  'int', // p_shard
  'jsonb', // p_records
]);
