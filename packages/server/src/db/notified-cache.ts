import { Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { DatabaseHandle } from './database';

/**
 * A copy of some tables held in memory for the hot path, loaded lazily as one copy (concurrent callers share one load)
 * and dropped by any change: the tables' triggers NOTIFY `channel` when the changing transaction commits, and every
 * instance LISTENs (PGlite: in-process); a lost LISTEN connection drops the copy on reconnect, and a copy never
 * outlives `ttlMs`, the bound on staleness should a notification be missed. A subclass says how to read the copy.
 */
export abstract class NotifiedCache<T> implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger: Logger;
  private entry: { value: T; expiresAt: number } | undefined;
  private loading: Promise<T> | undefined;
  private generation = 0;
  private unlisten: (() => Promise<void>) | undefined;
  /** How long a loaded copy is served at most (tests lengthen it to prove that NOTIFY, not expiry, refreshes it). */
  ttlMs: number;
  /** How many times the copy was dropped (tests wait on it for another instance's change to arrive). */
  invalidations = 0;

  protected constructor(
    private readonly handle: DatabaseHandle,
    private readonly channel: string,
    /** What the copy is, for the log line on reconnect ("reference data", "the sanctions list"). */
    private readonly what: string,
    ttlMs: number,
  ) {
    this.logger = new Logger(new.target.name);
    this.ttlMs = ttlMs;
  }

  /** Reads the whole copy from the database. */
  protected abstract read(): Promise<T>;

  async onApplicationBootstrap(): Promise<void> {
    if (typeof this.handle?.listen !== 'function') return;
    this.unlisten = await this.handle.listen(this.channel, () => this.invalidate(), {
      onReconnect: () => {
        // Notifications sent while the connection was down are lost: start over.
        this.logger.log(`LISTEN re-established; ${this.what} reloads on next use`);
        this.invalidate();
      },
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.unlisten?.().catch(() => undefined);
    this.invalidate();
  }

  /** The current copy, loaded when there is none. */
  async get(): Promise<T> {
    const entry = this.entry;
    if (entry && entry.expiresAt > Date.now()) return entry.value;
    return this.loading ?? this.load();
  }

  /**
   * Drops the copy on this instance now. Changes are announced to every instance by the tables' triggers on commit;
   * a writer calls this after its commit too, so its own next read (before the notification has come back) is fresh.
   */
  invalidate(): void {
    this.generation += 1;
    this.invalidations += 1;
    this.entry = undefined;
    this.loading = undefined;
  }

  private load(): Promise<T> {
    const generation = this.generation;
    const loading = (async () => {
      const value = await this.read();
      // A change announced while this load ran may not be in it: serve it to the callers waiting, but do not keep it.
      if (generation === this.generation) this.entry = { value, expiresAt: Date.now() + this.ttlMs };
      return value;
    })().finally(() => {
      if (this.loading === loading) this.loading = undefined;
    });
    this.loading = loading;
    return loading;
  }
}
