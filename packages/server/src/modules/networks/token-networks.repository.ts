import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { supportedTokens, tokenNetworks } from '../../db/schema';
import { ReferenceDataCache } from '../reference-data/reference-data.cache';
import type { TokenNetworkRecord, TokenNetworkWithToken } from '../reference-data/reference-data.types';

export type { TokenNetworkRecord, TokenNetworkWithToken };

const columns = {
  id: tokenNetworks.id,
  tokenId: tokenNetworks.tokenId,
  network: tokenNetworks.network,
  address: tokenNetworks.address,
  contractAddress: tokenNetworks.contractAddress,
  contractDecimals: tokenNetworks.contractDecimals,
  createdAt: tokenNetworks.createdAt,
};

/** The order of a token's networks: its first (oldest) row is its default network. */
const networkOrder = [asc(tokenNetworks.createdAt), asc(tokenNetworks.id)];

/** All SQL of the token ↔ network rows (deposit addresses per network). */
@Injectable()
export class TokenNetworksRepository {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly referenceData: ReferenceDataCache,
  ) {}

  /** Rows of live tokens, with their coin id, optionally of one kind or of some coins; per token in network order. */
  async listLive(filter: { kind?: 'market' | 'custom'; coinIds?: string[] } = {}, executor: Executor = this.db): Promise<TokenNetworkWithToken[]> {
    if (filter.coinIds && !filter.coinIds.length) return [];
    if (executor === this.db) {
      // From memory outside a transaction (deposits and the token lists ask); the cache keeps the query's order.
      const { networksByCoin } = await this.referenceData.get();
      const wanted = filter.coinIds ? new Set(filter.coinIds) : undefined;
      return [...networksByCoin.values()]
        .flat()
        .filter((row) => (!wanted || wanted.has(row.coinId)) && (!filter.kind || row.kind === filter.kind))
        .map((row) => ({ ...row }));
    }
    const rows = await executor
      .select({ ...columns, coinId: supportedTokens.coinId, kind: supportedTokens.kind })
      .from(tokenNetworks)
      .innerJoin(supportedTokens, eq(supportedTokens.id, tokenNetworks.tokenId))
      .where(
        and(
          isNull(supportedTokens.deletedAt),
          filter.kind ? eq(supportedTokens.kind, filter.kind) : undefined,
          filter.coinIds ? inArray(supportedTokens.coinId, filter.coinIds) : undefined,
        ),
      )
      .orderBy(asc(supportedTokens.coinId), ...networkOrder);
    return rows as TokenNetworkWithToken[];
  }

  /** A live token's networks, in order (first = default); from memory outside a transaction (every send asks). */
  async listForCoin(coinId: string, executor: Executor = this.db): Promise<TokenNetworkWithToken[]> {
    if (executor === this.db) return ((await this.referenceData.get()).networksByCoin.get(coinId) ?? []).map((row) => ({ ...row }));
    return this.listLive({ coinIds: [coinId] }, executor);
  }

  async listForToken(tokenId: string, executor: Executor = this.db): Promise<TokenNetworkRecord[]> {
    return executor
      .select(columns)
      .from(tokenNetworks)
      .where(eq(tokenNetworks.tokenId, tokenId))
      .orderBy(...networkOrder);
  }

  /** A row of a live token by the row id. */
  async findLiveById(id: string, executor: Executor = this.db, forUpdate = false): Promise<TokenNetworkWithToken | undefined> {
    const query = executor
      .select({ ...columns, coinId: supportedTokens.coinId, kind: supportedTokens.kind })
      .from(tokenNetworks)
      .innerJoin(supportedTokens, eq(supportedTokens.id, tokenNetworks.tokenId))
      .where(and(eq(tokenNetworks.id, id), isNull(supportedTokens.deletedAt)));
    const [row] = forUpdate ? await query.for('update', { of: tokenNetworks }) : await query;
    return row as TokenNetworkWithToken | undefined;
  }

  async insert(values: { id?: string; tokenId: string; network: string; address: string | null }, executor: Executor = this.db): Promise<TokenNetworkRecord> {
    const [row] = await executor.insert(tokenNetworks).values(values).returning(columns);
    return row;
  }

  async update(
    id: string,
    values: { network?: string; address?: string | null; contractAddress?: string | null; contractDecimals?: number | null },
    executor: Executor = this.db,
  ): Promise<TokenNetworkRecord> {
    const [row] = await executor
      .update(tokenNetworks)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(tokenNetworks.id, id))
      .returning(columns);
    return row;
  }

  /** Sets the token contract (and its decimals) of a token's row on a network. */
  async setContract(tokenId: string, network: string, contractAddress: string | null, contractDecimals: number | null, executor: Executor): Promise<void> {
    await executor
      .update(tokenNetworks)
      .set({ contractAddress, contractDecimals, updatedAt: new Date() })
      .where(and(eq(tokenNetworks.tokenId, tokenId), eq(tokenNetworks.network, network)));
  }

  async delete(id: string, executor: Executor = this.db): Promise<void> {
    await executor.delete(tokenNetworks).where(eq(tokenNetworks.id, id));
  }

  /** `supported_tokens.address` mirrors the first network row's address (one address per token for older readers). */
  async syncTokenAddress(tokenId: string, executor: Executor = this.db): Promise<void> {
    await executor.execute(sql`
      update supported_tokens set address = (
        select address from token_networks where token_id = ${tokenId} order by created_at, id limit 1
      ), updated_at = now()
      where id = ${tokenId}`);
  }
}
