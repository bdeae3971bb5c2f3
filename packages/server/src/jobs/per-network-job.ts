import type { Logger } from '@nestjs/common';
import { CHAIN_NETWORKS, type ChainNetwork } from '../config/chain-params';
import { tryXactLock } from '../db/advisory-locks';
import type { Database, Tx } from '../db/database';
import { inTransaction } from '../db/in-transaction';
import { ScheduledJob } from './scheduled-job';

/** The longest pause between runs while a network's runs keep failing. */
const MAX_BACKOFF_MS = 5 * 60_000;

export interface PerNetworkJobOptions {
  /** Named in the log lines: "litecoin watcher: …". */
  name: string;
  logger: Pick<Logger, 'warn'>;
  /** The job's advisory locks: one per network, `lockBase` + the network's place in CHAIN_NETWORKS (src/db/advisory-locks.ts). */
  db: Database;
  lockBase: number;
  /** Told of each failed run (e.g. to store it for the status screen); its own failure is ignored. */
  onFailure?: (network: string, message: string) => Promise<void>;
}

/**
 * A job run per connected network (a chain watcher's poll, a payout run, a sweep run), on the scheduled-job helper:
 * - `start` runs it at once, then every `intervalMs`; after a failure the pause doubles per consecutive failure, at most
 *   five minutes; after `stop`, no scheduled run starts (not even one that was waiting for a run under way);
 * - `once` runs one at a time per network (a scheduled run and a test's wait for each other);
 * - `locked` is the network's advisory lock: each step of a run takes it in its own transaction, so across instances
 *   one works at a time and a run must be safe to repeat;
 * - `safely` never throws: a failure is logged (the job's errors carry no credentials), counted, and handed to
 *   `onFailure`.
 */
export class PerNetworkJob {
  private readonly schedules = new Map<string, ScheduledJob<unknown>>();
  private readonly running = new Map<string, Promise<unknown>>();
  private readonly failures = new Map<string, number>();
  private stopped = false;

  constructor(private readonly options: PerNetworkJobOptions) {}

  /** Runs `run` for the network at once, then again every `intervalMs` (with back-off after failures) until `stop`. */
  start(network: string, intervalMs: number, run: () => Promise<unknown>): void {
    if (this.stopped) return;
    const job = new ScheduledJob<unknown>({
      name: `${network} ${this.options.name}`,
      logger: this.options.logger,
      everyMs: intervalMs,
      firstRunMs: 0,
      work: async () => {
        // A scheduled run that waited for a run under way does not start once the job is stopped meanwhile (a test
        // drives the runs itself from then on; shutdown).
        await this.running.get(network)?.catch(() => undefined);
        return this.stopped ? undefined : this.safely(network, run);
      },
      nextRunMs: () => {
        const failures = this.failuresOf(network);
        return failures === 0 ? intervalMs : Math.min(intervalMs * 2 ** Math.min(failures, 16), MAX_BACKOFF_MS);
      },
    });
    this.schedules.set(network, job);
    job.start();
  }

  /** The advisory lock key of the network's runs. */
  lockKey(network: string): number {
    return this.options.lockBase + CHAIN_NETWORKS.indexOf(network as ChainNetwork);
  }

  /** `work` in a transaction holding the network's advisory lock; undefined when another instance holds it. */
  locked<T>(network: string, work: (tx: Tx) => Promise<T>): Promise<T | undefined> {
    return inTransaction(this.options.db, async (tx) => ((await tryXactLock(tx, this.lockKey(network))) ? work(tx) : undefined));
  }

  /** `run`, once the network's previous run in this process has ended. Throws what it throws. */
  async once<T>(network: string, run: () => Promise<T>): Promise<T> {
    const previous = this.running.get(network);
    if (previous) await previous.catch(() => undefined);
    const current = run();
    this.running.set(network, current);
    try {
      return await current;
    } finally {
      if (this.running.get(network) === current) this.running.delete(network);
    }
  }

  /** `once` that never throws: undefined when the run failed (logged, counted, handed to `onFailure`). */
  async safely<T>(network: string, run: () => Promise<T>): Promise<T | undefined> {
    try {
      const result = await this.once(network, run);
      this.failures.set(network, 0);
      return result;
    } catch (error) {
      const failures = this.failuresOf(network) + 1;
      this.failures.set(network, failures);
      const message = String((error as Error).message ?? error).slice(0, 500);
      this.options.logger.warn(`${network} ${this.options.name}: ${message} (attempt ${failures}; retrying with back-off)`);
      await this.options.onFailure?.(network, message).catch(() => undefined);
      return undefined;
    }
  }

  /** Consecutive failed runs of a network (0: the last one went through). */
  failuresOf(network: string): number {
    return this.failures.get(network) ?? 0;
  }

  /** Stops the scheduled runs (tests drive the runs themselves; shutdown). */
  stop(): void {
    this.stopped = true;
    for (const job of this.schedules.values()) job.stop();
  }

  /** `stop`, then waits for the runs in flight. */
  async close(): Promise<void> {
    this.stop();
    await Promise.allSettled([...this.running.values(), ...[...this.schedules.values()].map((job) => job.close())]);
  }
}
