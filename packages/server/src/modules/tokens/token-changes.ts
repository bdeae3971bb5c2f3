import { Inject, Injectable } from '@nestjs/common';
import { ConflictError } from '../../common/errors';
import { DATABASE, type Database, type Executor, type Tx } from '../../db/database';
import { AppStateKeys, AppStateRepository } from '../market/app-state.repository';
import { CoinsRepository } from '../market/coins.repository';
import { MarketCacheService } from '../market/market-cache.service';
import { newVersion } from '../market/market-refresh.service';
import { ReferenceDataCache } from '../reference-data/reference-data.cache';
import { TokenHoldingsRepository } from './token-holdings.repository';

/**
 * How a change of the token lists is made, for market and custom tokens alike: one transaction with its audit rows, a
 * unique-index race answered 409, the caches of the market list and of the reference data dropped once it committed.
 */
@Injectable()
export class TokenChanges {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly holdings: TokenHoldingsRepository,
    private readonly coins: CoinsRepository,
    private readonly appState: AppStateRepository,
    private readonly cache: MarketCacheService,
    private readonly referenceData: ReferenceDataCache,
  ) {}

  /**
   * Runs the change in one transaction, then drops the caches. `raceConflict`: what a unique-index violation (two
   * admins adding the same coin at once) answers instead of a 500.
   */
  async commit<T>(change: (tx: Tx) => Promise<T>, raceConflict?: ConflictError): Promise<T> {
    let result: T;
    try {
      result = await this.db.transaction(change);
    } catch (error) {
      if (raceConflict && isUniqueViolation(error)) throw raceConflict;
      throw error;
    }
    this.cache.invalidate();
    this.referenceData.invalidate();
    return result;
  }

  /** A new market version, so every instance rebuilds its market list. */
  bumpMarketVersion(tx: Executor): Promise<void> {
    return this.appState.set(AppStateKeys.marketVersion, { version: newVersion() }, tx);
  }

  /** A token customers still have money in (a balance or a pending transaction) is neither deleted nor renamed: 409. */
  async assertNoCustomerFunds(coinId: string, verb: 'deleted' | 'renamed', tx: Executor): Promise<void> {
    const exposure = await this.holdings.customerExposure(coinId, tx);
    const coin = await this.coins.findById(coinId, tx);
    const label = (coin?.symbol ?? coinId).toUpperCase();
    if (exposure.balances) throw new ConflictError(`Customers still hold ${label}, so it cannot be ${verb}.`);
    if (exposure.pending) throw new ConflictError(`There are pending ${label} transactions, so it cannot be ${verb}.`);
  }
}

function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (e.code === '23505') return true;
  }
  return false;
}
