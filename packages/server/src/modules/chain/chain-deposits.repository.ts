import { Inject, Injectable } from '@nestjs/common';
import { and, asc, desc, eq, gt, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor, type Tx } from '../../db/database';
import { chainBlocks, chainCursors, chainDeposits, type ChainDepositState, transactions, users } from '../../db/schema';

export interface CursorRecord {
  network: string;
  height: number;
  blockHash: string;
}

export interface ChainDepositRecord {
  id: string;
  network: string;
  txid: string;
  outputIndex: number;
  userId: string;
  token: string;
  address: string;
  amountBase: string;
  amount: string;
  blockHeight: number | null;
  blockHash: string | null;
  confirmations: number;
  requiredConfirmations: number;
  state: ChainDepositState;
  review: 'orphaned_after_credit' | null;
  transactionId: string | null;
  createdAt: Date;
  creditedAt: Date | null;
}

const depositColumns = {
  id: chainDeposits.id,
  network: chainDeposits.network,
  txid: chainDeposits.txid,
  outputIndex: chainDeposits.outputIndex,
  userId: chainDeposits.userId,
  token: chainDeposits.token,
  address: chainDeposits.address,
  amountBase: chainDeposits.amountBase,
  amount: chainDeposits.amount,
  blockHeight: chainDeposits.blockHeight,
  blockHash: chainDeposits.blockHash,
  confirmations: chainDeposits.confirmations,
  requiredConfirmations: chainDeposits.requiredConfirmations,
  state: chainDeposits.state,
  review: chainDeposits.review,
  transactionId: chainDeposits.transactionId,
  createdAt: chainDeposits.createdAt,
  creditedAt: chainDeposits.creditedAt,
};

/** A payment found in a block, to be recorded (or moved into this block when it is already known). */
export interface FoundDeposit {
  network: string;
  txid: string;
  outputIndex: number;
  userId: string;
  token: string;
  address: string;
  amountBase: string;
  amount: string;
  requiredConfirmations: number;
  state: 'seen' | 'confirming' | 'below_minimum';
}

/** All SQL of the watchers: cursors, recent blocks and the deposits found on chain. */
@Injectable()
export class ChainDepositsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async cursor(network: string, executor: Executor = this.db): Promise<CursorRecord | undefined> {
    const [row] = await executor
      .select({ network: chainCursors.network, height: chainCursors.height, blockHash: chainCursors.blockHash })
      .from(chainCursors)
      .where(eq(chainCursors.network, network));
    return row;
  }

  async cursorForUpdate(network: string, tx: Tx): Promise<CursorRecord | undefined> {
    const [row] = await tx
      .select({ network: chainCursors.network, height: chainCursors.height, blockHash: chainCursors.blockHash })
      .from(chainCursors)
      .where(eq(chainCursors.network, network))
      .for('update');
    return row;
  }

  /** The first cursor of a network (the block the watcher starts after); a concurrent first start keeps the first one. */
  async initCursor(network: string, block: { height: number; hash: string; parentHash: string; time: Date }): Promise<void> {
    await this.db.transaction(async (tx) => {
      const inserted = await tx
        .insert(chainCursors)
        .values({ network, height: block.height, blockHash: block.hash })
        .onConflictDoNothing()
        .returning({ network: chainCursors.network });
      if (inserted.length) await this.insertBlock(network, block, tx);
    });
  }

  async moveCursor(network: string, height: number, blockHash: string, tx: Tx): Promise<void> {
    await tx.update(chainCursors).set({ height, blockHash, updatedAt: new Date() }).where(eq(chainCursors.network, network));
  }

  /** What the watcher last saw of its node; `error` null when the poll went through. */
  async noteNode(network: string, seen: { nodeHeight?: number; nodeBlockAt?: Date; error: string | null }): Promise<void> {
    await this.db
      .update(chainCursors)
      .set({
        lastPollAt: new Date(),
        ...(seen.nodeHeight !== undefined ? { nodeHeight: seen.nodeHeight } : {}),
        ...(seen.nodeBlockAt ? { nodeBlockAt: seen.nodeBlockAt } : {}),
        ...(seen.error === null ? { lastError: null } : { lastError: seen.error, lastErrorAt: new Date() }),
      })
      .where(eq(chainCursors.network, network));
  }

  async insertBlock(network: string, block: { height: number; hash: string; parentHash: string; time: Date }, tx: Tx): Promise<void> {
    await tx
      .insert(chainBlocks)
      .values({ network, height: block.height, blockHash: block.hash, parentHash: block.parentHash, blockTime: block.time })
      .onConflictDoUpdate({
        target: [chainBlocks.network, chainBlocks.height],
        set: { blockHash: block.hash, parentHash: block.parentHash, blockTime: block.time },
      });
  }

  /** Keeps the recent blocks only (a reorg deeper than that rewinds to the oldest kept). */
  async pruneBlocks(network: string, belowHeight: number, tx: Tx): Promise<void> {
    await tx.delete(chainBlocks).where(and(eq(chainBlocks.network, network), lt(chainBlocks.height, belowHeight)));
  }

  async blockAt(network: string, height: number, executor: Executor = this.db): Promise<{ hash: string } | undefined> {
    const [row] = await executor
      .select({ hash: chainBlocks.blockHash })
      .from(chainBlocks)
      .where(and(eq(chainBlocks.network, network), eq(chainBlocks.height, height)));
    return row;
  }

  async oldestBlock(network: string): Promise<{ height: number; hash: string } | undefined> {
    const [row] = await this.db
      .select({ height: chainBlocks.height, hash: chainBlocks.blockHash })
      .from(chainBlocks)
      .where(eq(chainBlocks.network, network))
      .orderBy(asc(chainBlocks.height))
      .limit(1);
    return row;
  }

  async dropBlocksAbove(network: string, height: number, tx: Tx): Promise<void> {
    await tx.delete(chainBlocks).where(and(eq(chainBlocks.network, network), gt(chainBlocks.height, height)));
  }

  /**
   * Records a payment found in a block: a new one is inserted (returned with `inserted`); a known one (seen, or in a
   * block orphaned since) moves into this block — confirming again unless it was credited or is below the minimum.
   */
  async upsertFound(found: FoundDeposit, block: { height: number; hash: string }, tx: Tx): Promise<{ record: ChainDepositRecord; inserted: boolean }> {
    const [row] = await tx
      .insert(chainDeposits)
      .values({ ...found, blockHeight: block.height, blockHash: block.hash, confirmations: 1 })
      .onConflictDoUpdate({
        target: [chainDeposits.network, chainDeposits.txid, chainDeposits.outputIndex],
        set: {
          blockHeight: block.height,
          blockHash: block.hash,
          confirmations: sql`case when ${chainDeposits.state} in ('seen', 'confirming') then 1 else ${chainDeposits.confirmations} end`,
          state: sql`case when ${chainDeposits.state} in ('seen', 'confirming', 'dropped') then 'confirming' else ${chainDeposits.state} end`,
          updatedAt: new Date(),
        },
      })
      .returning({ ...depositColumns, inserted: sql<boolean>`(xmax = 0)` });
    const { inserted, ...record } = row;
    return { record: record as ChainDepositRecord, inserted: Boolean(inserted) };
  }

  /**
   * `upsertFound` for many payments of one block in one statement per 500 (a block may pay thousands of customers).
   * Within a block an output appears once, so no row is touched twice by one statement.
   */
  async upsertFoundMany(
    found: FoundDeposit[],
    block: { height: number; hash: string },
    tx: Tx,
  ): Promise<Array<{ record: ChainDepositRecord; inserted: boolean }>> {
    const out: Array<{ record: ChainDepositRecord; inserted: boolean }> = [];
    for (let i = 0; i < found.length; i += 500) {
      const rows = await tx
        .insert(chainDeposits)
        .values(found.slice(i, i + 500).map((f) => ({ ...f, blockHeight: block.height, blockHash: block.hash, confirmations: 1 })))
        .onConflictDoUpdate({
          target: [chainDeposits.network, chainDeposits.txid, chainDeposits.outputIndex],
          set: {
            blockHeight: block.height,
            blockHash: block.hash,
            confirmations: sql`case when ${chainDeposits.state} in ('seen', 'confirming') then 1 else ${chainDeposits.confirmations} end`,
            state: sql`case when ${chainDeposits.state} in ('seen', 'confirming', 'dropped') then 'confirming' else ${chainDeposits.state} end`,
            updatedAt: new Date(),
          },
        })
        .returning({ ...depositColumns, inserted: sql<boolean>`(xmax = 0)` });
      for (const { inserted, ...record } of rows) out.push({ record: record as ChainDepositRecord, inserted: Boolean(inserted) });
    }
    return out;
  }

  /** Records payments seen in the mempool (no block yet); a payment already known is left as it is. */
  async insertSeenMany(found: FoundDeposit[], tx: Tx): Promise<ChainDepositRecord[]> {
    const out: ChainDepositRecord[] = [];
    for (let i = 0; i < found.length; i += 500) {
      const rows = await tx
        .insert(chainDeposits)
        .values(found.slice(i, i + 500).map((f) => ({ ...f, confirmations: 0 })))
        .onConflictDoNothing({ target: [chainDeposits.network, chainDeposits.txid, chainDeposits.outputIndex] })
        .returning(depositColumns);
      out.push(...(rows as ChainDepositRecord[]));
    }
    return out;
  }

  /** Inserts the History rows of new deposits and links each deposit to its row (per 500: two statements). */
  async insertTransactionsFor(rows: Array<{ depositId: string; row: typeof transactions.$inferInsert & { id: string } }>, tx: Tx): Promise<void> {
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      await tx.insert(transactions).values(chunk.map((c) => c.row));
      await tx.execute(sql`
        update chain_deposits d set transaction_id = v.tid::uuid
        from (values ${sql.join(
          chunk.map((c) => sql`(${c.depositId}, ${c.row.id})`),
          sql`, `,
        )}) as v(id, tid)
        where d.id = v.id::uuid`);
    }
  }

  /** Deposits in blocks above `height` (orphaned by a rewind to it). */
  async inBlocksAbove(network: string, height: number, tx: Tx): Promise<ChainDepositRecord[]> {
    return tx
      .select(depositColumns)
      .from(chainDeposits)
      .where(and(eq(chainDeposits.network, network), gt(chainDeposits.blockHeight, height)))
      .for('update');
  }

  async update(
    id: string,
    set: Partial<Pick<ChainDepositRecord, 'state' | 'confirmations' | 'blockHeight' | 'blockHash' | 'review' | 'creditedAt'>>,
    tx: Executor,
  ): Promise<void> {
    await tx
      .update(chainDeposits)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(chainDeposits.id, id));
  }

  /** Deposits in a block of the best chain waiting for confirmations. */
  async confirming(network: string): Promise<ChainDepositRecord[]> {
    return this.db
      .select(depositColumns)
      .from(chainDeposits)
      .where(and(eq(chainDeposits.network, network), eq(chainDeposits.state, 'confirming'), isNotNull(chainDeposits.blockHeight)))
      .orderBy(asc(chainDeposits.blockHeight));
  }

  /**
   * Counts the confirmations of a network's confirming deposits below `required` at the cursor `height`, in two
   * statements whatever their number (the deposits, then their History rows); returns the customers whose rows changed.
   */
  async refreshConfirmations(network: string, height: number, required: number, tx: Tx): Promise<string[]> {
    const changed = (await tx.execute(sql`
      update chain_deposits set confirmations = (${height}::bigint - block_height + 1)::int, updated_at = now()
      where network = ${network} and state = 'confirming' and block_height is not null
        and ${height}::bigint - block_height + 1 < ${required} and confirmations <> (${height}::bigint - block_height + 1)::int
      returning user_id as "userId", transaction_id as "transactionId", confirmations`)) as unknown as {
      rows: Array<{ userId: string; transactionId: string | null; confirmations: number }>;
    };
    const rows = changed.rows.filter((row) => row.transactionId);
    if (rows.length) {
      await tx.execute(sql`
        update transactions t set details = coalesce(t.details, '{}'::jsonb) || jsonb_build_object('confirmations', d.confirmations), updated_at = now()
        from chain_deposits d
        where d.transaction_id = t.id and d.network = ${network} and d.state = 'confirming'
          and d.transaction_id in (${sql.join(
            rows.map((row) => sql`${row.transactionId}::uuid`),
            sql`, `,
          )})`);
    }
    return [...new Set(changed.rows.map((row) => row.userId))];
  }

  /**
   * A deposit with what the texts of its credit need (no lock: `cp_credit_chain_deposit` decides under its own): the
   * watcher's cursor height and the customer's mail address and name.
   */
  async creditView(id: string): Promise<(ChainDepositRecord & { cursorHeight: number | null; email: string | null; name: string | null }) | undefined> {
    const [row] = await this.db
      .select({ ...depositColumns, cursorHeight: chainCursors.height, email: users.email, name: users.name })
      .from(chainDeposits)
      .leftJoin(chainCursors, eq(chainCursors.network, chainDeposits.network))
      .leftJoin(users, eq(users.id, chainDeposits.userId))
      .where(eq(chainDeposits.id, id));
    return row as (ChainDepositRecord & { cursorHeight: number | null; email: string | null; name: string | null }) | undefined;
  }

  async byOutput(network: string, txid: string, outputIndex: number, executor: Executor = this.db): Promise<ChainDepositRecord | undefined> {
    const [row] = await executor
      .select(depositColumns)
      .from(chainDeposits)
      .where(and(eq(chainDeposits.network, network), eq(chainDeposits.txid, txid), eq(chainDeposits.outputIndex, outputIndex)));
    return row as ChainDepositRecord | undefined;
  }

  async list(filter: { network?: string; userId?: string; limit?: number } = {}): Promise<ChainDepositRecord[]> {
    return this.db
      .select(depositColumns)
      .from(chainDeposits)
      .where(and(filter.network ? eq(chainDeposits.network, filter.network) : undefined, filter.userId ? eq(chainDeposits.userId, filter.userId) : undefined))
      .orderBy(desc(chainDeposits.createdAt))
      .limit(filter.limit ?? 100);
  }

  async countsByState(): Promise<Array<{ network: string; state: string; count: number }>> {
    return this.db
      .select({ network: chainDeposits.network, state: chainDeposits.state, count: sql<number>`count(*)::int` })
      .from(chainDeposits)
      .groupBy(chainDeposits.network, chainDeposits.state);
  }

  // --- the customer-facing transaction row of a deposit -------------------------------------------------------------

  /** Sets the confirmations shown on deposits' transaction rows. */
  async setTransactionConfirmations(ids: string[], confirmations: number, tx: Executor): Promise<void> {
    if (!ids.length) return;
    await tx
      .update(transactions)
      .set({
        details: sql`coalesce(${transactions.details}, '{}'::jsonb) || jsonb_build_object('confirmations', ${confirmations}::int)`,
        updatedAt: new Date(),
      })
      .where(inArray(transactions.id, ids));
  }
}
