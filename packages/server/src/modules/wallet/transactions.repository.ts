import { Inject, Injectable } from '@nestjs/common';
import type { TransactionStatus, TransactionType } from '@coinpurse/contract';
import { and, asc, desc, eq, gt, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { userMatches } from '../../common/search';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { coins, transactions, users } from '../../db/schema';
import type { MoneyGuard } from '../ledger/ledger.repository';

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

@Injectable()
export class TransactionsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

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
   * statement commits — only while it still has the status it was read with and is not voided; otherwise the statement
   * aborts with TRANSACTION_CHANGED_STATE (the caller then takes the row lock and decides again).
   */
  statusChangeGuard(id: string, from: TransactionStatus, to: TransactionStatus, txHash?: string): MoneyGuard {
    const details = txHash ? sql`, details = coalesce(details, '{}'::jsonb) || jsonb_build_object('txHash', ${txHash}::text)` : sql``;
    return (after, name) => [
      sql`${sql.raw(`${name}_row`)} as (
        update transactions set status = ${to}, updated_at = now()${details}
        where id = ${id}::uuid and status = ${from} and voided_at is null and ${after} returning id)`,
      sql`${sql.raw(name)} as materialized (
        select cp_require(exists (select 1 from ${sql.raw(`${name}_row`)}), ${TRANSACTION_CHANGED_STATE}, 'transaction changed') as ok)`,
    ];
  }

  /** `markVoided` as the guard of a one-statement posting, under the same condition as `statusChangeGuard`. */
  voidGuard(id: string, status: TransactionStatus, by: string): MoneyGuard {
    return (after, name) => [
      sql`${sql.raw(`${name}_row`)} as (
        update transactions set voided_at = now(), voided_by = ${by}::uuid, updated_at = now()
        where id = ${id}::uuid and status = ${status} and voided_at is null and ${after} returning id)`,
      sql`${sql.raw(name)} as materialized (
        select cp_require(exists (select 1 from ${sql.raw(`${name}_row`)}), ${TRANSACTION_CHANGED_STATE}, 'transaction changed') as ok)`,
    ];
  }

  async markVoided(id: string, by: string, executor: Executor): Promise<void> {
    await executor.update(transactions).set({ voidedAt: new Date(), voidedBy: by, updatedAt: new Date() }).where(eq(transactions.id, id));
  }

  async findView(id: string, executor: Executor = this.db): Promise<TransactionView | undefined> {
    const [row] = await this.viewQuery(executor).where(eq(transactions.id, id));
    return row as TransactionView | undefined;
  }

  /** Visible (not voided) transactions, newest first by default, keyset on seq. */
  async list(filter: TransactionFilter, executor: Executor = this.db): Promise<TransactionView[]> {
    const conditions: SQL[] = [isNull(transactions.voidedAt)];
    if (filter.userId) conditions.push(eq(transactions.userId, filter.userId));
    if (filter.token) conditions.push(eq(transactions.token, filter.token));
    if (filter.type) conditions.push(eq(transactions.type, filter.type));
    if (filter.status) conditions.push(eq(transactions.status, filter.status));
    if (filter.beforeSeq !== undefined) conditions.push(lt(transactions.seq, filter.beforeSeq));
    if (filter.afterSeq !== undefined) conditions.push(gt(transactions.seq, filter.afterSeq));
    const term = filter.search?.trim();
    if (term) {
      const exact = [userMatches(term), sql`lower(${transactions.details} ->> 'txHash') = ${term.toLowerCase()}`];
      if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(term)) exact.push(eq(transactions.id, term.toLowerCase()));
      conditions.push(or(...exact)!);
    }
    const rows = await this.viewQuery(executor)
      .where(and(...conditions))
      .orderBy(filter.ascending ? asc(transactions.seq) : desc(transactions.seq))
      .limit(filter.limit);
    return rows as TransactionView[];
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
