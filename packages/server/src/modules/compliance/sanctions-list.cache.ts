import { Inject, Injectable } from '@nestjs/common';
import type { DatabaseHandle } from '../../db/database';
import { DATABASE_HANDLE } from '../../db/database.module';
import { NotifiedCache } from '../../db/notified-cache';
import { SanctionsRepository } from './sanctions.repository';

/** The channel on which every change to sanctioned_addresses is announced (its trigger, drizzle/0063_deposit_holds.sql). */
export const SANCTIONS_CHANNEL = 'coinpurse_sanctions';
/** How long a loaded copy is served at most: the bound on staleness should a notification be missed. */
export const SANCTIONS_CACHE_MS = 30_000;

/**
 * The sanctions list in force, held in memory (per network, the addresses as normalised), so screening a send or an
 * address-book entry costs no database round trip. Dropped by any change to sanctioned_addresses (NotifiedCache).
 */
@Injectable()
export class SanctionsListCache extends NotifiedCache<Map<string, Set<string>>> {
  constructor(
    @Inject(DATABASE_HANDLE) handle: DatabaseHandle,
    private readonly repository: SanctionsRepository,
  ) {
    super(handle, SANCTIONS_CHANNEL, 'the sanctions list', SANCTIONS_CACHE_MS);
  }

  protected async read(): Promise<Map<string, Set<string>>> {
    const list = new Map<string, Set<string>>();
    for (const { network, address } of await this.repository.all()) {
      const addresses = list.get(network);
      if (addresses) addresses.add(address);
      else list.set(network, new Set([address]));
    }
    return list;
  }
}
