import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { DatabaseHandle } from '../../db/database';
import { DATABASE_HANDLE } from '../../db/database.module';
import { SanctionsRepository } from './sanctions.repository';

/** The channel on which every change to sanctioned_addresses is announced (its trigger, drizzle/0063_deposit_holds.sql). */
export const SANCTIONS_CHANNEL = 'coinpurse_sanctions';
/** How long a loaded copy is served at most: the bound on staleness should a notification be missed. */
export const SANCTIONS_CACHE_MS = 30_000;

/**
 * The sanctions list in force, held in memory (per network, the addresses as normalised), so screening a send or an
 * address-book entry costs no database round trip. Loaded lazily in one read, dropped by any change: the table's
 * trigger NOTIFYs SANCTIONS_CHANNEL on commit and every instance LISTENs (PGlite: in-process); a lost LISTEN connection
 * drops the copy on reconnect, and a copy never outlives `ttlMs`. The writer drops its own copy after its commit too.
 */
@Injectable()
export class SanctionsListCache implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Sanctions');
  private entry: { list: Map<string, Set<string>>; expiresAt: number } | undefined;
  private loading: Promise<Map<string, Set<string>>> | undefined;
  private generation = 0;
  private unlisten: (() => Promise<void>) | undefined;
  /** How long a loaded copy is served at most (tests lengthen it to prove that NOTIFY, not expiry, refreshes it). */
  ttlMs = SANCTIONS_CACHE_MS;
  /** How many times the copy was dropped (tests wait on it for another instance's change to arrive). */
  invalidations = 0;

  constructor(
    @Inject(DATABASE_HANDLE) private readonly handle: DatabaseHandle,
    private readonly repository: SanctionsRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (typeof this.handle?.listen !== 'function') return;
    this.unlisten = await this.handle.listen(SANCTIONS_CHANNEL, () => this.invalidate(), {
      onReconnect: () => {
        this.logger.log('LISTEN re-established; the sanctions list reloads on next use');
        this.invalidate();
      },
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.unlisten?.().catch(() => undefined);
    this.invalidate();
  }

  /** The list: per network, its addresses (normalised). */
  async get(): Promise<Map<string, Set<string>>> {
    const entry = this.entry;
    if (entry && entry.expiresAt > Date.now()) return entry.list;
    return this.loading ?? this.load();
  }

  invalidate(): void {
    this.generation += 1;
    this.invalidations += 1;
    this.entry = undefined;
    this.loading = undefined;
  }

  private load(): Promise<Map<string, Set<string>>> {
    const generation = this.generation;
    const loading = (async () => {
      const list = new Map<string, Set<string>>();
      for (const { network, address } of await this.repository.all()) {
        const addresses = list.get(network);
        if (addresses) addresses.add(address);
        else list.set(network, new Set([address]));
      }
      // A change announced while this load ran may not be in it: serve it to the callers waiting, but do not keep it.
      if (generation === this.generation) this.entry = { list, expiresAt: Date.now() + this.ttlMs };
      return list;
    })().finally(() => {
      if (this.loading === loading) this.loading = undefined;
    });
    this.loading = loading;
    return loading;
  }
}
