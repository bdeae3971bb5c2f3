import { sql } from 'drizzle-orm';
import type { Executor } from './database';

/** Advisory lock keys of the jobs that run on one instance at a time (PGlite has one process: the locks are trivial). */
export const JobLocks = {
  rateLimitPurge: 7_300_201,
  storedImagesImport: 7_300_202,
  mailDelivery: 7_300_203,
  sessionsPurge: 7_300_204,
  webhookDelivery: 7_300_205,
  /** Base of the chain watchers' keys: one key per network (base + the network's place in CHAIN_NETWORKS). */
  chainWatchBase: 7_300_210,
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
