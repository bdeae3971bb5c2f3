import { Injectable } from '@nestjs/common';
import type { Tx } from '../../db/database';
import { ChainConnections, type ConnectedChain } from '../chain/chain-connections';
import { TokenNetworksRepository } from '../networks/token-networks.repository';
import { PayoutsRepository } from './payouts.repository';

/**
 * ERC-20 withdrawals paid by the EVM signer: a withdrawal of a token whose row on the network has a contract gets a
 * payout like the native coin's, its amount counted in the contract's decimals (the ones stored when the contract was
 * set, else read from the node). The signer reads the decimals from the contract again and refuses a payout whose
 * amount is not the approved one in them. Tokens without a contract on the network are still settled by hand.
 */
@Injectable()
export class Erc20Payouts {
  constructor(
    private readonly chains: ChainConnections,
    private readonly tokenNetworks: TokenNetworksRepository,
    private readonly payouts: PayoutsRepository,
  ) {}

  /** Creates the due payouts of the network's ERC-20 withdrawals (in the caller's transaction, under its payout lock). */
  async createDue(chain: ConnectedChain, tx: Tx): Promise<number> {
    if (chain.family !== 'evm') return 0;
    let created = 0;
    for (const row of await this.tokenNetworks.listLive({}, tx)) {
      if (row.network !== chain.network || !row.contractAddress || chain.nativeCoins.includes(row.coinId)) continue;
      const decimals = row.contractDecimals ?? (await this.chains.tokenDecimals(chain.network, row.contractAddress));
      created += await this.payouts.createDue(chain.network, [row.coinId], decimals, chain.confirmations, tx);
    }
    return created;
  }
}
