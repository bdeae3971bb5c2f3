import { sql } from 'drizzle-orm';
import type { Executor } from './database';

/**
 * Advisory lock keys of the jobs that run on one instance at a time (PGlite has one process: the locks are trivial),
 * all in one number space (migrations use 7_300_001). A `…Base` is per network: base + the network's place in
 * CHAIN_NETWORKS (PerNetworkJob).
 */
export const JobLocks = {
  marketRefresh: 7_300_101,
  marketSeed: 7_300_102,
  rateLimitPurge: 7_300_201,
  storedImagesImport: 7_300_202,
  mailDelivery: 7_300_203,
  sessionsPurge: 7_300_204,
  webhookDelivery: 7_300_205,
  /** A replacement of the sanctions list (a file load or an upload), one at a time. */
  sanctionsList: 7_300_206,
  chainWatchBase: 7_300_210,
  payoutsBase: 7_300_310,
  sweepsBase: 7_300_410,
  /**
   * The reserves alert's review. The same number as bitcoin's sweep key (sweepsBase + 0), kept so: sweeps run on the
   * EVM networks only, so the two never meet.
   */
  reservesAlert: 7_300_410,
} as const;

/** Transaction-scoped advisory lock without waiting: false when another instance holds it. */
export async function tryXactLock(executor: Executor, key: number): Promise<boolean> {
  const result = (await executor.execute(sql`select pg_try_advisory_xact_lock(${key}) as locked`)) as unknown as { rows?: Array<{ locked?: unknown }> };
  return Boolean((Array.isArray(result) ? result[0] : result.rows?.[0])?.locked);
}

/** Transaction-scoped advisory lock, waiting for it. */
export async function xactLock(executor: Executor, key: number): Promise<void> {
  await executor.execute(sql`select pg_advisory_xact_lock(${key})`);
}
