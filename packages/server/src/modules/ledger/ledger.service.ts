import { Inject, Injectable } from '@nestjs/common';
import type { LedgerCheckDto } from '@coinpurse/contract';
import type { SQL } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { randomUUID } from 'node:crypto';
import type { DomainError } from '../../common/errors';
import { DATABASE, type Database, type Executor, type Tx } from '../../db/database';
import { type SqlPiece, toSql } from '../../db/sql-template';
import { inTransaction, sqlState } from './db-transaction';
import { type BalanceChange, LedgerEvents } from './ledger-events';
import { type MoneyRefusal, moneyRefusalOf } from './money-errors';
import type { SqlFunction } from '../../db/sql-function';
import {
  type AccountKey,
  accountKeyString,
  type Delta,
  type ExpectedBalance,
  guardFailureOf,
  isNegativeBalanceViolation,
  LedgerRepository,
  type MoneyGuard,
  type PlatformCode,
} from './ledger.repository';

/** A statement run inside a posting: built per call, or a piece whose text is cached per shape. */
type Statement = SQL | SqlPiece;

/** Serialization failure, deadlock: PostgreSQL aborted the statement; running it again is safe. */
const RETRYABLE_STATES = new Set(['40001', '40P01']);
import { type Money, plain, toMoney } from './money';

export interface Leg {
  account: AccountKey;
  amount: Money;
}

export interface EntryInput {
  kind: string;
  transactionId: string | null;
  reason: string | null;
  createdBy: string | null;
  legs: Leg[];
}

export const customer = (userId: string, token: string): AccountKey => ({ kind: 'customer', userId, token });
export const platform = (code: PlatformCode, token: string, shard?: number | typeof LEASED_SHARD): AccountKey => ({ kind: 'platform', code, token, shard });

/**
 * Shards of each platform account per token (see AccountKey). A posting takes the shard leased to it (LEASED_SHARD):
 * more shards than one instance's postings in flight, so concurrent movements of an instance never wait for each
 * other's platform rows (every swap touches the pool, every send the pending withdrawals of its token).
 */
export const PLATFORM_SHARDS = 64;
/** The shard of a platform account that the ledger leases to the posting (see ShardLeases). */
export const LEASED_SHARD = 'leased';

/**
 * Shard numbers 1..count, one leased to each posting in flight: this instance's concurrent postings never update the
 * same sharded platform row, so none waits for another's row lock, and PostgreSQL never re-checks a row updated
 * meanwhile (an EvalPlanQual pass re-initialises the whole statement's plan: most of a contended swap's cost). Each
 * instance hands the numbers out in its own random order, so two instances seldom share one; past `count` postings in
 * flight, a random shard is shared (a lock wait, never a wrong balance: locks are taken in id order).
 */
export class ShardLeases {
  private readonly free: number[];

  constructor(private readonly count: number) {
    this.free = Array.from({ length: count }, (_, i) => i + 1);
    for (let i = count - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [this.free[i], this.free[j]] = [this.free[j], this.free[i]];
    }
  }

  /** A shard for one posting; `release` it when the posting has committed or failed. */
  lease(): { shard: number; release: () => void } {
    const shard = this.free.pop();
    if (shard === undefined) return { shard: 1 + Math.floor(Math.random() * this.count), release: () => undefined };
    let released = false;
    return {
      shard,
      release: () => {
        if (released) return;
        released = true;
        this.free.push(shard);
      },
    };
  }
}

/** Moves `amount` of `token` from one account to another: the two legs of a simple entry. */
export function transfer(from: AccountKey, to: AccountKey, amount: Money): Leg[] {
  return [
    { account: from, amount: amount.neg() },
    { account: to, amount },
  ];
}

/** The customer accounts of a movement, as balance changes to announce. */
function balanceChanges(customers: Array<{ key: AccountKey }>): BalanceChange[] {
  return customers.flatMap(({ key }) => (key.kind === 'customer' ? [{ userId: key.userId, token: key.token }] : []));
}

interface Move {
  key: AccountKey;
  amount: Money;
}

/** The entry's net amount per account (zero ones dropped); throws when its legs do not sum to zero per token. */
function movesOf(entry: EntryInput): Move[] {
  const deltas = new Map<string, Move>();
  const perToken = new Map<string, Money>();
  for (const leg of entry.legs) {
    const k = accountKeyString(leg.account);
    const current = deltas.get(k);
    deltas.set(k, { key: leg.account, amount: current ? current.amount.add(leg.amount) : leg.amount });
    perToken.set(leg.account.token, (perToken.get(leg.account.token) ?? toMoney(0)).add(leg.amount));
  }
  for (const [token, sum] of perToken) {
    if (!sum.isZero()) throw new Error(`Unbalanced entry ${entry.kind}: ${token} sums to ${sum.toFixed()}`);
  }
  return [...deltas.values()].filter((d) => !d.amount.isZero());
}

/**
 * The only way money moves. Every movement is one journal entry whose lines sum to zero per token; each account's
 * balance row is updated in the same transaction as its lines. Locks: customer accounts first (SELECT ... FOR UPDATE
 * in id order; the CHECK on customer balances refuses overdrafts), platform accounts last (in id order), so every writer
 * takes them in the same global order and hot platform rows are held only for the end of the transaction.
 */
@Injectable()
export class LedgerService {
  /**
   * Account ids never change once committed: cache them to save a round trip per movement. Accounts created inside a
   * transaction are only remembered for that transaction (it may still roll back).
   */
  private readonly ids = new Map<string, string>();
  private readonly createdIn = new WeakMap<object, Map<string, string>>();
  private readonly shards = new ShardLeases(PLATFORM_SHARDS);
  /**
   * Customer balances by account id as this instance last saw them: a hint only, never a figure shown or moved on its
   * own — a posting that decides from one states it (`expectedBalance`, or `balanceGuard` when nothing moves) and
   * aborts unless it is still the balance.
   */
  private readonly balanceHints = new LRUCache<string, string>({ max: 10_000 });

  constructor(
    private readonly repository: LedgerRepository,
    @Inject(DATABASE) private readonly db: Database,
    private readonly events: LedgerEvents,
  ) {}

  /** The ids of these accounts, creating the missing ones. */
  async accountIds(keys: AccountKey[], tx: Executor): Promise<Map<string, string>> {
    // A leased shard is chosen by a posting (prepare): never an account of its own.
    if (keys.some((key) => key.kind === 'platform' && key.shard === LEASED_SHARD)) throw new Error('A leased platform shard is only known within a posting');
    // Outside a transaction every insert commits at once: what it creates can be remembered for good.
    const local = tx === this.db ? this.ids : (this.createdIn.get(tx) ?? new Map<string, string>());
    const lookup = (k: string) => this.ids.get(k) ?? local.get(k);
    const missing = keys.filter((key) => !lookup(accountKeyString(key)));
    if (missing.length) {
      const found = await this.repository.findAccountIds(missing, tx);
      for (const [key, id] of found) this.ids.set(key, id);
      const absent = missing.filter((key) => !found.has(accountKeyString(key)));
      if (absent.length) {
        await this.repository.insertAccounts(absent, tx);
        const created = await this.repository.findAccountIds(absent, tx);
        for (const [key, id] of created) local.set(key, id);
        if (local !== this.ids) this.createdIn.set(tx, local);
      }
    }
    const out = new Map<string, string>();
    for (const key of keys) {
      const id = lookup(accountKeyString(key));
      if (!id) throw new Error(`Ledger account ${accountKeyString(key)} could not be created`);
      out.set(accountKeyString(key), id);
    }
    return out;
  }

  /** Locks a customer's accounts (creating them) and returns their balances by token. Call before deciding amounts. */
  async lockCustomer(userId: string, tokens: string[], tx: Tx): Promise<Map<string, Money>> {
    const keys = [...new Set(tokens)].map((token) => customer(userId, token));
    const ids = await this.accountIds(keys, tx);
    const locked = await this.repository.lockAccounts([...ids.values()], tx);
    const byId = new Map(locked.map((row) => [row.id, toMoney(row.balance)]));
    return new Map(keys.map((key) => [key.token, byId.get(ids.get(accountKeyString(key))!)!]));
  }

  /**
   * A customer's account in `token` (created when missing) and its balance now, no lock: an amount decided from it (e.g.
   * "set the balance to") is then posted with it as `expectedBalance`, which makes it exactly as under a lock.
   */
  async customerBalance(userId: string, token: string): Promise<{ accountId: string; balance: string }> {
    const key = customer(userId, token);
    const accountId = (await this.accountIds([key], this.db)).get(accountKeyString(key))!;
    return { accountId, balance: await this.repository.balanceOf(accountId) };
  }

  /** The id of a customer's account when this instance knows it (no trip; account ids never change). */
  knownAccountId(userId: string, token: string): string | undefined {
    return this.ids.get(accountKeyString(customer(userId, token)));
  }

  /** The balance of a customer account as this instance last saw it (no trip; may be stale: use with `balanceGuard`). */
  balanceHint(accountId: string): string | undefined {
    return this.balanceHints.get(accountId);
  }

  /** Notes a customer account's balance as just read, or as a committed posting left it. */
  rememberBalance(accountId: string, balance: string): void {
    this.balanceHints.set(accountId, balance);
  }

  /** A guard that locks the customer account and aborts with BALANCE_CHANGED_STATE unless its balance is `balance`. */
  balanceGuard(accountId: string, balance: string): MoneyGuard {
    return this.repository.balanceGuard(accountId, balance);
  }

  /**
   * Posts one entry. `onShort(token)` builds the error thrown when a customer balance would go below zero (nothing is
   * written then; the caller's transaction rolls back). `extra` are insert statements run in the same statement as the
   * customer movements (saves round trips). Call it last in the transaction: it takes the platform locks.
   */
  async post(entry: EntryInput, tx: Tx, onShort: (token: string) => DomainError, extra: Statement[] = []): Promise<void> {
    const moves = movesOf(entry);
    if (!moves.length) {
      for (const statement of extra) await tx.execute(toSql(statement));
      return;
    }
    const posting = await this.prepare(entry, moves, tx);
    try {
      // Balance events first (delivered on commit only; no account lock is held yet). Then the customer accounts: locked
      // in id order and updated in the same statement as the entry and its lines; the CHECK (balance >= 0) refuses an
      // overdraft atomically, under the lock.
      await this.publishBalances(posting.customers, tx);
      await posting.write([], extra, onShort, tx);
      // Platform accounts last (the hottest rows are held only until the commit), also in id order.
      await this.repository.lockAndAdd(posting.platforms, tx);
    } finally {
      // The shard's row stays locked until the caller's commit: a posting leasing it meanwhile waits for that.
      posting.release();
    }
  }

  /**
   * Posts one entry as a single atomic write statement (hot paths such as swaps: no round trip is made while account
   * locks are held before it). `extra` statements (transaction row, audit row, idempotency record) commit with it.
   * It runs in a transaction after `before` (reads and share locks that must hold until the movement commits, e.g.
   * re-checking the tokens), which locks no account; the customers' balance events are sent by the same statement
   * (delivered on commit). A deadlock is retried.
   */
  async postAtomically(entry: EntryInput, onShort: (token: string) => DomainError, extra: Statement[] = [], before?: (tx: Tx) => Promise<void>): Promise<void> {
    const moves = movesOf(entry);
    if (!moves.length) throw new Error(`Empty entry ${entry.kind}`);
    const posting = await this.prepare(entry, moves, this.db);
    try {
      await inTransaction(this.db, async (tx) => {
        await before?.(tx);
        await posting.write(posting.platforms, extra, onShort, tx);
      });
    } finally {
      posting.release();
    }
    this.events.announceBalanceChanges(balanceChanges(posting.customers));
  }

  /**
   * Posts one entry in ONE round trip (steady state): a single autocommit statement runs the `guards` in order (e.g. the
   * idempotency claim, the tokens' share locks, price and allowlist checks), then locks and moves the customer accounts
   * (the CHECK refuses an overdraft), then the platform accounts, and writes `extra` (transaction, audit, notification,
   * outbox rows), the entry and its lines. Once it committed, the customers' balance events and the `announce`
   * callbacks (e.g. a notification's live event, a mail job's wake-up) are announced (see Announcer). A guard that
   * fails aborts everything: `onGuard(code, detail)` gives the error to throw (undefined: rethrown as is). An entry whose
   * legs move nothing writes no journal entry, only the guards and `extra`. Only a new account costs more trips
   * (created first, then cached). A deadlock or serialization failure is retried.
   */
  async postInOneRoundTrip(
    entry: EntryInput,
    onShort: (token: string) => DomainError,
    options: {
      extra?: Statement[];
      announce?: Array<() => void>;
      guards?: MoneyGuard[];
      onGuard?: (code: string, detail: string) => Error | undefined;
      /** Values the statement returns (a movement only), e.g. a guard's CTE: `sql\`(select x from cte) as x\``. */
      returning?: SQL;
      /**
       * The balance the movement was decided from, of its one customer account: its UPDATE applies only while the
       * balance is still that one, else the statement aborts with BALANCE_CHANGED_STATE naming the balance found (see
       * `changedBalanceOf`). A posting that moves nothing states it with `balanceGuard` instead.
       */
      expectedBalance?: ExpectedBalance;
    } = {},
    attempts = 4,
  ): Promise<Record<string, unknown> | undefined> {
    const moves = movesOf(entry);
    // No money moves (e.g. a pending deposit): only the guards and the rows, and no journal entry (as `post`).
    const posting = moves.length ? await this.prepare(entry, moves, this.db) : undefined;
    let returned: Record<string, unknown> | undefined;
    try {
      returned = await this.writeWithRetries(attempts, options, async () => {
        if (posting) return posting.writeOnce(options.extra ?? [], onShort, options.guards ?? [], options.returning, options.expectedBalance);
        await this.repository.guardedWrite(options.extra ?? [], options.guards ?? []);
        return undefined;
      });
    } finally {
      posting?.release();
    }
    // Committed (an autocommit statement that answered): announce it.
    if (posting) this.events.announceBalanceChanges(balanceChanges(posting.customers));
    for (const announce of options.announce ?? []) announce();
    return returned;
  }

  /** Runs `write`, again after a deadlock or serialization failure; a failed guard throws `onGuard`'s error. */
  private async writeWithRetries<T>(
    attempts: number,
    options: { onGuard?: (code: string, detail: string) => Error | undefined },
    write: () => Promise<T>,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await write();
      } catch (error) {
        const failed = guardFailureOf(error);
        if (failed) throw options.onGuard?.(failed.code, failed.detail) ?? error;
        if (attempt >= attempts || !RETRYABLE_STATES.has(sqlState(error) ?? '')) throw error;
        await new Promise((resolve) => setTimeout(resolve, 5 * attempt + Math.random() * 10));
      }
    }
  }

  /**
   * The account ids of the moves (created when missing) and a `write` that runs the customer movements — plus the given
   * platform ones — with the entry, its lines and `extra` in one statement, mapping an overdraft to `onShort`.
   */
  private async prepare(entry: EntryInput, moves: Move[], executor: Executor) {
    // A leased shard for the accounts that take one (the same for every such account of this posting).
    const lease = moves.some((m) => m.key.kind === 'platform' && m.key.shard === LEASED_SHARD) ? this.shards.lease() : undefined;
    if (lease) {
      moves = moves.map((m) => (m.key.kind === 'platform' && m.key.shard === LEASED_SHARD ? { ...m, key: { ...m.key, shard: lease.shard } } : m));
    }
    let ids: Map<string, string>;
    try {
      ids = await this.accountIds(
        moves.map((m) => m.key),
        executor,
      );
    } catch (error) {
      lease?.release();
      throw error;
    }
    const deltasOf = (kind: AccountKey['kind']) =>
      moves.filter((m) => m.key.kind === kind).map((m) => ({ key: m.key, id: ids.get(accountKeyString(m.key))!, delta: plain(m.amount), amount: m.amount }));
    const customers = deltasOf('customer');
    const platforms = deltasOf('platform');
    const row = { id: randomUUID(), kind: entry.kind, transactionId: entry.transactionId, reason: entry.reason, createdBy: entry.createdBy };
    const lines = moves.map((m) => ({ accountId: ids.get(accountKeyString(m.key))!, token: m.key.token, amount: plain(m.amount) }));
    const write = async (platformDeltas: Delta[], extra: Statement[], onShort: (token: string) => DomainError, tx: Tx) => {
      try {
        await this.repository.postInOneStatement(customers, platformDeltas, row, lines, extra, tx);
      } catch (error) {
        if (isNegativeBalanceViolation(error)) throw onShort((customers.find((m) => m.amount.isNegative()) ?? customers[0]).key.token);
        throw error;
      }
    };
    /** Everything in one autocommit statement (no BEGIN/COMMIT trips). */
    const writeOnce = async (
      extra: Statement[],
      onShort: (token: string) => DomainError,
      guards: MoneyGuard[],
      returning?: SQL,
      expected?: ExpectedBalance,
    ) => {
      try {
        return await this.repository.postInOneStatement(customers, platforms, row, lines, extra, this.db, guards, returning, expected);
      } catch (error) {
        if (isNegativeBalanceViolation(error)) throw onShort((customers.find((m) => m.amount.isNegative()) ?? customers[0]).key.token);
        throw error;
      }
    };
    return { customers, platforms, write, writeOnce, release: () => lease?.release() };
  }

  /** Each customer account of the movement, announced as changed when `tx` commits (clients refetch). */
  private async publishBalances(customers: Array<{ key: AccountKey }>, tx: Tx): Promise<void> {
    await this.events.publishBalanceChanges(balanceChanges(customers), tx);
  }

  /**
   * Runs one money operation: a function of the migrations (see drizzle/0012_ledger_core.sql), given its values — the
   * platform shard leased to this call is passed in by `args` — as one autocommit statement (one round trip). Once it
   * committed, the customers' balance changes and the `announce` callbacks (a notification's live event, a mail job's
   * wake-up) are announced. A refusal it raised throws `refuse(code, detail)`'s error (undefined: rethrown as is); a
   * deadlock or serialization failure runs it again (nothing of it was written).
   */
  async run(
    operation: SqlFunction,
    args: (shard: number) => readonly unknown[],
    options: {
      changes?: BalanceChange[];
      announce?: Array<() => void>;
      refuse?: (refusal: MoneyRefusal) => Error | undefined;
      /** Test hook (see IdempotencyService.pauseAfterClaim): the call runs in a transaction that awaits this before its commit. */
      beforeCommit?: () => Promise<void>;
    } = {},
    attempts = 4,
  ): Promise<unknown> {
    const lease = this.shards.lease();
    let result: unknown;
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          const beforeCommit = options.beforeCommit;
          result = beforeCommit
            ? await this.db.transaction(async (tx) => {
                const value = await operation.call(this.db, args(lease.shard), tx);
                await beforeCommit();
                return value;
              })
            : await operation.call(this.db, args(lease.shard));
          break;
        } catch (error) {
          const refusal = moneyRefusalOf(error);
          if (refusal) throw options.refuse?.(refusal) ?? error;
          if (attempt >= attempts || !RETRYABLE_STATES.has(sqlState(error) ?? '')) throw error;
          await new Promise((resolve) => setTimeout(resolve, 5 * attempt + Math.random() * 10));
        }
      }
    } finally {
      lease.release();
    }
    if (options.changes?.length) this.events.announceBalanceChanges(options.changes);
    for (const announce of options.announce ?? []) announce();
    return result;
  }

  /**
   * `run` inside the caller's transaction (a four-eyes approval being applied, a chain job under its row locks): the
   * balance changes are published on commit; a refusal throws `refuse`'s error and the caller's transaction rolls back.
   */
  async runIn(
    tx: Tx,
    operation: SqlFunction,
    args: (shard: number) => readonly unknown[],
    options: { changes?: BalanceChange[]; refuse?: (refusal: MoneyRefusal) => Error | undefined } = {},
  ): Promise<unknown> {
    const lease = this.shards.lease();
    try {
      const result = await operation.call(this.db, args(lease.shard), tx);
      if (options.changes?.length) await this.events.publishBalanceChanges(options.changes, tx);
      return result;
    } catch (error) {
      const refusal = moneyRefusalOf(error);
      throw (refusal && options.refuse?.(refusal)) || error;
    } finally {
      // The shard's row stays locked until the caller's commit: a call leasing it meanwhile waits for that.
      lease.release();
    }
  }

  /** Σ lines = 0 per token, every balance = Σ its lines, no customer balance below zero. */
  async check(executor?: Executor): Promise<LedgerCheckDto> {
    const [sums, mismatches, stats] = [
      await this.repository.tokenSums(executor),
      await this.repository.balanceMismatches(executor),
      await this.repository.accountStats(executor),
    ];
    const tokens = sums.map((row) => ({ token: row.token, sum: plain(row.sum), ok: toMoney(row.sum).isZero() }));
    return {
      ok: tokens.every((t) => t.ok) && mismatches.length === 0 && stats.negativeCustomer === 0,
      tokens,
      mismatches: mismatches.map((m) => ({ ...m, balance: plain(m.balance), linesSum: plain(m.linesSum) })),
      negativeCustomerBalances: stats.negativeCustomer,
      accounts: stats.accounts,
      lines: sums.reduce((n, row) => n + Number(row.lines), 0),
      checkedAt: new Date().toISOString(),
    };
  }

  liabilities(executor?: Executor) {
    return this.repository.liabilities(executor);
  }

  async customerBalances(userIds: string[], executor?: Executor) {
    const rows = await this.repository.customerBalances(userIds, executor);
    // Read outside a transaction: committed balances, hints for a later adjustment (see balanceHint).
    if (!executor || executor === this.db) {
      for (const row of rows) {
        const id = this.knownAccountId(row.userId, row.token);
        if (id) this.balanceHints.set(id, row.balance);
      }
    }
    return rows;
  }
}
