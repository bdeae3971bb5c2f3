import { validateAddress } from '../../common/address-validation';
import { InvalidInputError } from '../../common/errors';
import { allowedNetworks, findNetwork, type NetworkDefinition, NETWORKS } from '../../common/networks';
import type { CoinRecord } from '../market/coins.repository';

/** The network a coin is supported on: the one asked for (if allowed for the coin), else its only one; several → 400. */
export function chooseTokenNetwork(coin: Pick<CoinRecord, 'id' | 'name' | 'symbol'>, requested: string | undefined): NetworkDefinition {
  const allowed = allowedNetworks(coin.id);
  const label = `${coin.name} (${coin.symbol.toUpperCase()})`;
  if (requested) {
    const network = findNetwork(requested);
    if (!network) throw new InvalidInputError(`Unknown network "${requested.slice(0, 40)}". Use one of: ${NETWORKS.map((n) => n.id).join(', ')}.`);
    if (!allowed.some((n) => n.id === network.id)) {
      throw new InvalidInputError(`${label} cannot be supported on ${network.name}. Use: ${allowed.map((n) => n.id).join(', ')}.`);
    }
    return network;
  }
  if (allowed.length === 1) return allowed[0];
  throw new InvalidInputError(`${label} exists on several networks: choose one of ${allowed.map((n) => n.id).join(', ')}.`);
}

/** A token's deposit address must be valid on its network (the message names the network). */
export function assertDepositAddress(networkId: string, address: string): void {
  const problem = validateAddress(networkId, address);
  if (problem) throw new InvalidInputError(problem);
}
