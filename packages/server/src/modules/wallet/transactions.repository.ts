import { Inject, Injectable } from '@nestjs/common';
import type { TransactionStatus, TransactionType } from '@coinpurse/contract';
import { and, asc, desc, eq, gt, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { userMatches } from '../../common/search';
import { LRUCache } from 'lru-cache';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { coins, transactions, users } from '../../db/schema';
import type { MoneyGuard } from '../ledger/ledger.repository';
import { sqlPiece, type SqlPiece } from '../../db/sql-template';

/** SQLSTATE of a one-statement change whose transaction was changed (or voided) since it was read (`cp_require`). */
export const TRANSACTION_CHANGED_STATE = 'CPX01';

/** What a caller states about a transaction; the stored record and a new one both carry it. */
interface TransactionFields {
  userId: string;
  type: TransactionType;
  token: string;
  network: string | null;
  address: string | null;
  coinAmount: string;
  usdAmount: string;
  price: string | null;
  status: TransactionStatus;
  direction: 'in' | 'out';
  note: string | null;
  details: Record<string, unknown> | null;
}

export interface TransactionRecord extends TransactionFields {
  id: string;
  seq: number;
  createdAt: Date;
  voidedAt: Date | null;
}

export interface TransactionView extends TransactionRecord {
  userName: string;
  userEmail: string;
  symbol: string | null;
}

/**
 * A transaction as this instance last read (or wrote) it, without `seq` (not known for a row written in one statement;
 * no answer shows it). Its status, details (txHash) and customer's name and email may have changed since: the guards
 * below re-check them.
 */
export type KnownTransaction = Omit<TransactionView, 'seq'>;

/** What a one-statement change states it read besides the status (the guard aborts when one differs). */
export interface ReadWith {
  details: Record<string, unknown> | null;
  userName: string;
  userEmail: string;
}

export interface NewTransaction extends TransactionFields {
  id: string;
  createdBy: string | null;
}

const columns = {
  id: transactions.id,
  seq: transactions.seq,
  userId: transactions.userId,
  type: transactions.type,
  token: transactions.token,
  network: transactions.network,
  address: transactions.address,
  coinAmount: transactions.coinAmount,
  usdAmount: transactions.usdAmount,
  price: transactions.price,
  status: transactions.status,
  direction: transactions.direction,
  note: transactions.note,
  details: transactions.details,
  createdAt: transactions.createdAt,
  voidedAt: transactions.voidedAt,
};

export interface TransactionFilter {
  userId?: string;
  token?: string;
  type?: TransactionType;
  status?: TransactionStatus;
  /** Keyset: only rows with seq below this. */
  beforeSeq?: number;
  limit: number;
  /** Oldest first (CSV export) instead of newest first. */
  ascending?: boolean;
  afterSeq?: number;
  /** Admin search: part of the customer's email or name, or exactly a txHash or transaction id. */
  search?: string;
}

/** Up to this many customers matching an admin search, their rows are read per customer; above, in one walk down seq. */
const FEW_MATCHING_CUSTOMERS = 1000;
/** Customers sampled to tell a term that matches most of them (a tenth or more of the sample). */
const SAMPLE_CUSTOMERS = 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Injectable()
export class TransactionsRepository {
  /**
   * The visible transactions this instance read or wrote last (the admin list, the admin's deposits): a status change or
   * void of one then runs in one statement whose guard re-checks what may have changed — stale costs a trip, never a
   * wrong answer.
   */
  private readonly recent = new LRUCache<string, KnownTransaction>({ max: 10_000 });

  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** A visible transaction as this instance last saw it (no trip; may be stale: see KnownTransaction). */
  known(id: string): KnownTransaction | undefined {
    return this.recent.get(id);
  }

  remember(view: KnownTransaction): void {
    if (view.voidedAt) this.recent.delete(view.id);
    else this.recent.set(view.id, view);
  }

  forget(id: string): void {
    this.recent.delete(id);
  }

  async insert(input: NewTransaction, executor: Executor = this.db): Promise<TransactionRecord> {
    const [row] = await executor.insert(transactions).values(input).returning(columns);
    return row as TransactionRecord;
  }

  /**
   * The insert as a statement to run inside the ledger posting (one round trip); returns the record as it will be
   * stored (`seq` is not known yet and set to 0).
   */
  insertStatement(input: NewTransaction): { statement: SQL; record: TransactionRecord } {
    const createdAt = new Date();
    const statement = this.db
      .insert(transactions)
      .values({ ...input, createdAt, updatedAt: createdAt })
      .getSQL();
    return { statement, record: { ...input, seq: 0, createdAt, voidedAt: null } };
  }

  /**
   * `insertStatement` as a piece (hot paths: its text is built once; the columns and values are the same, encoded as
   * Drizzle does: details as JSON, timestamps as ISO strings).
   */
  insertPiece(input: NewTransaction): { statement: SqlPiece; record: TransactionRecord } {
    const createdAt = new Date();
    const at = createdAt.toISOString();
    const values = [
      input.id,
      input.userId,
      input.type,
      input.token,
      input.network,
      input.address,
      input.coinAmount,
      input.usdAmount,
      input.price,
      input.status,
      input.direction,
      input.note,
      input.details === null ? null : JSON.stringify(input.details),
      input.createdBy,
      at,
      at,
    ];
    const statement = sqlPiece(
      'transaction',
      values,
      (
        v,
      ) => sql`insert into "transactions" ("id", "seq", "user_id", "type", "token", "network", "address", "coin_amount", "usd_amount", "price", "status", "direction", "note", "details", "created_by", "created_at", "updated_at", "voided_at", "voided_by")
        values (${v(0)}, default, ${v(1)}, ${v(2)}, ${v(3)}, ${v(4)}, ${v(5)}, ${v(6)}, ${v(7)}, ${v(8)}, ${v(9)}, ${v(10)}, ${v(11)}, ${v(12)}, ${v(13)}, ${v(14)}, ${v(15)}, default, default)`,
    );
    return { statement, record: { ...input, seq: 0, createdAt, voidedAt: null } };
  }

  /** Locks the transaction row: status changes and voids on one transaction are serialized. */
  async findForUpdate(id: string, executor: Executor): Promise<TransactionRecord | undefined> {
    const [row] = await executor.select(columns).from(transactions).where(eq(transactions.id, id)).for('update');
    return row as TransactionRecord | undefined;
  }

  async setStatus(id: string, status: TransactionStatus, executor: Executor): Promise<void> {
    await executor.update(transactions).set({ status, updatedAt: new Date() }).where(eq(transactions.id, id));
  }

  /** Records the chain transaction id of a settled withdrawal (kept in details, searchable by admins). */
  async setTxHash(id: string, txHash: string, executor: Executor): Promise<void> {
    await executor
      .update(transactions)
      .set({ details: sql`coalesce(${transactions.details}, '{}'::jsonb) || jsonb_build_object('txHash', ${txHash}::text)`, updatedAt: new Date() })
      .where(eq(transactions.id, id));
  }

  /**
   * `setStatus` (and `setTxHash`) as the guard of a one-statement posting: the row is updated — and so locked until the
   * statement commits — only while it still has the status it was read with and is not voided, and its details and its
   * customer's name and email are still the ones read; otherwise the statement aborts with TRANSACTION_CHANGED_STATE
   * (the caller then takes the row lock and decides again).
   */
  statusChangeGuard(id: string, from: TransactionStatus, to: TransactionStatus, read: ReadWith, txHash?: string): MoneyGuard {
    const details = txHash ? sql`, details = coalesce(details, '{}'::jsonb) || jsonb_build_object('txHash', ${txHash}::text)` : sql``;
    return (after, name) => [
      sql`${sql.raw(`${name}_row`)} as (
        update transactions set status = ${to}, updated_at = now()${details}
        where id = ${id}::uuid and status = ${from} and voided_at is null and ${unchanged(read)} and ${after} returning id)`,
      sql`${sql.raw(name)} as materialized (
        select cp_require(exists (select 1 from ${sql.raw(`${name}_row`)}), ${TRANSACTION_CHANGED_STATE}, 'transaction changed') as ok)`,
    ];
  }

  /** `markVoided` as the guard of a one-statement posting, under the same condition as `statusChangeGuard`. */
  voidGuard(id: string, status: TransactionStatus, by: string, read: ReadWith): MoneyGuard {
    return (after, name) => [
      sql`${sql.raw(`${name}_row`)} as (
        update transactions set voided_at = now(), voided_by = ${by}::uuid, updated_at = now()
        where id = ${id}::uuid and status = ${status} and voided_at is null and ${unchanged(read)} and ${after} returning id)`,
      sql`${sql.raw(name)} as materialized (
        select cp_require(exists (select 1 from ${sql.raw(`${name}_row`)}), ${TRANSACTION_CHANGED_STATE}, 'transaction changed') as ok)`,
    ];
  }

  async markVoided(id: string, by: string, executor: Executor): Promise<void> {
    await executor.update(transactions).set({ voidedAt: new Date(), voidedBy: by, updatedAt: new Date() }).where(eq(transactions.id, id));
  }

  async findView(id: string, executor: Executor = this.db): Promise<TransactionView | undefined> {
    const [row] = await this.viewQuery(executor).where(eq(transactions.id, id));
    if (row) this.remember(row as TransactionView);
    else this.forget(id);
    return row as TransactionView | undefined;
  }

  /**
   * Visible (not voided) transactions, newest first by default, keyset on seq. Every filter shape walks an index in
   * seq order and stops after `limit` rows: the customer's history (user_id, seq), the admin filters (status | type |
   * token, seq) where voided_at is null; never OFFSET, never a count.
   */
  async list(filter: TransactionFilter, executor: Executor = this.db): Promise<TransactionView[]> {
    const conditions: SQL[] = [isNull(transactions.voidedAt)];
    if (filter.userId) conditions.push(eq(transactions.userId, filter.userId));
    if (filter.token) conditions.push(eq(transactions.token, filter.token));
    if (filter.type) conditions.push(eq(transactions.type, filter.type));
    if (filter.status) conditions.push(eq(transactions.status, filter.status));
    if (filter.beforeSeq !== undefined) conditions.push(lt(transactions.seq, filter.beforeSeq));
    if (filter.afterSeq !== undefined) conditions.push(gt(transactions.seq, filter.afterSeq));
    const term = filter.search?.trim();
    // The candidates as an array: the page's rows are then read by seq one by one (a handful of index probes), not by
    // merging the candidates with a walk down seq.
    if (term) conditions.push(sql`${transactions.seq} = any(array(${this.searchCandidates(term, and(...conditions)!, filter)}))`);
    const rows = await this.viewQuery(executor)
      .where(and(...conditions))
      .orderBy(filter.ascending ? asc(transactions.seq) : desc(transactions.seq))
      .limit(filter.limit);
    // The admin acts from its list: a change of one of these can then go in one statement.
    for (const row of rows) this.remember(row as TransactionView);
    return rows as TransactionView[];
  }

  /**
   * The seqs of at most `limit` rows per way a row can match the admin search, each branch on its own index (as one OR
   * over the join, the planner could only walk every row in seq order testing each: a rare term read the whole table):
   * - the customers whose name or email contains the term (trigram index) and their rows: when few customers match, per
   *   customer on (user_id, seq); when many, one walk down seq probing a hash of them (the page fills within a few
   *   thousand rows); when most match (a tenth of a sample of customers), one walk down seq looking each row's customer
   *   up (hashing them all would cost more than the walk);
   * - the exact txHash (expression index), the exact transaction id (primary key).
   * Only the branch whose one-time gate holds runs.
   */
  private searchCandidates(term: string, where: SQL, filter: TransactionFilter): SQL {
    const direction = filter.ascending ? sql`asc` : sql`desc`;
    const limit = filter.limit;
    const matches = userMatches(term);
    const matchingUsers = sql`select ${users.id} from ${users} where ${matches}`;
    // Which branch runs, decided once: few = at most FEW_MATCHING_CUSTOMERS match; most = a tenth of a sample does.
    const ctes = sql`matched as materialized (${matchingUsers} limit ${FEW_MATCHING_CUSTOMERS + 1}),
      gate as materialized (
        select few, case when few then false else (select count(*) from (select * from ${users} limit ${SAMPLE_CUSTOMERS}) as ${users} where ${matches}) * 10 >= ${SAMPLE_CUSTOMERS} end as most
        from (select (select count(*) from matched) <= ${FEW_MATCHING_CUSTOMERS} as few) as f)`;
    const walk = (test: SQL, when: SQL) =>
      sql`select c.seq from (select ${transactions.seq} from ${transactions} where ${where} and ${test}
          order by ${transactions.seq} ${direction} limit ${limit}) as c where ${when}`;
    const branches: SQL[] = [
      sql`select c.seq from matched as m
          cross join lateral (select ${transactions.seq} from ${transactions} where ${transactions.userId} = m.id and ${where} order by ${transactions.seq} ${direction} limit ${limit}) as c
          where (select few from gate)`,
      // Under an OR the IN stays a hashed subplan (built once, probed by each row walked); a top-level IN would become a
      // semi join, which the planner prices as a full scan and a sort.
      walk(sql`(${transactions.userId} in (${matchingUsers}) or false)`, sql`(select not few and not most from gate)`),
      // A correlated scalar subquery: one primary-key lookup per row walked (an EXISTS would be hashed over all customers).
      walk(sql`(select ${matches} from ${users} where ${users.id} = ${transactions.userId})`, sql`(select most from gate)`),
      // `details ? 'txHash'` is the predicate of the partial index transactions_tx_hash_idx; a txHash names one
      // transaction (or a handful), read from the index without walking seq.
      sql`select ${transactions.seq} from ${transactions} where ${where} and ${transactions.details} ? 'txHash'
          and lower(${transactions.details} ->> 'txHash') = ${term.toLowerCase()}`,
    ];
    if (UUID.test(term)) branches.push(sql`select ${transactions.seq} from ${transactions} where ${where} and ${transactions.id} = ${term.toLowerCase()}`);
    return sql`with ${ctes} ${sql.join(branches, sql` union all `)}`;
  }

  private viewQuery(executor: Executor) {
    return executor
      .select({ ...columns, userName: users.name, userEmail: users.email, symbol: coins.symbol })
      .from(transactions)
      .innerJoin(users, eq(users.id, transactions.userId))
      .leftJoin(coins, eq(coins.id, transactions.token))
      .$dynamic();
  }
}

/** The row's details and its customer's name and email are still `read` (a condition on `transactions`). */
function unchanged(read: ReadWith): SQL {
  return sql`details is not distinct from ${read.details === null ? null : JSON.stringify(read.details)}::jsonb
    and exists (select 1 from users where users.id = transactions.user_id and users.name = ${read.userName} and users.email = ${read.userEmail})`;
}
