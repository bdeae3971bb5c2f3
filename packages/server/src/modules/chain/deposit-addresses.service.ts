import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, type Database } from '../../db/database';
import { inTransaction } from '../../db/in-transaction';
import { ChainConnections, type ConnectedChain } from './chain-connections';
import { EVM_NETWORKS } from '../../config/chain-params';
import { deriveDepositAddress } from './derivation';
import { type DepositAddressRecord, DepositAddressesRepository } from './deposit-addresses.repository';

/**
 * Each customer's own deposit address per connected network, derived watch-only from the operator's account key.
 * Allocated once (the first time the customer's tokens are listed) and kept: never derived again, never given to
 * another customer (unique per network and address). On the EVM networks one index serves all of them.
 */
@Injectable()
export class DepositAddressesService {
  constructor(
    private readonly chains: ChainConnections,
    private readonly repository: DepositAddressesRepository,
    @Inject(DATABASE) private readonly db: Database,
  ) {}

  /** The customer's addresses on these networks (the connected ones), allocating the missing ones. */
  async addressesFor(userId: string, networks: string[]): Promise<Map<string, string>> {
    const connected = [...new Set(networks)].flatMap((network) => this.chains.get(network) ?? []);
    const found = new Map(
      (
        await this.repository.forUser(
          userId,
          connected.map((c) => c.network),
        )
      ).map((row) => [row.network, row.address]),
    );
    for (const chain of connected) {
      if (!found.has(chain.network)) found.set(chain.network, (await this.allocate(userId, chain)).address);
    }
    return found;
  }

  /** Allocates the customer's address on a network (or returns the one a concurrent call allocated). */
  async allocate(userId: string, chain: ConnectedChain): Promise<DepositAddressRecord> {
    return inTransaction(this.db, async (tx) => {
      const [existing] = await this.repository.forUser(userId, [chain.network], tx);
      if (existing) return existing;
      const shared = chain.family === 'evm' ? await this.repository.indexUnderKey(userId, chain.account.fingerprint, [...EVM_NETWORKS], tx) : undefined;
      const index = shared ?? (await this.repository.takeIndex(chain.counterScope, tx));
      const derived = deriveDepositAddress(chain.account, index);
      const inserted = await this.repository.insert(
        {
          userId,
          network: chain.network,
          address: derived.address,
          matchKey: derived.matchKey,
          derivationIndex: index,
          keyFingerprint: chain.account.fingerprint,
        },
        tx,
      );
      // A concurrent call won: its address is the customer's (the index taken here stays unused, never reused).
      return inserted ?? (await this.repository.forUser(userId, [chain.network], tx))[0];
    });
  }
}
