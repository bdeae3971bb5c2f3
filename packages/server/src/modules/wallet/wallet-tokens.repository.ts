import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { coins, supportedTokens } from '../../db/schema';
import { ReferenceDataCache } from '../reference-data/reference-data.cache';
import type { WalletToken } from '../reference-data/reference-data.types';
import type { MoneyGuard } from '../ledger/ledger.repository';
import { literal, sqlPiece } from '../../db/sql-template';

/** SQLSTATEs of the one-statement money guards (raised by `cp_require`). */
export const TOKEN_GONE_STATE = 'CPT01';
export const PRICE_MOVED_STATE = 'CPP01';
/** How long after a price change a quote of the price it replaced is still executed. */
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

  /**
   * Re-reads these tokens inside a money transaction with FOR SHARE and returns the ids still supported. The tokens
   * module's delete locks the row FOR UPDATE: a delete in progress makes this wait for its outcome, and a money
   * operation holding the share lock makes the delete wait and then see the customer's balance or pending transaction.
   */
  async lockLive(coinIds: string[], executor: Executor): Promise<Set<string>> {
    if (!coinIds.length) return new Set();
    const rows = await executor
      .select({ coinId: supportedTokens.coinId })
      .from(supportedTokens)
      .where(and(inArray(supportedTokens.coinId, coinIds), isNull(supportedTokens.deletedAt)))
      .orderBy(asc(supportedTokens.coinId))
      .for('share');
    return new Set(rows.map((row) => row.coinId));
  }

  /**
   * `lockLive` as a guard of a one-statement posting: share-locks the tokens' live supported rows and aborts with
   * TOKEN_GONE_STATE (message: the ids still live, comma-separated) when one is gone.
   */
  liveGuard(coinIds: string[]): MoneyGuard {
    const n = coinIds.length;
    return sqlPiece<[SQL, string]>(`live${n}`, coinIds, (bind, after, name) => {
      const ids = sql.join(
        coinIds.map((_, i) => sql`${bind(i)}`),
        sql`, `,
      );
      return sql`${sql.raw(name)} as materialized (
        select cp_require(count(*) = ${literal(n)}, ${literal(TOKEN_GONE_STATE)}, coalesce(string_agg(live.coin_id, ','), '')) as ok
        from (select coin_id from supported_tokens where coin_id in (${ids}) and deleted_at is null and ${after} order by coin_id for share) as live)`;
    });
  }

  /**
   * A guard that aborts with PRICE_MOVED_STATE unless each coin's price is still the quoted one — or changed less than
   * PRICE_CHANGE_GRACE_MS ago (by the database's clock): a request quoted just before a change still executes at its
   * quote, as it always did; a stale quote (e.g. a cache that missed a change) never executes past that moment.
   */
  priceGuard(quoted: Array<{ coinId: string; price: string }>): MoneyGuard {
    const values: string[] = [];
    for (const q of quoted) values.push(q.price, q.coinId);
    return sqlPiece<[SQL, string]>(`price${quoted.length}`, values, (bind, after, name) => {
      const same = sql.join(
        quoted.map(
          (_, i) =>
            sql`coalesce((select current_price = ${bind(2 * i)}::numeric or price_changed_at > now() - ${literal(PRICE_CHANGE_GRACE_MS)} * interval '1 millisecond' from coins where id = ${bind(2 * i + 1)}), false)`,
        ),
        sql` and `,
      );
      return sql`${sql.raw(name)} as materialized (select cp_require(${after} and ${same}, ${literal(PRICE_MOVED_STATE)}, 'price moved') as ok)`;
    });
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
}
