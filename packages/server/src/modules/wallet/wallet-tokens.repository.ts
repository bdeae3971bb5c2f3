import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { coins, supportedTokens } from '../../db/schema';
import { ReferenceDataCache } from '../reference-data/reference-data.cache';
import type { WalletToken } from '../reference-data/reference-data.types';

/** How long after a price change a quote of the price it replaced is still executed (`cp_require_price`). */
export const PRICE_CHANGE_GRACE_MS = 2000;

export type { WalletToken };

/** The columns of a `WalletToken`: the coin's market data and the supported token's deposit address. */
const walletTokenColumns = {
  id: coins.id,
  symbol: coins.symbol,
  name: coins.name,
  currentPrice: coins.currentPrice,
  marketCapRank: coins.marketCapRank,
  address: supportedTokens.address,
};

const toWalletToken = ({ id, symbol, name, currentPrice, marketCapRank, address }: WalletToken): WalletToken => ({
  id,
  symbol,
  name,
  currentPrice,
  marketCapRank,
  address,
});

/**
 * Read-only view of the supported tokens (owned by the tokens module) with their market price. Outside a transaction
 * the answers come from the in-memory reference data (no query); inside one (`executor` a transaction) they are read
 * from the database in that transaction.
 */
@Injectable()
export class WalletTokensRepository {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly referenceData: ReferenceDataCache,
  ) {}

  async listSupported(executor: Executor = this.db): Promise<WalletToken[]> {
    if (executor === this.db) return (await this.referenceData.get()).tokens.map(toWalletToken);
    return this.live(executor).orderBy(asc(coins.marketCapRank), asc(coins.id));
  }

  async findSupported(coinId: string, executor: Executor = this.db): Promise<WalletToken | undefined> {
    return (await this.findSupportedMany([coinId], executor)).get(coinId);
  }

  async findSupportedMany(coinIds: string[], executor: Executor = this.db): Promise<Map<string, WalletToken>> {
    if (!coinIds.length) return new Map();
    if (executor === this.db) {
      // Every money operation looks its tokens up: served from memory.
      const { tokenByCoin } = await this.referenceData.get();
      const out = new Map<string, WalletToken>();
      for (const coinId of coinIds) {
        const token = tokenByCoin.get(coinId);
        if (token) out.set(coinId, toWalletToken(token));
      }
      return out;
    }
    const rows = await this.live(executor, inArray(supportedTokens.coinId, coinIds));
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** Live (not deleted) supported tokens joined with their coin, optionally narrowed by `where`. */
  private live(executor: Executor, where?: SQL) {
    return executor
      .select(walletTokenColumns)
      .from(supportedTokens)
      .innerJoin(coins, eq(coins.id, supportedTokens.coinId))
      .where(and(isNull(supportedTokens.deletedAt), where))
      .$dynamic();
  }

  /** Market data of any coin (also tokens no longer supported that someone still holds). */
  async coinsByIds(ids: string[], executor: Executor = this.db): Promise<Map<string, { id: string; symbol: string; name: string; currentPrice: string }>> {
    if (!ids.length) return new Map();
    if (executor === this.db) {
      const { pricing } = await this.referenceData.get();
      const out = new Map<string, { id: string; symbol: string; name: string; currentPrice: string }>();
      for (const id of ids) {
        const coin = pricing.get(id);
        if (coin) out.set(id, { id: coin.id, symbol: coin.symbol, name: coin.name, currentPrice: coin.currentPrice });
      }
      return out;
    }
    const rows = await executor
      .select({ id: coins.id, symbol: coins.symbol, name: coins.name, currentPrice: coins.currentPrice })
      .from(coins)
      .where(inArray(coins.id, ids));
    return new Map(rows.map((r) => [r.id, r]));
  }

  /**
   * What the fee schedule charges, from the reference data (no query): whether a swap into `token` pays a spread or
   * fee (a send's withdrawal fee: `withdrawalTerms`). The money functions check the schedule again under their locks (CPF01 when
   * this copy was stale: `forgetFees` and read again).
   */
  async charges(token: string): Promise<{ swapCharged: boolean }> {
    const { fees } = await this.referenceData.get();
    const own = fees.get(token);
    const base = fees.get('*');
    const spread = own?.swapSpreadBps ?? base?.swapSpreadBps ?? 0;
    const swapCharged = spread > 0 || (base?.swapFeeBps ?? 0) > 0 || Number(base?.swapFeeMinUsd ?? 0) > 0;
    return { swapCharged };
  }

  /**
   * A send's withdrawal fee of `token` on `network` and its mode, as cp_withdrawal_terms reads them (the network's
   * entry, else the token's fee with the network fee passed through): from the reference data, checked again by cp_send.
   */
  async withdrawalTerms(token: string, network: string): Promise<{ fee: string; mode: 'network' | 'fixed' }> {
    const own = (await this.referenceData.get()).fees.get(token);
    const entry = own?.withdrawalNetworks?.[network];
    return entry ? { fee: entry.fee, mode: entry.mode } : { fee: own?.withdrawalFee ?? '0', mode: 'network' };
  }

  /** Drops the reference data copy (the schedule changed under it). */
  forgetFees(): void {
    this.referenceData.invalidate();
  }
}
