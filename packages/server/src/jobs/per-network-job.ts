import type { Logger } from '@nestjs/common';

/** The longest pause between runs while a network's runs keep failing. */
const MAX_BACKOFF_MS = 5 * 60_000;

/**
 * A job run per connected network (a chain watcher's poll, a payout run), in this process:
 * - `start` runs it at once, then every `intervalMs` on a timer that never keeps the process alive; after a failure the
 *   pause doubles per consecutive failure, at most five minutes;
 * - `once` runs one at a time per network (a scheduled run and a test's wait for each other); across instances the
 *   job's own advisory locks decide who works, so a run must be safe to repeat;
 * - `safely` never throws: a failure is logged (the job's errors carry no credentials), counted, and handed to
 *   `onFailure` (e.g. stored for the status screen).
 */
export class PerNetworkJob {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Map<string, Promise<unknown>>();
  private readonly failures = new Map<string, number>();
  private stopped = false;

  constructor(
    private readonly logger: Logger,
    /** Named in the log lines: "litecoin watcher: …". */
    private readonly name: string,
    private readonly onFailure?: (network: string, message: string) => Promise<void>,
  ) {}

  /** Runs `run` for the network at once, then again every `intervalMs` (with back-off after failures) until `stop`. */
  start(network: string, intervalMs: number, run: () => Promise<unknown>): void {
    const schedule = (delayMs: number) => {
      if (this.stopped) return;
      const timer = setTimeout(async () => {
        await this.safely(network, run);
        const failures = this.failuresOf(network);
        schedule(failures === 0 ? intervalMs : Math.min(intervalMs * 2 ** Math.min(failures, 16), MAX_BACKOFF_MS));
      }, delayMs);
      timer.unref();
      this.timers.set(network, timer);
    };
    schedule(0);
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
      this.logger.warn(`${network} ${this.name}: ${message} (attempt ${failures}; retrying with back-off)`);
      await this.onFailure?.(network, message).catch(() => undefined);
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
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  /** `stop`, then waits for the runs in flight. */
  async close(): Promise<void> {
    this.stop();
    await Promise.allSettled([...this.running.values()]);
  }
}
