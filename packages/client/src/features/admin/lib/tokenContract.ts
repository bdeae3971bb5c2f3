/** An EVM address: 0x and 40 hexadecimal characters (the server also checks a mixed-case checksum). */
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * Why the ERC-20 contract typed for a token's network cannot be sent, or null when it can (empty = no contract).
 * `network`: the network chosen, undefined when the coin's native network is meant (known to the server only).
 */
export function contractAddressProblem(value: string, network: { name: string; evm: boolean } | undefined): string | null {
  const contract = value.trim();
  if (!contract) return null;
  if (network && !network.evm) return `${network.name} has no token contracts: leave the contract address empty.`;
  if (!EVM_ADDRESS.test(contract)) return 'A contract address is 0x followed by 40 hexadecimal characters (0-9, a-f).';
  return null;
}

/**
 * The `contractAddress` an edit sends: nothing when neither it nor the network changed (the server keeps the row's
 * contract), else the typed one ('' removes it).
 */
export function editedContract(typed: string, original: string | null, networkChanged: boolean): { contractAddress?: string } {
  const contract = typed.trim();
  return !networkChanged && contract === (original ?? '') ? {} : { contractAddress: contract };
}
