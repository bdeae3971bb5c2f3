import { Inject, Injectable } from '@nestjs/common';
import type { TransactionStatus, TransactionType } from '@coinpurse/contract';
import { and, asc, desc, eq, gt, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { userMatches } from '../../common/search';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { coins, transactions, users } from '../../db/schema';
import { UUID_TEXT } from '../../common/page-cursor';

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
  /** One transaction by id (a notification links to it). */
  id?: string;
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
  /** A condition of the caller's on `transactions` (the admin's withdrawal queues). */
  where?: SQL;
}

/** Up to this many customers matching an admin search, their rows are read per customer; above, in one walk down seq. */
const FEW_MATCHING_CUSTOMERS = 1000;
/** Customers sampled to tell a term that matches most of them (a tenth or more of the sample). */
const SAMPLE_CUSTOMERS = 1000;

@Injectable()
export class TransactionsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async findView(id: string, executor: Executor = this.db): Promise<TransactionView | undefined> {
    const [row] = await this.viewQuery(executor).where(eq(transactions.id, id));
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
    if (filter.id) conditions.push(eq(transactions.id, filter.id));
    if (filter.token) conditions.push(eq(transactions.token, filter.token));
    if (filter.type) conditions.push(eq(transactions.type, filter.type));
    if (filter.status) conditions.push(eq(transactions.status, filter.status));
    if (filter.beforeSeq !== undefined) conditions.push(lt(transactions.seq, filter.beforeSeq));
    if (filter.afterSeq !== undefined) conditions.push(gt(transactions.seq, filter.afterSeq));
    if (filter.where) conditions.push(filter.where);
    const term = filter.search?.trim();
    // The candidates as an array: the page's rows are then read by seq one by one (a handful of index probes), not by
    // merging the candidates with a walk down seq.
    if (term) conditions.push(sql`${transactions.seq} = any(array(${this.searchCandidates(term, and(...conditions)!, filter)}))`);
    const rows = await this.viewQuery(executor)
      .where(and(...conditions))
      .orderBy(filter.ascending ? asc(transactions.seq) : desc(transactions.seq))
      .limit(filter.limit);
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
    if (UUID_TEXT.test(term)) branches.push(sql`select ${transactions.seq} from ${transactions} where ${where} and ${transactions.id} = ${term.toLowerCase()}`);
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
