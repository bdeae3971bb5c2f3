import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { NATIVE_NETWORK } from '../../common/networks';
import { coins, supportedTokens, tokenNetworks } from '../../db/schema';
import { UUID_TEXT } from '../../common/page-cursor';

/** The network a new token's first row gets when none is given: the coin's native one, else ethereum (ERC-20). */
export function defaultNetwork(coinId: string): string {
  return NATIVE_NETWORK[coinId] ?? 'ethereum';
}

export type TokenKind = 'market' | 'custom';

export interface SupportedTokenRecord {
  id: string;
  coinId: string;
  kind: TokenKind;
  address: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A supported token with its coin's fields (wallet tokens, custom tokens). */
export interface SupportedTokenWithCoin extends SupportedTokenRecord {
  coin: {
    id: string;
    symbol: string;
    name: string;
    image: string;
    currentPrice: string;
    marketCap: string | null;
    marketCapRank: number | null;
    low24h: string | null;
    high24h: string | null;
    priceChangePercentage24h: string | null;
    sparkline7d: number[];
    lastUpdated: Date;
    manualPrice: boolean;
  };
}

const tokenColumns = {
  id: supportedTokens.id,
  coinId: supportedTokens.coinId,
  kind: supportedTokens.kind,
  address: supportedTokens.address,
  createdAt: supportedTokens.createdAt,
  updatedAt: supportedTokens.updatedAt,
};

export const isUuid = (value: string): boolean => UUID_TEXT.test(value);

@Injectable()
export class SupportedTokensRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** Live (not deleted) tokens with their coin, by market cap (custom tokens last). */
  async listWithCoins(kind?: TokenKind, executor: Executor = this.db): Promise<SupportedTokenWithCoin[]> {
    const rows = await executor
      .select({
        ...tokenColumns,
        coin: {
          id: coins.id,
          symbol: coins.symbol,
          name: coins.name,
          image: coins.image,
          currentPrice: coins.currentPrice,
          marketCap: coins.marketCap,
          marketCapRank: coins.marketCapRank,
          low24h: coins.low24h,
          high24h: coins.high24h,
          priceChangePercentage24h: coins.priceChangePercentage24h,
          sparkline7d: coins.sparkline7d,
          lastUpdated: coins.lastUpdated,
          manualPrice: coins.manualPrice,
        },
      })
      .from(supportedTokens)
      .innerJoin(coins, eq(coins.id, supportedTokens.coinId))
      .where(and(isNull(supportedTokens.deletedAt), kind ? eq(supportedTokens.kind, kind) : undefined))
      .orderBy(sql`${coins.marketCapRank} asc nulls last`, asc(coins.name), asc(supportedTokens.id));
    return rows as SupportedTokenWithCoin[];
  }

  async findLiveById(id: string, executor: Executor = this.db, forUpdate = false): Promise<SupportedTokenRecord | undefined> {
    if (!isUuid(id)) return undefined;
    const query = executor
      .select(tokenColumns)
      .from(supportedTokens)
      .where(and(eq(supportedTokens.id, id), isNull(supportedTokens.deletedAt)));
    if (!forUpdate) return (await query)[0];
    return this.lockedForChange((await query.for('update'))[0], executor);
  }

  async findLiveByCoin(coinId: string, executor: Executor = this.db, forUpdate = false): Promise<SupportedTokenRecord | undefined> {
    const query = executor
      .select(tokenColumns)
      .from(supportedTokens)
      .where(and(eq(supportedTokens.coinId, coinId), isNull(supportedTokens.deletedAt)));
    if (!forUpdate) return (await query)[0];
    return this.lockedForChange((await query.for('update'))[0], executor);
  }

  /**
   * A token row read FOR UPDATE to be changed: also its token's change lock (cp_lock_token_change, drizzle/0064), which
   * waits for the money operations in flight on the token and holds new ones until the caller commits — so what the
   * caller checks next (no customer holds the token) stays true until its change is in.
   */
  private async lockedForChange(row: SupportedTokenRecord | undefined, executor: Executor): Promise<SupportedTokenRecord | undefined> {
    if (row) await executor.execute(sql`select cp_lock_token_change(${row.coinId})`);
    return row;
  }

  /** Inserts the token and its first network row (which shares the token's id). */
  async insert(
    values: { coinId: string; kind: TokenKind; address: string | null; network?: string },
    executor: Executor = this.db,
  ): Promise<SupportedTokenRecord> {
    const { network, ...token } = values;
    const [row] = await executor.insert(supportedTokens).values(token).returning(tokenColumns);
    await this.insertFirstNetwork(row, network, executor);
    return row;
  }

  private async insertFirstNetwork(row: SupportedTokenRecord, network: string | undefined, executor: Executor): Promise<void> {
    await executor
      .insert(tokenNetworks)
      .values({ id: row.id, tokenId: row.id, network: network ?? defaultNetwork(row.coinId), address: row.address, createdAt: row.createdAt });
  }

  /** Inserts when the coin has no live token yet; undefined when it has one. */
  async insertIfAbsent(
    values: { coinId: string; kind: TokenKind; address: string | null },
    executor: Executor = this.db,
  ): Promise<SupportedTokenRecord | undefined> {
    const [row] = await executor
      .insert(supportedTokens)
      .values(values)
      .onConflictDoNothing({ target: supportedTokens.coinId, where: sql`${supportedTokens.deletedAt} is null` })
      .returning(tokenColumns);
    if (row) await this.insertFirstNetwork(row, undefined, executor);
    return row;
  }

  /** A new `address` is the token's first network row's address too (custom tokens have one network). */
  async update(id: string, values: { coinId?: string; address?: string | null }, executor: Executor = this.db): Promise<SupportedTokenRecord> {
    if (values.address !== undefined) {
      await executor.execute(sql`
        update token_networks set address = ${values.address}, updated_at = now()
        where id = (select id from token_networks where token_id = ${id} order by created_at, id limit 1)`);
    }
    const [row] = await executor
      .update(supportedTokens)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(supportedTokens.id, id))
      .returning(tokenColumns);
    return row;
  }

  async softDelete(id: string, executor: Executor = this.db): Promise<void> {
    await executor.update(supportedTokens).set({ deletedAt: new Date(), updatedAt: new Date() }).where(eq(supportedTokens.id, id));
  }
}
