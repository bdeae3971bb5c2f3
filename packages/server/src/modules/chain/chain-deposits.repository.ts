import { Inject, Injectable } from '@nestjs/common';
import { and, asc, desc, eq, gt, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor, type Tx } from '../../db/database';
import { rowsOf } from '../../db/rows';
import { chainBlocks, chainCursors, chainDeposits, type ChainDepositState, coins, transactions, users } from '../../db/schema';

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

/** The deposit columns as a raw statement returns them, typed alike on node-postgres and PGlite. */
const RETURNED_DEPOSIT = sql.raw(`id, network, txid, output_index as "outputIndex", user_id as "userId", token, address,
  amount_base::text as "amountBase", amount::text as amount, block_height::float8 as "blockHeight", block_hash as "blockHash",
  confirmations, required_confirmations as "requiredConfirmations", state, review, transaction_id as "transactionId",
  created_at as "createdAt", credited_at as "creditedAt"`);

type RawDeposit = Omit<ChainDepositRecord, 'createdAt' | 'creditedAt'> & { createdAt: Date | string; creditedAt: Date | string | null };

function depositOf(row: RawDeposit): ChainDepositRecord {
  return {
    ...row,
    createdAt: new Date(row.createdAt),
    creditedAt: row.creditedAt === null ? null : new Date(row.creditedAt),
  };
}

/** A payment to record: its deposit id and its History row (used when it is new). */
export interface DepositToRecord extends FoundDeposit {
  id: string;
  /** Seen in the mempool: the watcher's cursor height then. */
  seenAtHeight?: number;
  history: typeof transactions.$inferInsert & { id: string };
}

/** A payment in the columns of `chain_deposits` (for jsonb_populate_recordset). */
function depositRow(found: DepositToRecord) {
  return {
    id: found.id,
    transaction_id: found.history.id,
    network: found.network,
    txid: found.txid,
    output_index: found.outputIndex,
    user_id: found.userId,
    token: found.token,
    address: found.address,
    amount_base: found.amountBase,
    amount: found.amount,
    required_confirmations: found.requiredConfirmations,
    state: found.state,
    seen_at_height: found.seenAtHeight ?? null,
  };
}

/** A History row in the columns of `transactions` (for jsonb_populate_recordset). */
function historyRow(row: DepositToRecord['history']) {
  return {
    id: row.id,
    user_id: row.userId,
    type: row.type,
    token: row.token,
    network: row.network ?? null,
    address: row.address ?? null,
    coin_amount: row.coinAmount,
    usd_amount: row.usdAmount,
    price: row.price ?? null,
    status: row.status,
    direction: row.direction,
    note: row.note ?? null,
    details: row.details ?? null,
    created_by: row.createdBy ?? null,
  };
}

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
   * Records payments and the History rows of the new ones in one statement, whatever their number (a block may pay
   * thousands of customers; the rows travel as two jsonb parameters). In a block: a new payment is inserted as
   * confirming (1 confirmation) with its History row; a known one (seen, or in a block orphaned since) moves into this
   * block — confirming again unless it was credited or is below the minimum — and its History row shows 1 confirmation.
   * Without a block (the mempool): new payments are inserted as seen, known ones are left as they are (not returned).
   * The ids of a new deposit and of its History row are the caller's; within one call an output appears once.
   */
  async record(
    deposits: DepositToRecord[],
    block: { height: number; hash: string } | undefined,
    tx: Tx,
  ): Promise<Array<{ record: ChainDepositRecord; inserted: boolean }>> {
    if (!deposits.length) return [];
    const found = JSON.stringify(deposits.map(depositRow));
    const history = JSON.stringify(deposits.map(({ history }) => historyRow(history)));
    const inBlock = block ? sql`${block.height}::bigint, ${block.hash}::text, 1` : sql`null::bigint, null::text, 0`;
    const onConflict = block
      ? sql`do update set
          block_height = excluded.block_height,
          block_hash = excluded.block_hash,
          confirmations = case when d.state in ('seen', 'confirming') then 1 else d.confirmations end,
          state = case when d.state in ('seen', 'confirming', 'dropped') then 'confirming' else d.state end,
          drop_reason = case when d.state = 'dropped' then null else d.drop_reason end,
          updated_at = now()`
      : sql`do nothing`;
    // In a block, known deposits confirming again: their History rows count from 1. A row the watcher itself rejected
    // when it dropped the deposit (details.dropped) opens again: the payment was mined after all, and is credited once
    // its confirmations are reached (rejected → pending moves nothing; an admin's own decision is never re-opened).
    const reopen = sql`(t.status = 'rejected' and t.voided_at is null and t.details ? 'dropped')`;
    const reconfirmed = block
      ? sql`,
        reconfirmed as (
          update transactions t set
            details = (coalesce(t.details, '{}'::jsonb) - 'dropped') || '{"confirmations": 1}'::jsonb,
            status = case when ${reopen} then 'pending' else t.status end,
            note = case when ${reopen} then null else t.note end,
            updated_at = now()
          from recorded
          where not recorded.inserted and recorded.state = 'confirming' and t.id = recorded."transactionId"
        )`
      : sql``;
    const rows = rowsOf(
      await tx.execute(sql`
        with recorded as (
          insert into chain_deposits as d (id, network, txid, output_index, user_id, token, address, amount_base, amount,
            required_confirmations, state, transaction_id, block_height, block_hash, confirmations, seen_at_height)
          select f.id, f.network, f.txid, f.output_index, f.user_id, f.token, f.address, f.amount_base, f.amount,
            f.required_confirmations, f.state, f.transaction_id, ${inBlock}, f.seen_at_height
          from jsonb_populate_recordset(null::chain_deposits, ${found}::jsonb) as f
          on conflict (network, txid, output_index) ${onConflict}
          returning ${RETURNED_DEPOSIT}, (xmax = 0) as inserted
        ),
        -- The History rows of the new deposits (the deposits' foreign key to them is checked at the statement's end).
        history as (
          insert into transactions (id, user_id, type, token, network, address, coin_amount, usd_amount, price, status,
            direction, note, details, created_by)
          select r.id, r.user_id, r.type, r.token, r.network, r.address, r.coin_amount, r.usd_amount, r.price, r.status,
            r.direction, r.note, r.details, r.created_by
          from jsonb_populate_recordset(null::transactions, ${history}::jsonb) as r
          where r.id in (select "transactionId" from recorded where inserted)
        )${reconfirmed}
        select * from recorded`),
    ) as Array<RawDeposit & { inserted: boolean }>;
    return rows.map(({ inserted, ...row }) => ({ record: depositOf(row), inserted: Boolean(inserted) }));
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

  /**
   * Deposits in a block of the best chain waiting for confirmations: their ids and block heights only (read every
   * poll, and a block may have brought thousands).
   */
  async confirming(network: string): Promise<Array<Pick<ChainDepositRecord, 'id' | 'blockHeight'>>> {
    return this.db
      .select({ id: chainDeposits.id, blockHeight: chainDeposits.blockHeight })
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

  /** Newest first, with the token's symbol and name (null for a coin no longer listed). */
  async list(filter: { network?: string; userId?: string; limit?: number } = {}): Promise<
    Array<
      ChainDepositRecord & {
        symbol: string | null;
        tokenName: string | null;
        reviewResolution: 'taken_back' | 'kept' | null;
        hold: 'limit' | 'sanctions' | null;
      }
    >
  > {
    return this.db
      .select({ ...depositColumns, symbol: coins.symbol, tokenName: coins.name, reviewResolution: chainDeposits.reviewResolution, hold: chainDeposits.hold })
      .from(chainDeposits)
      .leftJoin(coins, eq(coins.id, chainDeposits.token))
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
