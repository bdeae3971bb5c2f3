import { SqlFunction } from '../../db/sql-function';

/** The payout job's money operation of its own (drizzle/0019_payout_fees.sql); values in the order of its parameters. */
export const COMPLETE_PAYOUT = new SqlFunction('cp_complete_payout', [
  'uuid', // p_payout
  'text', // p_txid
  'int', // p_confirmations
  'numeric', // p_fee_base
  'text', // p_fee_token
  'int', // p_decimals
  'jsonb', // p_payout_details
  'int', // p_shard
  'jsonb', // p_records
]);
