import { Inject, Injectable } from '@nestjs/common';
import type { DatabaseHandle } from '../../db/database';
import { DATABASE_HANDLE } from '../../db/database.module';
import { NotifiedCache } from '../../db/notified-cache';
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
 * looks them up; they change about once a minute, when prices are refreshed). Dropped by any change to those tables
 * or the fee schedule (NotifiedCache: their triggers NOTIFY REFERENCE_CHANNEL on commit). Reads inside a transaction do not come here (the repositories read the database there), and money statements
 * re-check token liveness and price in SQL, so a copy a few milliseconds old cannot move money at a wrong price.
 */
@Injectable()
export class ReferenceDataCache extends NotifiedCache<ReferenceData> {
  constructor(
    @Inject(DATABASE_HANDLE) handle: DatabaseHandle,
    private readonly repository: ReferenceDataRepository,
  ) {
    super(handle, REFERENCE_CHANNEL, 'reference data', REFERENCE_CACHE_MS);
  }

  protected async read(): Promise<ReferenceData> {
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
    return data;
  }
}
