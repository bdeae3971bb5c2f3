import { SqlFunction } from '../../db/sql-function';

/**
 * The money operations of deposits that left the chain (drizzle/0017_deposit_review.sql); values in the order of their
 * parameters.
 */
export const DROP_CHAIN_DEPOSIT = new SqlFunction('cp_drop_chain_deposit', [
  'uuid', // p_deposit
  'int', // p_drop_after
  'text', // p_note
  'jsonb', // p_records
]);

/** A deposit seen in the mempool and never mined, dropped (drizzle/0061_dropped_deposits.sql). */
export const DROP_UNMINED_CHAIN_DEPOSIT = new SqlFunction('cp_drop_unmined_chain_deposit', [
  'uuid', // p_deposit
  'text', // p_reason
  'int', // p_drop_after
  'text', // p_note
  'jsonb', // p_records
]);

export const PLAN_CHAIN_DEPOSIT_REVERSAL = new SqlFunction('cp_plan_chain_deposit_reversal', [
  'uuid', // p_deposit
]);

export const REVERSE_CHAIN_DEPOSIT = new SqlFunction('cp_reverse_chain_deposit', [
  'uuid', // p_deposit
  'text', // p_reason
  'text', // p_note
  'uuid', // p_actor
  'int', // p_shard
  'jsonb', // p_records
]);

export const KEEP_CHAIN_DEPOSIT = new SqlFunction('cp_keep_chain_deposit', [
  'uuid', // p_deposit
  'text', // p_reason
  'uuid', // p_actor
  'jsonb', // p_records
]);
