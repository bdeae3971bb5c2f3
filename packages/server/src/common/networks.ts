/**
 * The blockchain networks Coinpurse moves coins on. Networks are data: each has a display name, an address validator
 * (see `address-validation.ts`), explorer URL patterns and whether transfers carry a memo / destination tag.
 * Per-token rows (which token is on which network, with which deposit address) live in the `token_networks` table.
 */
export const NETWORK_IDS = [
  'bitcoin',
  'ethereum',
  'bsc',
  'polygon',
  'arbitrum',
  'avalanche',
  'tron',
  'solana',
  'xrp',
  'litecoin',
  'dogecoin',
  'cardano',
  'stellar',
  'bitcoin-cash',
] as const;

export type NetworkId = (typeof NETWORK_IDS)[number];

export interface NetworkDefinition {
  id: NetworkId;
  /** Shown to people: "Tron (TRC-20)". */
  name: string;
  /** Used in sentences: "This is not a valid Tron address." */
  shortName: string;
  /** EVM chains share one address format (EIP-55). */
  evm: boolean;
  /** Transfers to exchanges need this extra field (XRP destination tag, Stellar memo); null when the network has none. */
  memo: { label: string; hint: string } | null;
  /** Explorer links; `{tx}` and `{address}` are replaced. */
  explorerTx: string;
  explorerAddress: string;
}

const XRP_TAG = { label: 'Destination tag', hint: 'A whole number from 0 to 4294967295, if the receiver asks for one' };
const STELLAR_MEMO = { label: 'Memo', hint: 'At most 28 bytes of text, if the receiver asks for one' };

export const NETWORKS: readonly NetworkDefinition[] = [
  net('bitcoin', 'Bitcoin', 'Bitcoin', 'https://mempool.space/tx/{tx}', 'https://mempool.space/address/{address}'),
  net('ethereum', 'Ethereum (ERC-20)', 'Ethereum', 'https://etherscan.io/tx/{tx}', 'https://etherscan.io/address/{address}', true),
  net('bsc', 'BNB Smart Chain (BEP-20)', 'BNB Smart Chain', 'https://bscscan.com/tx/{tx}', 'https://bscscan.com/address/{address}', true),
  net('polygon', 'Polygon PoS', 'Polygon', 'https://polygonscan.com/tx/{tx}', 'https://polygonscan.com/address/{address}', true),
  net('arbitrum', 'Arbitrum One', 'Arbitrum', 'https://arbiscan.io/tx/{tx}', 'https://arbiscan.io/address/{address}', true),
  net('avalanche', 'Avalanche C-Chain', 'Avalanche C-Chain', 'https://snowtrace.io/tx/{tx}', 'https://snowtrace.io/address/{address}', true),
  net('tron', 'Tron (TRC-20)', 'Tron', 'https://tronscan.org/#/transaction/{tx}', 'https://tronscan.org/#/address/{address}'),
  net('solana', 'Solana', 'Solana', 'https://explorer.solana.com/tx/{tx}', 'https://explorer.solana.com/address/{address}'),
  net('xrp', 'XRP Ledger', 'XRP', 'https://livenet.xrpl.org/transactions/{tx}', 'https://livenet.xrpl.org/accounts/{address}', false, XRP_TAG),
  net('litecoin', 'Litecoin', 'Litecoin', 'https://litecoinspace.org/tx/{tx}', 'https://litecoinspace.org/address/{address}'),
  net('dogecoin', 'Dogecoin', 'Dogecoin', 'https://dogechain.info/tx/{tx}', 'https://dogechain.info/address/{address}'),
  net('cardano', 'Cardano', 'Cardano', 'https://cardanoscan.io/transaction/{tx}', 'https://cardanoscan.io/address/{address}'),
  net(
    'stellar',
    'Stellar',
    'Stellar',
    'https://stellar.expert/explorer/public/tx/{tx}',
    'https://stellar.expert/explorer/public/account/{address}',
    false,
    STELLAR_MEMO,
  ),
  net(
    'bitcoin-cash',
    'Bitcoin Cash',
    'Bitcoin Cash',
    'https://blockchair.com/bitcoin-cash/transaction/{tx}',
    'https://blockchair.com/bitcoin-cash/address/{address}',
  ),
];

function net(
  id: NetworkId,
  name: string,
  shortName: string,
  explorerTx: string,
  explorerAddress: string,
  evm = false,
  memo: NetworkDefinition['memo'] = null,
): NetworkDefinition {
  return { id, name, shortName, evm, memo, explorerTx, explorerAddress };
}

const BY_ID = new Map<string, NetworkDefinition>(NETWORKS.map((n) => [n.id, n]));

export function findNetwork(id: string | null | undefined): NetworkDefinition | undefined {
  return id ? BY_ID.get(id.trim().toLowerCase()) : undefined;
}

export function isNetworkId(id: string): id is NetworkId {
  return BY_ID.has(id);
}

/** A network's display name, or the raw value for a network id this registry does not know (old rows). */
export function networkName(id: string | null | undefined): string | null {
  if (!id) return null;
  return BY_ID.get(id)?.name ?? id;
}

/**
 * A network as people read it for one token: the chain alone for the chain's own coin ("Ethereum" for ETH, where
 * "Ethereum (ERC-20)" would call the coin a token), the display name with its token standard for any other token on it
 * ("Ethereum (ERC-20)" for USDT). The raw value for a network this registry does not know; null without one.
 */
export function tokenNetworkName(networkId: string | null | undefined, coinId: string): string | null {
  if (!networkId) return null;
  const network = BY_ID.get(networkId);
  if (!network) return networkId;
  return NATIVE_NETWORK[coinId] === network.id ? network.shortName : network.name;
}

/** What a customer is told while a network has no deposit address (deposits there are not possible yet); null once it has one. */
export function depositNote(networkName: string, address: string | null): string | null {
  return address ? null : `Deposits are not set up for the ${networkName} network yet.`;
}

/**
 * The one network a coin lives on natively (CoinGecko ids). `add-token` uses it when no network is given; these
 * coins can only be added on that network.
 */
export const NATIVE_NETWORK: Readonly<Record<string, NetworkId>> = {
  bitcoin: 'bitcoin',
  ethereum: 'ethereum',
  solana: 'solana',
  ripple: 'xrp',
  litecoin: 'litecoin',
  dogecoin: 'dogecoin',
  cardano: 'cardano',
  tron: 'tron',
  stellar: 'stellar',
  binancecoin: 'bsc',
  'avalanche-2': 'avalanche',
  'bitcoin-cash': 'bitcoin-cash',
  'matic-network': 'polygon',
  'polygon-ecosystem-token': 'polygon',
  arbitrum: 'arbitrum',
};

/** The coins native to a network (polygon: matic-network and polygon-ecosystem-token). */
export function nativeCoinsOf(network: string): string[] {
  return Object.entries(NATIVE_NETWORK)
    .filter(([, id]) => id === network)
    .map(([coin]) => coin);
}

/** Chains without tokens of their own kind: a token other than the native coin cannot live there. */
const NATIVE_ONLY: ReadonlySet<NetworkId> = new Set(['bitcoin', 'litecoin', 'dogecoin', 'bitcoin-cash']);

/** The networks a coin may be supported on: its native one, else every network that carries tokens. */
export function allowedNetworks(coinId: string): NetworkDefinition[] {
  const native = NATIVE_NETWORK[coinId];
  if (native) return [BY_ID.get(native)!];
  return NETWORKS.filter((n) => !NATIVE_ONLY.has(n.id));
}

export function explorerUrl(pattern: string, value: string): string {
  return pattern.replace(/\{tx\}|\{address\}/g, encodeURIComponent(value));
}

/** A network's explorer links: `{tx}` and `{address}` patterns, '' for none. */
export interface ExplorerPatterns {
  explorerTx: string;
  explorerAddress: string;
}

/**
 * The explorer of `network` for this deployment: `configured` (CHAIN_<NETWORK>_EXPLORER_URL: a base URL taking the
 * network's own paths, a `{tx}` pattern, or 'none'); unset, the mainnet explorer unless the network's node is on a test
 * chain (`chainKind` testnet or regtest), whose transactions a mainnet explorer would answer "not found".
 */
export function explorerOf(network: NetworkDefinition, configured: string | undefined, chainKind: string | undefined): ExplorerPatterns {
  const none = { explorerTx: '', explorerAddress: '' };
  if (configured === 'none') return none;
  if (configured === undefined)
    return chainKind && chainKind !== 'mainnet' ? none : { explorerTx: network.explorerTx, explorerAddress: network.explorerAddress };
  if (configured.includes('{tx}')) return { explorerTx: configured, explorerAddress: configured.includes('{address}') ? configured : '' };
  // The mainnet pattern's path (and fragment) after its origin, on the configured base: /tx/{tx}, /#/transaction/{tx}.
  const pathOf = (pattern: string) => pattern.replace(/^https?:\/\/[^/]+/, '');
  return { explorerTx: `${configured}${pathOf(network.explorerTx)}`, explorerAddress: `${configured}${pathOf(network.explorerAddress)}` };
}
