/** What the label needs of a network (GET /crypto/networks). */
export interface LabelledNetwork {
  id: string;
  name: string;
  shortName: string;
  nativeCoins: string[];
}

/**
 * The one label of a token's network, as the server writes it (`tokenNetworkName`): the network's own coin on the
 * chain alone ("Ethereum" for ETH), any other token with the standard it follows there ("Ethereum (ERC-20)" for USDT),
 * and the network itself, without a token, as the chain. The id itself for a network not listed.
 */
export function networkLabel(networks: readonly LabelledNetwork[] | undefined, id: string, coinId?: string): string {
  const network = networks?.find((candidate) => candidate.id === id);
  if (!network) return id;
  return coinId === undefined || network.nativeCoins.includes(coinId) ? network.shortName : network.name;
}
