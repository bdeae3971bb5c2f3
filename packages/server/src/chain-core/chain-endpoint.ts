import type { ChainNodeSettings } from '../config/chain-settings';
import { type ChainNetwork, nativeDecimals } from '../config/chain-params';

/**
 * A network as the chain core works with it (the API's payouts and the signer alike): its node connection settings and
 * its own coin — the coin ids it may be listed as, and the decimals of its base unit.
 */
export interface ChainEndpoint extends ChainNodeSettings {
  /** The coin ids the network's own coin may be listed as (a native payment credits the live one). */
  nativeCoins: string[];
  /** Decimals of the chain's base unit for its own coin: satoshis (8) on the UTXO chains, wei (18) on the EVM ones. */
  nativeDecimals: number;
}

/** The native coin of each connectable network (CoinGecko coin ids). */
const NATIVE_COINS: Record<ChainNetwork, string[]> = {
  bitcoin: ['bitcoin'],
  litecoin: ['litecoin'],
  dogecoin: ['dogecoin'],
  'bitcoin-cash': ['bitcoin-cash'],
  ethereum: ['ethereum'],
  bsc: ['binancecoin'],
  polygon: ['polygon-ecosystem-token', 'matic-network'],
  avalanche: ['avalanche-2'],
  // Arbitrum's gas coin is ETH; ARB (coin id "arbitrum") is an ERC-20 there.
  arbitrum: ['ethereum'],
};

/** A process's settings of a network (the API's connection, the signer's network) with its own coin. */
export function chainEndpoint<T extends ChainNodeSettings>(connection: T): T & ChainEndpoint {
  return { ...connection, nativeCoins: NATIVE_COINS[connection.network], nativeDecimals: nativeDecimals(connection.network) };
}
