import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { ReserveNetworkDto, ReservesDto, ReserveTokenDto } from '@coinpurse/contract';
import { Gauge } from 'prom-client';
import { validateAddress } from '../../common/address-validation';
import { tokenNetworkName } from '../../common/networks';
import { isChainNetwork } from '../../config/chain-params';
import { chainEnvPrefix } from '../../config/chain-settings';
import { ConfigError } from '../../config/settings';
import { baseToDecimal } from '../../chain-core/amounts';
import { ChainConnections, type ConnectedChain } from '../chain/chain-connections';
import { LedgerService } from '../ledger/ledger.service';
import { plain, toMoney } from '../ledger/money';
import { TokenNetworksRepository } from '../networks/token-networks.repository';
import { MetricsService } from '../observability/metrics.service';
import { ScheduledJob } from '../../jobs/scheduled-job';
import { SignerClients } from '../signer-client/signer-clients';
import { type HeldToken, type NetworkHoldings, readHoldings, type ReserveNote } from './reserves-holdings';
import { ReservesAlertService } from './reserves-alert.service';
import { ReservesRepository } from './reserves.repository';

/** How often the reserves are checked in the background (figures for the metric, and the alert). */
export const RESERVES_CHECK_MS = 5 * 60_000;
/** The screen shows figures at most this old; older, it reads the nodes and the ledger again. */
const SCREEN_MAX_AGE_MS = 60_000;

/** One connected network read (or why not). */
type NetworkRead = { chain: ConnectedChain; holdings: NetworkHoldings; depositAddresses: number } | { chain: ConnectedChain; error: string };

/**
 * The Reserves screen and its metric: per token, the coins the platform holds on chain — per connected network the hot
 * wallet, the customers' deposit addresses and the watch-only cold addresses (`CHAIN_<NETWORK>_COLD_ADDRESSES`) — next
 * to what it owes customers (ledger: balances and pending withdrawals), with the difference. Networks without a node
 * show liabilities only. Read-only: nothing is signed, sent or posted. A check runs every RESERVES_CHECK_MS and when the
 * screen asks for figures older than a minute; each check may open or close a shortfall episode (ReservesAlertService).
 */
@Injectable()
export class ReservesService implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Reserves');
  private latest: { figures: ReservesDto; at: number } | undefined;
  private running: Promise<ReservesDto> | undefined;
  /** The background checks: at boot, then every RESERVES_CHECK_MS (figures for the metric, and the alert). */
  private readonly schedule = new ScheduledJob<ReservesDto>({
    name: 'Reserves check',
    logger: this.logger,
    everyMs: RESERVES_CHECK_MS,
    firstRunMs: 0,
    work: () => this.check(),
  });
  /** Decimals read from contracts whose row has none stored. */
  private readonly decimalsRead = new Map<string, number>();
  /** The last read failure per network (logged when it changes, not at every check). */
  private readonly lastErrors = new Map<string, string>();

  constructor(
    private readonly chains: ChainConnections,
    private readonly networks: TokenNetworksRepository,
    private readonly ledger: LedgerService,
    private readonly repository: ReservesRepository,
    private readonly alerts: ReservesAlertService,
    private readonly signers: SignerClients,
    private readonly metrics: MetricsService,
  ) {}

  onModuleInit(): void {
    // At boot: each cold address must be an address of its network on its chain (the configuration alone cannot tell;
    // thrown here rather than in the constructor, where Nest would abort the process without the message).
    const problems = this.chains.list().flatMap((chain) =>
      (chain.coldAddresses ?? []).flatMap((address) => {
        const problem = validateAddress(chain.network, address);
        return problem ? [`${chainEnvPrefix(chain.network)}COLD_ADDRESSES: ${address}: ${problem}`] : [];
      }),
    );
    if (problems.length) throw new ConfigError(problems);
    if (!this.chains.list().length) return;
    const registers = [this.metrics.registry];
    const figures = () => this.latest?.figures.tokens ?? [];
    // Scrapes read the last check's figures: they never wait for the nodes.
    new Gauge({
      name: 'reserves_holdings',
      help: 'Coins held on chain per network and token (hot wallet, deposit addresses, cold addresses), in token units, as of the last reserves check',
      labelNames: ['network', 'token'] as const,
      registers,
      collect() {
        this.reset();
        for (const token of figures())
          for (const n of token.networks) if (n.total !== null) this.set({ network: n.network, token: token.token }, Number(n.total));
      },
    });
    new Gauge({
      name: 'reserves_liabilities',
      help: 'What the platform owes customers per token (balances and pending withdrawals), in token units, as of the last reserves check',
      labelNames: ['token'] as const,
      registers,
      collect() {
        this.reset();
        for (const token of figures()) this.set({ token: token.token }, Number(token.liabilities));
      },
    });
    new Gauge({
      name: 'reserves_shortfall',
      help: 'Liabilities minus holdings when holdings are below (0 otherwise), per token whose every network was read, in token units',
      labelNames: ['token'] as const,
      registers,
      collect() {
        this.reset();
        for (const token of figures()) {
          if (token.complete) this.set({ token: token.token }, token.shortfall ? -Number(token.difference) : 0);
        }
      },
    });
  }

  onApplicationBootstrap(): void {
    if (!this.chains.list().length) return;
    this.logger.log(`Checking reserves on ${this.chains.list().length} connected networks every ${RESERVES_CHECK_MS / 60_000} min`);
    this.schedule.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.schedule.close();
    await this.running?.catch(() => undefined);
  }

  /** Stops the background checks (tests drive `check` themselves; shutdown). */
  stop(): void {
    this.schedule.stop();
  }

  /** The figures for the screen: the last check's when under a minute old, else a fresh check. */
  async reserves(): Promise<ReservesDto> {
    if (this.latest && Date.now() - this.latest.at <= SCREEN_MAX_AGE_MS) return this.latest.figures;
    const running = await this.running?.catch(() => undefined);
    return running ?? this.check();
  }

  /** Reads the nodes and the ledger now (after any check under way), keeps the figures, and reviews the alert. */
  check(): Promise<ReservesDto> {
    const run = (this.running ?? Promise.resolve(undefined)).catch(() => undefined).then(() => this.checkNow());
    this.running = run;
    const clear = () => {
      if (this.running === run) this.running = undefined;
    };
    run.then(clear, clear);
    return run;
  }

  private async checkNow(): Promise<ReservesDto> {
    const figures = await this.read();
    this.latest = { figures, at: Date.now() };
    try {
      const complete = figures.tokens.filter((token) => token.complete && token.holdings !== null);
      await this.repository.recordHoldings(
        complete.map((token) => ({ token: token.token, holdings: token.holdings! })),
        new Date(figures.asOf),
      );
    } catch (error) {
      this.logger.warn(`The holdings for the house position could not be kept: ${String((error as Error).message).slice(0, 500)}`);
    }
    try {
      await this.alerts.review(figures.tokens, figures.asOf);
    } catch (error) {
      this.logger.warn(`The reserves alert could not be reviewed: ${String((error as Error).message).slice(0, 500)}`);
    }
    return figures;
  }

  private async read(): Promise<ReservesDto> {
    const asOf = new Date().toISOString();
    const [owed, live] = await Promise.all([this.ledger.liabilities(), this.networks.listLive()]);
    // Each token's networks: its rows (an ERC-20 where the row has a contract), and the networks it is the coin of.
    const networksOf = new Map<string, Map<string, { contract: string | null; decimals: number | null }>>();
    const add = (token: string, network: string, contract: string | null, decimals: number | null) => {
      if (!networksOf.has(token)) networksOf.set(token, new Map());
      if (!networksOf.get(token)!.has(network)) networksOf.get(token)!.set(network, { contract, decimals });
    };
    for (const row of live) add(row.coinId, row.network, row.contractAddress, row.contractDecimals);
    const liveCoins = new Set(live.map((row) => row.coinId));
    const owedByToken = new Map(owed.map((row) => [row.token, row]));
    for (const chain of this.chains.list()) add(this.nativeToken(chain, liveCoins, owedByToken), chain.network, null, null);

    const liabilities = (token: string) => {
      const row = owedByToken.get(token);
      return { customer: toMoney(row?.customer ?? 0), pending: toMoney(row?.pending ?? 0) };
    };
    const tokens = [...new Set([...owedByToken.keys(), ...networksOf.keys()])]
      .filter((token) => {
        const { customer, pending } = liabilities(token);
        return !customer.add(pending).isZero() || [...(networksOf.get(token)?.keys() ?? [])].some((network) => this.chains.get(network));
      })
      .sort();

    const reads = new Map<string, NetworkRead>();
    await Promise.all(
      this.chains.list().map(async (chain) => {
        reads.set(chain.network, await this.readNetwork(chain, this.heldTokens(chain, tokens, networksOf)));
      }),
    );
    const names = await this.repository.coinNames(tokens);
    const rows = tokens.map((token): ReserveTokenDto => {
      const networks = [...(networksOf.get(token)?.entries() ?? [])].map(([network, { contract }]) =>
        this.networkRow(token, network, contract, reads.get(network)),
      );
      const read = networks.filter((n) => n.state === 'read');
      const holdings = read.length ? read.reduce((sum, n) => sum.add(n.total!), toMoney(0)) : null;
      const { customer, pending } = liabilities(token);
      const owedTotal = customer.add(pending);
      const complete = networks.length > 0 && read.length === networks.length;
      const difference = holdings ? holdings.sub(owedTotal) : null;
      return {
        token,
        symbol: names.get(token)?.symbol ?? token,
        name: names.get(token)?.name ?? token,
        networks,
        holdings: holdings ? plain(holdings) : null,
        complete,
        customerBalance: plain(customer),
        pendingWithdrawals: plain(pending),
        liabilities: plain(owedTotal),
        difference: difference ? plain(difference) : null,
        shortfall: complete && difference !== null && difference.isNegative() && !difference.isZero(),
      };
    });
    return { tokens: rows, asOf };
  }

  /** The ledger token of a network's own coin: its listed coin id (Polygon has two), else the one owed, else the first. */
  private nativeToken(chain: ConnectedChain, liveCoins: Set<string>, owed: Map<string, unknown>): string {
    return chain.nativeCoins.find((coin) => liveCoins.has(coin)) ?? chain.nativeCoins.find((coin) => owed.has(coin)) ?? chain.nativeCoins[0];
  }

  /** The tokens a connected network's node can tell: its own coin, and on EVM networks the ERC-20s with a contract. */
  private heldTokens(
    chain: ConnectedChain,
    tokens: string[],
    networksOf: Map<string, Map<string, { contract: string | null; decimals: number | null }>>,
  ): Array<{ token: string; contract: string | null; decimals: number | null }> {
    return tokens.flatMap((token) => {
      const row = networksOf.get(token)?.get(chain.network);
      if (!row || !readable(chain, token, row.contract)) return [];
      return [{ token, contract: chain.family === 'evm' ? row.contract : null, decimals: row.decimals }];
    });
  }

  private async readNetwork(chain: ConnectedChain, wanted: Array<{ token: string; contract: string | null; decimals: number | null }>): Promise<NetworkRead> {
    try {
      const tokens: HeldToken[] = [];
      for (const { token, contract, decimals } of wanted) {
        tokens.push({ token, contract, decimals: contract ? (decimals ?? (await this.contractDecimals(chain, contract))) : chain.nativeDecimals });
      }
      const deposits = await this.repository.depositAddresses(chain.network);
      // The hot address (EVM) or node wallet (UTXO), as the signer process names it.
      const signer = this.signers.get(chain.network);
      const hot = signer ? (await signer.identity()).source : null;
      const holdings = await readHoldings(chain, tokens, deposits, hot);
      if (this.lastErrors.delete(chain.network)) this.logger.log(`${chain.network}: reserves read again`);
      return { chain, holdings, depositAddresses: deposits.length };
    } catch (error) {
      const message = String((error as Error).message ?? error).slice(0, 500);
      if (this.lastErrors.get(chain.network) !== message) this.logger.warn(`${chain.network}: reserves not read: ${message}`);
      this.lastErrors.set(chain.network, message);
      return { chain, error: message };
    }
  }

  private async contractDecimals(chain: ConnectedChain, contract: string): Promise<number> {
    const key = `${chain.network}:${contract.toLowerCase()}`;
    let decimals = this.decimalsRead.get(key);
    if (decimals === undefined) {
      decimals = await this.chains.tokenDecimals(chain.network, contract);
      this.decimalsRead.set(key, decimals);
    }
    return decimals;
  }

  private networkRow(token: string, network: string, contract: string | null, read: NetworkRead | undefined): ReserveNetworkDto {
    const empty = { hotWallet: null, hot: null, deposits: null, depositsInHot: null, depositAddresses: 0, cold: null, coldAddresses: [], total: null };
    const name = tokenNetworkName(network, token) ?? network;
    const row = (state: ReserveNetworkDto['state'], note: ReserveNote) => ({ network, name, state, ...noteFields(note), ...empty });
    if (!read) {
      return isChainNetwork(network)
        ? row('not_connected', {
            text: 'Not connected to a node: holdings are not read.',
            guide: 'operate/chain-nodes.md',
            setting: `${chainEnvPrefix(network)}RPC_URL`,
          })
        : row('not_connected', { text: 'Coinpurse cannot connect this network to a node: holdings are not read.', guide: 'operate/chain-nodes.md' });
    }
    if ('error' in read) return row('unreachable', { text: read.error, guide: 'operate/chain-nodes.md' });
    const held = read.holdings.byToken.get(token);
    if (!held) {
      return read.chain.family === 'evm' && !contract
        ? row('not_readable', { text: 'No token contract is set for this network (Tokens, Edit): holdings are not read.' })
        : row('not_readable', { text: "Only the network's own coin is read from this node." });
    }
    const units = (base: bigint) => baseToDecimal(base, held.decimals);
    const cold = held.cold.reduce((sum, c) => sum + c.amount, 0n);
    const total = (held.hot ?? 0n) + held.deposits - held.depositsInHot + cold;
    return {
      network,
      name,
      state: 'read',
      ...noteFields(read.holdings.note),
      hotWallet: read.holdings.hotWallet,
      hot: held.hot === null ? null : units(held.hot),
      deposits: units(held.deposits),
      depositsInHot: units(held.depositsInHot),
      depositAddresses: read.depositAddresses,
      cold: units(cold),
      coldAddresses: held.cold.map((c) => ({ address: c.address, balance: units(c.amount) })),
      total: units(total),
    };
  }
}

/** Whether a connected network's node can tell a token: its own coin, or (EVM) an ERC-20 with a contract. */
function readable(chain: ConnectedChain, token: string, contract: string | null): boolean {
  if (chain.family === 'evm' && contract) return true;
  return !contract && chain.nativeCoins.includes(token);
}

/** A note as the answer carries it: its words, the guide's page and the setting (null when none). */
function noteFields(note: ReserveNote | null): Pick<ReserveNetworkDto, 'note' | 'guide' | 'setting'> {
  return { note: note?.text ?? null, guide: note?.guide ?? null, setting: note?.setting ?? null };
}
