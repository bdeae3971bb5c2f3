import { Inject, Injectable } from '@nestjs/common';
import type { MarketStatusDto, WalletTokenDto } from '@coinpurse/contract';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { CoinsRepository } from './coins.repository';
import { toMarketCoin } from './market-cache.service';
import { MarketRefreshService } from './market-refresh.service';
import { SupportedTokensRepository } from './supported-tokens.repository';
import { depositNote, findNetwork, tokenNetworkName } from '../../common/networks';
import { TokenNetworksRepository } from '../networks/token-networks.repository';
import { CustomerDepositAddresses } from './customer-deposit-addresses';

@Injectable()
export class MarketService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly coins: CoinsRepository,
    private readonly tokens: SupportedTokensRepository,
    private readonly refresher: MarketRefreshService,
    private readonly networks: TokenNetworksRepository,
    private readonly depositAddresses: CustomerDepositAddresses,
  ) {}

  /**
   * Supported tokens (market and custom), by market cap: the market coin fields plus the deposit address (the first
   * network's) and every network with its own deposit address. On a network connected to a node (CHAIN_<NETWORK>_*)
   * the address is the customer's own, allocated the first time (see DepositAddressesService).
   */
  async walletTokens(userId?: string): Promise<WalletTokenDto[]> {
    const [rows, networks] = await Promise.all([this.tokens.listWithCoins(), this.networks.listLive()]);
    const confirmationsOf = (n: (typeof networks)[number]) => this.depositAddresses.confirmationsFor(n.network, n.coinId, n.contractAddress);
    const watched = userId ? networks.filter((n) => confirmationsOf(n) !== undefined) : [];
    const own = watched.length
      ? await this.depositAddresses.addressesFor(
          userId!,
          watched.map((n) => n.network),
        )
      : new Map<string, string>();
    // Memo networks (xrp, stellar): one shared address, the customer's own tag or memo on it (once deposits are set up).
    const withMemo = userId ? networks.filter((n) => n.address && findNetwork(n.network)?.memo) : [];
    const memos = withMemo.length
      ? await this.depositAddresses.memosFor(
          userId!,
          withMemo.map((n) => n.network),
        )
      : new Map<string, string>();
    const byToken = new Map<string, WalletTokenDto['networks']>();
    for (const n of networks) {
      const name = tokenNetworkName(n.network, n.coinId) ?? n.network;
      const required = own.has(n.network) ? confirmationsOf(n) : undefined;
      const address = required !== undefined ? own.get(n.network)! : n.address;
      const memo = address ? memos.get(n.network) : undefined;
      byToken.set(n.tokenId, [
        ...(byToken.get(n.tokenId) ?? []),
        // The note follows the final address: the customer's own on a watched network means deposits are set up.
        {
          network: n.network,
          name,
          address,
          depositNote: depositNote(name, address),
          ...(required !== undefined ? { requiredConfirmations: required } : {}),
          ...(memo !== undefined ? { memo, memoLabel: findNetwork(n.network)!.memo!.label } : {}),
        },
      ]);
    }
    return rows.map((row) => {
      const tokenNetworks = byToken.get(row.id) ?? [];
      // The default (first) network's address: the customer's own there when that network is watched.
      const address = tokenNetworks[0]?.requiredConfirmations !== undefined ? tokenNetworks[0].address : row.address;
      return {
        ...toMarketCoin({ ...row.coin, source: row.coin.manualPrice ? 'manual' : 'live' }),
        address,
        networks: tokenNetworks,
        depositNote: depositNote(tokenNetworks[0]?.name ?? row.coin.name, address),
      };
    });
  }

  /** Live or snapshot, and as of when (beyond the spec). */
  async status(): Promise<MarketStatusDto> {
    const [summary, state] = await Promise.all([this.coins.marketSummary(), this.refresher.state()]);
    const live = summary.find((entry) => entry.source === 'live' && entry.count > 0);
    const snapshot = summary.find((entry) => entry.source === 'snapshot');
    const current = live ?? snapshot;
    const asOf = current?.newest ?? null;
    return {
      source: live ? 'live' : 'snapshot',
      asOf: asOf?.toISOString() ?? null,
      stale: !asOf || Date.now() - asOf.getTime() > this.config.priceMaxAgeSeconds * 1000,
      staleRefused: this.config.nodeEnv === 'production',
      coins: current?.count ?? 0,
      lastSuccessAt: state.lastSuccessAt ?? null,
      lastAttemptAt: state.lastAttemptAt ?? null,
      lastError: state.lastError ?? null,
      backoffUntil: state.backoffUntil && Date.parse(state.backoffUntil) > Date.now() ? state.backoffUntil : null,
      refreshEnabled: this.config.marketRefreshEnabled,
      refreshSeconds: this.config.marketRefreshSeconds,
    };
  }
}
