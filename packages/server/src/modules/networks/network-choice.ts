import { isAddressOn, validateAddress, validateMemo } from '../../common/address-validation';
import { InvalidInputError } from '../../common/errors';
import { findNetwork, type NetworkDefinition } from '../../common/networks';

export interface TransferTarget {
  network: NetworkDefinition;
  /** Normalised memo / destination tag; undefined when none. */
  memo?: string;
}

/**
 * The network a transfer of a token goes out on, and its checked memo. A token on one network uses it; on several,
 * the requested one (it must be one of the token's), else the one network whose format accepts the address — none
 * or several → 400 naming the choices. The address must be valid on the network chosen (the message names it).
 */
export function chooseTransferNetwork(
  token: { symbol: string; name: string },
  tokenNetworks: string[],
  input: { address: string; network?: string; memo?: string | null },
): TransferTarget {
  const label = `${token.name} (${token.symbol.toUpperCase()})`;
  const candidates = tokenNetworks.map((id) => findNetwork(id)).filter((n): n is NetworkDefinition => !!n);
  if (!candidates.length) throw new InvalidInputError(`${label} cannot be sent yet: it has no network. Contact support.`);
  const names = candidates.map((n) => `${n.name} (${n.id})`).join(', ');
  let network: NetworkDefinition | undefined;
  if (input.network) {
    network = candidates.find((n) => n.id === input.network);
    if (!network) throw new InvalidInputError(`${label} cannot be sent on "${input.network.slice(0, 40)}". Choose one of: ${names}.`);
  } else if (candidates.length === 1) {
    network = candidates[0];
  } else {
    const accepting = candidates.filter((n) => isAddressOn(n.id, input.address));
    if (accepting.length === 1) network = accepting[0];
    else if (accepting.length === 0) throw new InvalidInputError(`This is not a valid ${label} address on any of its networks: ${names}.`);
    else throw new InvalidInputError(`This address is valid on several networks of ${label}: choose the network (${accepting.map((n) => n.id).join(', ')}).`);
  }
  const problem = validateAddress(network.id, input.address);
  if (problem) throw new InvalidInputError(problem);
  const memo = validateMemo(network.id, input.memo, input.address);
  if (memo.error) throw new InvalidInputError(memo.error);
  return { network, memo: memo.memo };
}
