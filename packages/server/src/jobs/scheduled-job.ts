import type { Logger } from '@nestjs/common';
import { tryXactLock } from '../db/advisory-locks';
import type { Database, Tx } from '../db/database';
import { inTransaction } from '../db/in-transaction';

export interface ScheduledJobOptions<T> {
  /** Named in the log line of a failed run: "<name> failed: …". */
  name: string;
  logger: Pick<Logger, 'warn'>;
  /** The pause between runs, in milliseconds. */
  everyMs: number;
  /** The pause before the first run once started (default: `everyMs`). */
  firstRunMs?: number;
  /** The pause after a run, from what it answered and the failed runs in a row (default: `everyMs`). */
  nextRunMs?: (result: T | undefined, failures: number) => number;
  /** The job's work: safe to run again (a retry, a restart, a second instance). A throw is logged and counted. */
  work: () => Promise<T>;
  /** What a failed run answers (default: undefined). */
  failed?: T;
  /** The job's advisory lock (one instance at a time): `locked` runs work in a transaction holding it. */
  lock?: { db: Database; key: number };
}

/**
 * The one scheduled-job helper: a job runs on a timer that never keeps the process alive, one run at a time in this
 * process (a run asked for while one is under way joins it; `kick` asks for one more right after it), never throws (a
 * failure is logged and counted, and the run answers `failed`), and takes its advisory lock through `locked` so one
 * instance at a time does the work. `stop` ends the timer (tests drive `run` themselves; shutdown); `close` also waits
 * for the run under way.
 */
export class ScheduledJob<T> {
  private timer: NodeJS.Timeout | undefined;
  private soon: NodeJS.Timeout | undefined;
  private running: Promise<T | undefined> | undefined;
  private again = false;
  private started = false;
  private stopped = false;
  private failures = 0;

  constructor(private readonly options: ScheduledJobOptions<T>) {}

  /** Runs the job after `firstRunMs`, then every `everyMs` (or as `nextRunMs` says) until `stop`. */
  start(): void {
    if (this.stopped) return;
    this.started = true;
    this.schedule(this.options.firstRunMs ?? this.options.everyMs);
  }

  /**
   * One run now (`work` instead of the job's own, e.g. with a test's clock), or the run under way. Never throws.
   * After it, the next scheduled run is counted from its end.
   */
  run(work: () => Promise<T> = this.options.work): Promise<T | undefined> {
    if (this.running) return this.running;
    clearTimeout(this.timer);
    const current = this.attempt(work);
    this.running = current;
    void current.then((result) => {
      this.running = undefined;
      if (this.again && !this.stopped) {
        this.again = false;
        void this.run();
        return;
      }
      this.again = false;
      if (this.started) this.schedule(this.options.nextRunMs?.(result, this.failures) ?? this.options.everyMs);
    });
    return current;
  }

  /** A run now, or one more right after the run under way (new work arrived meanwhile); `delayMs`: a moment later. */
  kick(delayMs = 0): void {
    if (this.stopped) return;
    if (delayMs > 0) {
      this.soon ??= setTimeout(() => {
        this.soon = undefined;
        this.kick();
      }, delayMs);
      this.soon.unref();
      return;
    }
    if (this.running) this.again = true;
    else void this.run();
  }

  /** `work` in a transaction holding the job's advisory lock; undefined when another instance holds it. */
  locked<R>(work: (tx: Tx) => Promise<R>): Promise<R | undefined> {
    const lock = this.options.lock;
    if (!lock) throw new Error(`${this.options.name}: the job has no advisory lock`);
    return inTransaction(lock.db, async (tx) => ((await tryXactLock(tx, lock.key)) ? work(tx) : undefined));
  }

  /** Failed runs in a row (0: the last one went through). */
  get consecutiveFailures(): number {
    return this.failures;
  }

  /** Ends the scheduled runs; `run` still works when called. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.soon);
    this.timer = undefined;
    this.soon = undefined;
  }

  /** `stop`, then waits for the run under way. */
  async close(): Promise<void> {
    this.stop();
    await this.running;
  }

  private async attempt(work: () => Promise<T>): Promise<T | undefined> {
    try {
      const result = await work();
      this.failures = 0;
      return result;
    } catch (error) {
      this.failures++;
      if (!this.stopped) this.options.logger.warn(`${this.options.name} failed: ${String((error as Error)?.message ?? error).slice(0, 500)}`);
      return this.options.failed;
    }
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(), delayMs);
    this.timer.unref();
  }
}
