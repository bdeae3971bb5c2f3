import { Injectable } from '@nestjs/common';
import { validateAddress } from '../../common/address-validation';
import { InvalidInputError } from '../../common/errors';
import type { NetworkDefinition } from '../../common/networks';
import { ChainConnections } from '../chain/chain-connections';

/** A token row's ERC-20 contract as stored: its address and decimals (null when not read from a node); null: none. */
export interface TokenContract {
  address: string | null;
  decimals: number | null;
}

/** Checks the ERC-20 contract an admin gives for a token on a network. */
@Injectable()
export class TokenContracts {
  constructor(private readonly chains: ChainConnections) {}

  /**
   * Only EVM networks have contracts; the address must be valid there and — when the network is connected to a node —
   * a contract whose `decimals()` answers (stored with it). Undefined: not given; an empty string: remove it.
   */
  async check(network: NetworkDefinition, given: string | undefined): Promise<TokenContract | undefined> {
    if (given === undefined) return undefined;
    if (given === '') return { address: null, decimals: null };
    if (!network.evm) throw new InvalidInputError(`${network.name} has no token contracts: leave the contract address empty.`);
    const problem = validateAddress(network.id, given);
    if (problem) throw new InvalidInputError(problem.replace('address', 'contract address'));
    if (!this.chains.get(network.id)) return { address: given, decimals: null };
    let decimals: number;
    try {
      decimals = await this.chains.tokenDecimals(network.id, given);
    } catch (error) {
      throw new InvalidInputError(`The contract ${given} did not answer decimals() on ${network.name}: ${(error as Error).message.slice(0, 200)}`);
    }
    // The ledger keeps 18 decimals: a token with more could not be credited exactly.
    if (decimals > 18) throw new InvalidInputError(`The contract ${given} has ${decimals} decimals; at most 18 are supported.`);
    return { address: given, decimals };
  }
}
