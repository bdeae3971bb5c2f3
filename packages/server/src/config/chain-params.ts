/** Which chain a node runs: for the EVM family `regtest` means a local development chain such as anvil. */
export const CHAIN_KINDS = ['mainnet', 'testnet', 'regtest'] as const;
export type ChainKind = (typeof CHAIN_KINDS)[number];

/** The networks a node can be connected to: the Bitcoin Core–compatible UTXO family and the EVM family. */
export const UTXO_NETWORKS = ['bitcoin', 'litecoin', 'dogecoin', 'bitcoin-cash'] as const;
export const EVM_NETWORKS = ['ethereum', 'bsc', 'polygon', 'arbitrum', 'avalanche'] as const;
export type UtxoNetwork = (typeof UTXO_NETWORKS)[number];
export type EvmNetwork = (typeof EVM_NETWORKS)[number];
export type ChainNetwork = UtxoNetwork | EvmNetwork;
export const CHAIN_NETWORKS: readonly ChainNetwork[] = [...UTXO_NETWORKS, ...EVM_NETWORKS];

export function isChainNetwork(id: string): id is ChainNetwork {
  return (CHAIN_NETWORKS as readonly string[]).includes(id);
}

export function isEvmNetwork(id: string): id is EvmNetwork {
  return (EVM_NETWORKS as readonly string[]).includes(id);
}

/** Decimals of a network's own coin in its base unit: satoshis (8) on the UTXO chains, wei (18) on the EVM ones. */
export function nativeDecimals(network: ChainNetwork): number {
  return isEvmNetwork(network) ? 18 : 8;
}

/**
 * Confirmations before a deposit is credited, after what large exchanges publish (Kraken's deposit confirmations page:
 * bitcoin 4, litecoin 12, bitcoin-cash 15, dogecoin 40; Ethereum and most EVM chains 20–40 blocks) — chains with
 * short blocks and a history of deep reorgs (Polygon) at the top of that range.
 */
export const DEFAULT_CONFIRMATIONS: Record<ChainNetwork, number> = {
  bitcoin: 4,
  litecoin: 12,
  'bitcoin-cash': 15,
  dogecoin: 40,
  ethereum: 32,
  bsc: 20,
  polygon: 40,
  arbitrum: 20,
  avalanche: 20,
};

/** How often a watcher asks its node for new blocks: about a quarter to half of the chain's block time. */
export const DEFAULT_POLL_SECONDS: Record<ChainNetwork, number> = {
  bitcoin: 60,
  litecoin: 30,
  'bitcoin-cash': 60,
  dogecoin: 15,
  ethereum: 6,
  bsc: 3,
  polygon: 2,
  arbitrum: 2,
  avalanche: 2,
};

/**
 * Minutes a payout may wait unmined before its fee is bumped (`CHAIN_<NETWORK>_STUCK_MINUTES`): about six expected
 * blocks, never under a minute (a replacement needs time to reach miners before the next one).
 */
export const DEFAULT_STUCK_MINUTES: Record<ChainNetwork, number> = {
  bitcoin: 60,
  litecoin: 15,
  'bitcoin-cash': 60,
  dogecoin: 6,
  ethereum: 2,
  bsc: 1,
  polygon: 1,
  arbitrum: 1,
  avalanche: 1,
};

/**
 * The most one payout may pay as network fee, in the network's own coin (`CHAIN_<NETWORK>_MAX_FEE`): the first
 * signature waits while the fee would be higher, and a bump never goes above it. Roughly 5–20 USD at 2025 prices.
 */
export const DEFAULT_MAX_FEE: Record<ChainNetwork, string> = {
  bitcoin: '0.0002',
  litecoin: '0.05',
  'bitcoin-cash': '0.01',
  dogecoin: '50',
  ethereum: '0.005',
  bsc: '0.01',
  polygon: '20',
  arbitrum: '0.002',
  avalanche: '0.2',
};

/**
 * A deposit orphaned before credit and not mined again is dropped once the chain has moved this many times its
 * confirmations past the fork (CHAIN_<NETWORK>_DROP_AFTER_BLOCKS overrides): a reorganised payment is normally mined
 * again within a few blocks, so by then it was double-spent or fell out of the mempools.
 */
export const DROP_AFTER_CONFIRMATIONS = 6;

/**
 * A deposit seen waiting in the mempool and not mined within this many blocks of the height where it was first seen is
 * dropped (CHAIN_<NETWORK>_UNMINED_DROP_AFTER_BLOCKS overrides): about three days of each network's blocks (Bitcoin
 * Core itself forgets an unmined transaction after two weeks). One replaced or conflicted is dropped at once; mined
 * after all, it is credited.
 */
export const DEFAULT_UNMINED_DROP_AFTER_BLOCKS: Record<ChainNetwork, number> = {
  bitcoin: 432,
  litecoin: 1728,
  dogecoin: 4320,
  'bitcoin-cash': 432,
  ethereum: 21_600,
  bsc: 86_400,
  polygon: 129_600,
  arbitrum: 1_000_000,
  avalanche: 129_600,
};

/** Address encodings of a UTXO chain: bech32 prefix (none: no SegWit), base58 version bytes, CashAddr prefix. */
export interface UtxoAddressParams {
  bech32: string | null;
  pubKeyHash: number;
  scriptHash: number[];
  cashAddrPrefix: string | null;
}

const UTXO_ADDRESS_PARAMS: Record<UtxoNetwork, Record<ChainKind, UtxoAddressParams>> = {
  bitcoin: {
    mainnet: { bech32: 'bc', pubKeyHash: 0x00, scriptHash: [0x05], cashAddrPrefix: null },
    testnet: { bech32: 'tb', pubKeyHash: 0x6f, scriptHash: [0xc4], cashAddrPrefix: null },
    regtest: { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: [0xc4], cashAddrPrefix: null },
  },
  // Litecoin Core chainparams: P2SH moved from 5 to 50 (M…) on mainnet and from 196 to 58 (Q…) on the test chains.
  litecoin: {
    mainnet: { bech32: 'ltc', pubKeyHash: 0x30, scriptHash: [0x32, 0x05], cashAddrPrefix: null },
    testnet: { bech32: 'tltc', pubKeyHash: 0x6f, scriptHash: [0x3a, 0xc4], cashAddrPrefix: null },
    regtest: { bech32: 'rltc', pubKeyHash: 0x6f, scriptHash: [0x3a, 0xc4], cashAddrPrefix: null },
  },
  dogecoin: {
    mainnet: { bech32: null, pubKeyHash: 0x1e, scriptHash: [0x16], cashAddrPrefix: null },
    testnet: { bech32: null, pubKeyHash: 0x71, scriptHash: [0xc4], cashAddrPrefix: null },
    regtest: { bech32: null, pubKeyHash: 0x6f, scriptHash: [0xc4], cashAddrPrefix: null },
  },
  'bitcoin-cash': {
    mainnet: { bech32: null, pubKeyHash: 0x00, scriptHash: [0x05], cashAddrPrefix: 'bitcoincash' },
    testnet: { bech32: null, pubKeyHash: 0x6f, scriptHash: [0xc4], cashAddrPrefix: 'bchtest' },
    regtest: { bech32: null, pubKeyHash: 0x6f, scriptHash: [0xc4], cashAddrPrefix: 'bchreg' },
  },
};

export function utxoAddressParams(network: UtxoNetwork, chain: ChainKind): UtxoAddressParams {
  return UTXO_ADDRESS_PARAMS[network][chain];
}

/**
 * Public extended-key version bytes accepted per network and chain: the standard `xpub` (`tpub` on test chains), the
 * SLIP-132 forms, and the coin's own prefixes (Litecoin `Ltub`/`Mtub`, its test chains' `ttub`; Dogecoin `dgub`).
 */
const MAINNET_BIP32: Record<string, number> = { xpub: 0x0488b21e, ypub: 0x049d7cb2, zpub: 0x04b24746, Ypub: 0x0295b43f, Zpub: 0x02aa7ed3 };
const TESTNET_BIP32: Record<string, number> = { tpub: 0x043587cf, upub: 0x044a5262, vpub: 0x045f1cf6, Upub: 0x024289ef, Vpub: 0x02575483 };
const COIN_BIP32: Partial<Record<ChainNetwork, { mainnet: Record<string, number>; test: Record<string, number> }>> = {
  litecoin: { mainnet: { Ltub: 0x019da462, Mtub: 0x01b26ef6 }, test: { ttub: 0x0436f6e1 } },
  dogecoin: { mainnet: { dgub: 0x02facafd }, test: {} },
};

/** The accepted public key prefixes (name → version bytes) of a network on a chain. */
export function acceptedKeyVersions(network: ChainNetwork, chain: ChainKind): Record<string, number> {
  // An EVM address is the same on every chain: either standard form is accepted.
  if (isEvmNetwork(network)) return { ...MAINNET_BIP32, ...TESTNET_BIP32 };
  const coin = COIN_BIP32[network];
  return chain === 'mainnet' ? { ...MAINNET_BIP32, ...coin?.mainnet } : { ...TESTNET_BIP32, ...coin?.test };
}

/** Every public version any network accepts (to tell "wrong chain" from "not an extended public key"). */
export function allKnownKeyVersions(): Record<string, number> {
  return {
    ...MAINNET_BIP32,
    ...TESTNET_BIP32,
    ...Object.values(COIN_BIP32).reduce<Record<string, number>>((all, coin) => ({ ...all, ...coin.mainnet, ...coin.test }), {}),
  };
}
