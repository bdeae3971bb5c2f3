import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../config/config';
import type { ChainConnection } from '../../config/chain-settings';
import { APP_CONFIG } from '../../config/config.module';
import { type AccountKey, parseAccountKey } from './derivation';
import { type ChainEndpoint, chainEndpoint } from '../../chain-core/chain-endpoint';
import { EvmNode } from '../../chain-core/evm-node';
import { type ChainNode, UtxoNode } from '../../chain-core/utxo-node';

/** A connected network: its configuration and own coin (ChainEndpoint), its parsed account key and its node. */
export interface ConnectedChain extends ChainEndpoint, ChainConnection {
  account: AccountKey;
  node: ChainNode;
  /** Derivation indexes are counted per scope: EVM networks sharing one key share one (one address serves all). */
  counterScope: string;
}

/** A network's connection with its parsed account key and node client. */
export function connectChain(connection: ChainConnection): ConnectedChain {
  const account = parseAccountKey(connection.network, connection.chain, connection.xpub);
  const rpc = { rpcUrl: connection.rpcUrl, rpcUrlForLogs: connection.rpcUrlForLogs };
  const node = connection.family === 'evm' ? new EvmNode(rpc) : new UtxoNode(rpc);
  return {
    ...chainEndpoint(connection),
    account,
    node,
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
