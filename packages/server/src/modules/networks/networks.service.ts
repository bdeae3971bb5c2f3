import { Injectable } from '@nestjs/common';
import type { NetworkDto } from '@coinpurse/contract';
import { nativeCoinsOf, NETWORKS } from '../../common/networks';

@Injectable()
export class NetworksService {
  private readonly dtos: NetworkDto[] = NETWORKS.map((n) => ({
    id: n.id,
    name: n.name,
    nativeCoins: nativeCoinsOf(n.id),
    shortName: n.shortName,
    evm: n.evm,
    memo: n.memo !== null,
    memoLabel: n.memo?.label ?? null,
    memoHint: n.memo?.hint ?? null,
    explorerTx: n.explorerTx,
    explorerAddress: n.explorerAddress,
  }));

  list(): NetworkDto[] {
    return this.dtos;
  }
}
