import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { DatabaseHandle } from '../../db/database';
import { DATABASE_HANDLE } from '../../db/database.module';
import { ReferenceDataRepository } from './reference-data.repository';
import type { CoinPricing, FeeScheduleEntry, LiveToken, TokenNetworkWithToken } from './reference-data.types';

/** The channel on which every change to coins, supported_tokens, token_networks or fee_schedule is announced (by table triggers). */
export const REFERENCE_CHANNEL = 'coinpurse_reference';
/**
 * How long a loaded copy is served at most: the bound on staleness should a notification be missed. Changes normally
 * arrive by NOTIFY within milliseconds of their commit.
 */
export const REFERENCE_CACHE_MS = 30_000;

export interface ReferenceData {
  /** Live supported tokens with their coin's market data, by market cap rank then id. */
  tokens: LiveToken[];
  tokenByCoin: Map<string, LiveToken>;
  /** The pricing columns of every coin (price, its time, source, manual or market). */
  pricing: Map<string, CoinPricing>;
  /** Each live token's network rows, first = default. */
  networksByCoin: Map<string, TokenNetworkWithToken[]>;
  /** The fee schedule's rows by token (`*`: the default row). */
  fees: Map<string, FeeScheduleEntry>;
}

/**
 * Coins' prices, supported tokens and token networks, held in memory for the hot path (every quote, send and swap
 * looks them up; they change about once a minute, when prices are refreshed). Loaded lazily as one copy, dropped by
 * any change: table triggers NOTIFY REFERENCE_CHANNEL when the changing transaction commits, every instance LISTENs
 * (PGlite: in-process); a lost LISTEN connection drops the copy on reconnect, and a copy never outlives `ttlMs`.
 * Reads inside a transaction do not come here (the repositories read the database there), and money statements
 * re-check token liveness and price in SQL, so a copy a few milliseconds old cannot move money at a wrong price.
 */
@Injectable()
export class ReferenceDataCache implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ReferenceData');
  private entry: { data: ReferenceData; expiresAt: number } | undefined;
  private loading: Promise<ReferenceData> | undefined;
  private generation = 0;
  private unlisten: (() => Promise<void>) | undefined;
  /** How long a loaded copy is served at most (tests lengthen it to prove that NOTIFY, not expiry, refreshes it). */
  ttlMs = REFERENCE_CACHE_MS;
  /** How many times the copy was dropped (tests wait on it for another instance's change to arrive). */
  invalidations = 0;

  constructor(
    @Inject(DATABASE_HANDLE) private readonly handle: DatabaseHandle,
    private readonly repository: ReferenceDataRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (typeof this.handle?.listen !== 'function') return;
    this.unlisten = await this.handle.listen(REFERENCE_CHANNEL, () => this.invalidate(), {
      onReconnect: () => {
        // Notifications sent while the connection was down are lost: start over.
        this.logger.log('LISTEN re-established; reference data reloads on next use');
        this.invalidate();
      },
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.unlisten?.().catch(() => undefined);
    this.invalidate();
  }

  /** The current copy, loaded when there is none (concurrent callers share one load). */
  async get(): Promise<ReferenceData> {
    const entry = this.entry;
    if (entry && entry.expiresAt > Date.now()) return entry.data;
    return this.loading ?? this.load();
  }

  /**
   * Drops the copy on this instance now. Changes are announced to every instance by the tables' triggers on commit;
   * a writer calls this after its commit too, so its own next read (before the notification has come back) is fresh.
   */
  invalidate(): void {
    this.generation += 1;
    this.invalidations += 1;
    this.entry = undefined;
    this.loading = undefined;
  }

  private load(): Promise<ReferenceData> {
    const generation = this.generation;
    const loading = (async () => {
      const [tokens, pricing, networks, fees] = await Promise.all([
        this.repository.liveTokens(),
        this.repository.pricing(),
        this.repository.liveNetworks(),
        this.repository.feeSchedule(),
      ]);
      const networksByCoin = new Map<string, TokenNetworkWithToken[]>();
      for (const row of networks) {
        const list = networksByCoin.get(row.coinId);
        if (list) list.push(row);
        else networksByCoin.set(row.coinId, [row]);
      }
      const data: ReferenceData = {
        tokens,
        tokenByCoin: new Map(tokens.map((token) => [token.id, token])),
        pricing: new Map(pricing.map((coin) => [coin.id, coin])),
        networksByCoin,
        fees: new Map(fees.map((row) => [row.token, row])),
      };
      // A change announced while this load ran may not be in it: serve it to the callers waiting, but do not keep it.
      if (generation === this.generation) this.entry = { data, expiresAt: Date.now() + this.ttlMs };
      return data;
    })().finally(() => {
      if (this.loading === loading) this.loading = undefined;
    });
    this.loading = loading;
    return loading;
  }
}
