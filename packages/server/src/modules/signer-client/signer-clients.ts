import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { ChainConnections, type ConnectedChain } from '../chain/chain-connections';
import { SignerClient } from './signer-client';

/** The signer process of each network with `CHAIN_<NETWORK>_SIGNER_URL` (one client each, shared by payouts, cold side, sweeps, reserves). */
@Injectable()
export class SignerClients {
  private readonly byNetwork = new Map<string, SignerClient>();

  constructor(chains: ChainConnections, @Inject(APP_CONFIG) config: AppConfig) {
    for (const chain of chains.list()) {
      if (chain.signerUrl && config.signerToken) {
        this.byNetwork.set(chain.network, new SignerClient(chain as ConnectedChain & { signerUrl: string }, config.signerToken));
      }
    }
  }

  /** The network's signer (undefined: its withdrawals are settled by hand). */
  get(network: string): SignerClient | undefined {
    return this.byNetwork.get(network);
  }

  networks(): string[] {
    return [...this.byNetwork.keys()];
  }
}
