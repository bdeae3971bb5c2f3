import { Injectable } from '@nestjs/common';
import type { CustomerDepositAddresses } from '../market/customer-deposit-addresses';
import { ChainConnections } from './chain-connections';
import { DepositAddressesService } from './deposit-addresses.service';
import { DepositTagsService } from './deposit-tags.service';

/** Binds the token list's port to the watched networks and their per-customer deposit addresses. */
@Injectable()
export class ChainCustomerAddresses implements CustomerDepositAddresses {
  constructor(
    private readonly chains: ChainConnections,
    private readonly addresses: DepositAddressesService,
    private readonly tags: DepositTagsService,
  ) {}

  confirmationsFor(network: string, coinId: string, contractAddress: string | null): number | undefined {
    return this.chains.watches(network, coinId, contractAddress) ? this.chains.get(network)?.confirmations : undefined;
  }

  addressesFor(userId: string, networks: string[]): Promise<Map<string, string>> {
    return this.addresses.addressesFor(userId, networks);
  }

  memosFor(userId: string, networks: string[]): Promise<Map<string, string>> {
    return this.tags.tagsFor(userId, networks);
  }
}
