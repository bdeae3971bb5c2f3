import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../config/config';
import type { ChainConnection } from '../../config/chain-settings';
import { APP_CONFIG } from '../../config/config.module';
import type { ChainNetwork } from '../../config/chain-params';
import { type AccountKey, parseAccountKey } from './derivation';
import { EvmNode } from '../../chain-core/evm-node';
import { type ChainNode, UtxoNode } from '../../chain-core/utxo-node';

/** A connected network: its configuration, its parsed account key and its node. */
export interface ConnectedChain extends ChainConnection {
  account: AccountKey;
  node: ChainNode;
  /** The coin ids the network's own coin may be listed as (a native payment credits the live one). */
  nativeCoins: string[];
  /** Decimals of the chain's base unit for its own coin: satoshis (8) on the UTXO chains, wei (18) on the EVM ones. */
  nativeDecimals: number;
  /** Derivation indexes are counted per scope: EVM networks sharing one key share one (one address serves all). */
  counterScope: string;
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

/** A network's connection with its parsed account key and node client (the app's ChainConnections; the signer process). */
export function connectChain(connection: ChainConnection): ConnectedChain {
  const account = parseAccountKey(connection.network, connection.chain, connection.xpub);
  const rpc = { rpcUrl: connection.rpcUrl, rpcUrlForLogs: connection.rpcUrlForLogs };
  const node = connection.family === 'evm' ? new EvmNode(rpc) : new UtxoNode(rpc);
  return {
    ...connection,
    account,
    node,
    nativeCoins: NATIVE_COINS[connection.network],
    nativeDecimals: connection.family === 'evm' ? 18 : 8,
    counterScope: connection.family === 'evm' ? `evm:${account.fingerprint}` : `utxo:${connection.network}:${account.fingerprint}`,
  };
}

/** The networks connected to a node (CHAIN_<NETWORK>_*), parsed once at boot. */
@Injectable()
export class ChainConnections {
  private readonly byNetwork = new Map<string, ConnectedChain>();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    for (const connection of config.chains) this.byNetwork.set(connection.network, connectChain(connection));
  }

  get(network: string): ConnectedChain | undefined {
    return this.byNetwork.get(network);
  }

  /** An ERC-20 contract's `decimals()` on a connected EVM network, read from its node. */
  async tokenDecimals(network: string, contract: string): Promise<number> {
    const chain = this.byNetwork.get(network);
    if (!chain || !(chain.node instanceof EvmNode)) throw new Error(`${network} is not an EVM network connected to a node`);
    return chain.node.tokenDecimals(contract);
  }

  list(): ConnectedChain[] {
    return [...this.byNetwork.values()];
  }

  /** Whether deposits of `coinId` on `network` are watched on chain (so the customer gets an address of their own). */
  watches(network: string, coinId: string, contractAddress: string | null = null): boolean {
    const chain = this.byNetwork.get(network);
    if (!chain) return false;
    if (chain.family === 'evm' && contractAddress !== null) return true;
    return chain.nativeCoins.includes(coinId);
  }
}
