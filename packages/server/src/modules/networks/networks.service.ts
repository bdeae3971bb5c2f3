import { Inject, Injectable } from '@nestjs/common';
import type { NetworkDto } from '@coinpurse/contract';
import { explorerOf, explorerUrl, findNetwork, nativeCoinsOf, NETWORKS } from '../../common/networks';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';

/** The network registry as this deployment has it: each network's explorer per CHAIN_<NETWORK>_EXPLORER_URL and its node's chain. */
@Injectable()
export class NetworksService {
  private readonly dtos: NetworkDto[];

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const chainKinds = new Map<string, string>(config.chains.map((chain) => [chain.network, chain.chain]));
    this.dtos = NETWORKS.map((n) => ({
      id: n.id,
      name: n.name,
      nativeCoins: nativeCoinsOf(n.id),
      shortName: n.shortName,
      evm: n.evm,
      memo: n.memo !== null,
      memoLabel: n.memo?.label ?? null,
      memoHint: n.memo?.hint ?? null,
      ...explorerOf(n, config.explorers[n.id], chainKinds.get(n.id)),
    }));
  }

  list(): NetworkDto[] {
    return this.dtos;
  }

  /** The explorer page of transaction `hash` on `networkId`, undefined when the network has no explorer here. */
  txUrl(networkId: string | null | undefined, hash: string): string | undefined {
    const id = findNetwork(networkId)?.id;
    const pattern = this.dtos.find((n) => n.id === id)?.explorerTx;
    return pattern ? explorerUrl(pattern, hash) : undefined;
  }
}
