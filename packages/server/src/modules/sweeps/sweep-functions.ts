import { SqlFunction } from '../../db/sql-function';

/** The sweeps' money operation (drizzle/0021_sweeps.sql); values in the order of its parameters. */
export const RECORD_SWEEP = new SqlFunction('cp_record_sweep', [
  'uuid', // p_sweep
  'int', // p_confirmations
  'boolean', // p_succeeded
  'numeric', // p_fee_base
  'numeric', // p_topup_fee_base
  'int', // p_shard
  'jsonb', // p_records
]);
