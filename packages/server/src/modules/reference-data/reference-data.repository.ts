import { Inject, Injectable } from '@nestjs/common';
import { asc, eq, isNull } from 'drizzle-orm';
import { DATABASE, type Database } from '../../db/database';
import { coins, feeSchedule, supportedTokens, tokenNetworks } from '../../db/schema';
import type { CoinPricing, FeeScheduleEntry, LiveToken, TokenNetworkWithToken } from './reference-data.types';

/** The reads that fill the reference-data cache: whole (small) tables, read outside any transaction. */
@Injectable()
export class ReferenceDataRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** Live supported tokens with their coin, by market cap rank then id. */
  async liveTokens(): Promise<LiveToken[]> {
    return this.db
      .select({
        id: coins.id,
        symbol: coins.symbol,
        name: coins.name,
        currentPrice: coins.currentPrice,
        marketCapRank: coins.marketCapRank,
        address: supportedTokens.address,
        kind: supportedTokens.kind,
      })
      .from(supportedTokens)
      .innerJoin(coins, eq(coins.id, supportedTokens.coinId))
      .where(isNull(supportedTokens.deletedAt))
      .orderBy(asc(coins.marketCapRank), asc(coins.id));
  }

  /** The pricing columns of every coin (also coins no longer supported that someone still holds). */
  async pricing(): Promise<CoinPricing[]> {
    return this.db
      .select({
        id: coins.id,
        symbol: coins.symbol,
        name: coins.name,
        currentPrice: coins.currentPrice,
        lastUpdated: coins.lastUpdated,
        source: coins.source,
        manualPrice: coins.manualPrice,
      })
      .from(coins);
  }

  /** The network rows of live tokens, per coin in network order (first = default). */
  async liveNetworks(): Promise<TokenNetworkWithToken[]> {
    const rows = await this.db
      .select({
        id: tokenNetworks.id,
        tokenId: tokenNetworks.tokenId,
        network: tokenNetworks.network,
        address: tokenNetworks.address,
        contractAddress: tokenNetworks.contractAddress,
        contractDecimals: tokenNetworks.contractDecimals,
        createdAt: tokenNetworks.createdAt,
        coinId: supportedTokens.coinId,
        kind: supportedTokens.kind,
      })
      .from(tokenNetworks)
      .innerJoin(supportedTokens, eq(supportedTokens.id, tokenNetworks.tokenId))
      .where(isNull(supportedTokens.deletedAt))
      .orderBy(asc(supportedTokens.coinId), asc(tokenNetworks.createdAt), asc(tokenNetworks.id));
    return rows as TokenNetworkWithToken[];
  }

  /** The fee schedule's rows (what swaps and sends are charged; the money functions check it again). */
  async feeSchedule(): Promise<FeeScheduleEntry[]> {
    return this.db
      .select({
        token: feeSchedule.token,
        swapSpreadBps: feeSchedule.swapSpreadBps,
        swapFeeBps: feeSchedule.swapFeeBps,
        swapFeeMinUsd: feeSchedule.swapFeeMinUsd,
        withdrawalFee: feeSchedule.withdrawalFee,
        withdrawalNetworks: feeSchedule.withdrawalNetworks,
      })
      .from(feeSchedule);
  }
}
