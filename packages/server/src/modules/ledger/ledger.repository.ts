import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { type Bind, isSqlPiece, literal, type SqlPiece, sqlPiece, StatementTemplates, valuesOf } from '../../db/sql-template';
import { ledgerAccounts } from '../../db/schema';

/** Platform accounts, one per token: the other side of every customer movement. */
export type PlatformCode = 'deposits' | 'withdrawals_pending' | 'withdrawals_settled' | 'swap_pool' | 'adjustments' | 'network_fees' | 'network_fee_margin';

/**
 * A platform account may be split into shards (`swap_pool#3`): each shard is an ordinary account with its own lines and
 * balance; together they are the platform account. Sharding spreads the row locks of hot accounts (every swap touches
 * the swap pool) so concurrent movements do not queue on one row.
 */
export type AccountKey =
  | { kind: 'customer'; userId: string; token: string }
  /** `shard: 'leased'`: the shard the ledger leases to the posting (replaced by its number before any lookup). */
  | { kind: 'platform'; code: PlatformCode; token: string; shard?: number | 'leased' };

export function platformCodeOf(key: { code: PlatformCode; shard?: number | 'leased' }): string {
  return key.shard ? `${key.code}#${key.shard}` : key.code;
}

export function accountKeyString(key: AccountKey): string {
  return key.kind === 'customer' ? `c:${key.userId}:${key.token}` : `p:${platformCodeOf(key)}:${key.token}`;
}

/** The error PostgreSQL raises when a customer balance would go below zero. */
export function isNegativeBalanceViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const e = current as { code?: unknown; constraint?: unknown; message?: unknown };
    if (
      e.code === '23514' &&
      (e.constraint === 'ledger_accounts_customer_nonnegative' || String(e.message ?? '').includes('ledger_accounts_customer_nonnegative'))
    )
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export interface LockedAccount {
  id: string;
  balance: string;
}

export interface LineInput {
  accountId: string;
  token: string;
  amount: string;
}

async function rows<T>(executor: Executor, query: SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export interface Delta {
  id: string;
  delta: string;
}

/** A customer account's balance a one-statement posting was decided from (see `lockAndAddCtes`). */
export interface ExpectedBalance {
  accountId: string;
  balance: string;
}

/**
 * A check run in a one-statement posting before any account is locked. Given `after` (a boolean SQL expression to put
 * in its conditions: it forces the check after the previous guard) and a CTE `name`, it returns CTE definitions
 * (`x as (...)`), the last one being `name`: one row whose `ok` is true, or the check raises through
 * `cp_require(condition, sqlstate, detail)` (migration 0002), which aborts the whole statement. As an `SqlPiece` (its
 * values bound, its text fixed by its key) the posting's text is built once per shape.
 */
export type MoneyGuard = ((after: SQL, name: string) => SQL[]) | SqlPiece<[after: SQL, name: string]>;

/** SQLSTATE of a one-statement posting whose account balance changed since it was read (see `balanceGuard`). */
export const BALANCE_CHANGED_STATE = 'CPB01';
const BALANCE_CHANGED_PREFIX = 'balance changed: ';

/** The balance a failed `balanceGuard` found under its lock (undefined: another error, or no account row). */
export function changedBalanceOf(error: unknown): string | undefined {
  const failure = guardFailureOf(error);
  if (failure?.code !== BALANCE_CHANGED_STATE || !failure.detail.startsWith(BALANCE_CHANGED_PREFIX)) return undefined;
  const balance = failure.detail.slice(BALANCE_CHANGED_PREFIX.length);
  return /^-?\d+(\.\d+)?$/.test(balance) ? balance : undefined;
}

/** The SQLSTATE and message a guard raised with (`cp_require`), if the error is one. */
export function guardFailureOf(error: unknown): { code: string; detail: string } | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const e = current as { code?: unknown; message?: unknown };
    if (typeof e.code === 'string' && e.code.startsWith('CP')) return { code: e.code, detail: String(e.message ?? '') };
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export interface EntryRow {
  id: string;
  kind: string;
  transactionId: string | null;
  reason: string | null;
  createdBy: string | null;
}

/**
 * Two CTEs: `<name>_locked` locks the accounts FOR NO KEY UPDATE (the row lock an UPDATE takes) in id order, only once
 * `after` is true (a scalar subquery that forces an order between CTEs), and `<name>_moved` adds each delta to its
 * balance and returns the new one. A customer balance going below zero violates its CHECK: the caller maps that error.
 * Its values: the `count` account ids, then their deltas (see `deltaValues`), then with `expectBalance` (one account)
 * the balance it must still have: the UPDATE applies only then, and re-checks that on the newest row version
 * (EvalPlanQual) whatever ran concurrently — a locking sub-select alone was measured to let a stale balance through now
 * and then under contention. `<name>_locked` then also names the balance it found.
 */
function lockAndAddCtes(name: string, count: number, bind: Bind, after?: SQL, expectBalance = false): SQL {
  const locked = sql.raw(`${name}_locked`);
  const ids: SQL[] = [];
  const values: SQL[] = [];
  for (let i = 0; i < count; i++) {
    ids.push(sql`${bind(i)}::uuid`);
    values.push(sql`(${bind(i)}::uuid, ${bind(count + i)}::numeric)`);
  }
  const expected = expectBalance ? sql` and a.balance = ${bind(2 * count)}::numeric` : sql``;
  return sql`${locked} as (select id${expectBalance ? sql`, balance` : sql``} from ledger_accounts where id in (${sql.join(ids, sql`, `)})${after ? sql` and ${after}` : sql``} order by id for no key update), ${sql.raw(`${name}_moved`)} as (update ledger_accounts as a set balance = a.balance + v.delta from (values ${sql.join(values, sql`, `)}) as v(id, delta), ${locked} where a.id = v.id and ${locked}.id = a.id${expected} returning a.id, a.balance)`;
}

/**
 * In a one-statement posting with one customer account: that account's balance just before the movement, from the
 * movement's own UPDATE (the newest row version, whatever ran concurrently), given the delta applied to it.
 */
export function customerBalanceBefore(delta: string): SQL {
  return sql`((select balance from c_moved) - ${delta}::numeric)`;
}

function deltaValues(deltas: Delta[]): string[] {
  return [...deltas.map((d) => d.id), ...deltas.map((d) => d.delta)];
}

/** A part of a one-statement posting: a piece (cacheable text) or SQL built for this call only. */
interface Part {
  key: string | undefined;
  values: readonly unknown[];
  build: (bind: Bind) => SQL;
}

const NO_VALUES: readonly unknown[] = [];

function partOf(statement: SQL | SqlPiece): Part {
  if (isSqlPiece(statement)) return { key: statement.key, values: statement.values, build: (bind) => statement.build(bind) };
  return { key: undefined, values: NO_VALUES, build: () => statement };
}

function guardPart(guard: MoneyGuard, after: SQL, name: string): Part {
  if (isSqlPiece(guard)) return { key: guard.key, values: guard.values, build: (bind) => guard.build(bind, after, name) };
  return { key: undefined, values: NO_VALUES, build: () => sql.join(guard(after, name), sql`, `) };
}

/** The guards' parts, each forced after the previous one; `after` is the last one's value (undefined: no guard). */
function guardParts(guards: MoneyGuard[]): { parts: Part[]; after: SQL | undefined } {
  const parts: Part[] = [];
  let after: SQL | undefined;
  guards.forEach((guard, i) => {
    parts.push(guardPart(guard, after ?? sql`true`, `g_${i}`));
    after = sql.raw(`(select ok from g_${i})`);
  });
  return { parts, after };
}

/** The `extra` statements as CTEs `extra_<i>`. */
function rowParts(extra: Array<SQL | SqlPiece>): Part[] {
  return extra.map((statement, i) => {
    const part = partOf(statement);
    return { ...part, build: (bind: Bind) => sql`${sql.raw(`extra_${i}`)} as (${part.build(bind)})` };
  });
}

@Injectable()
export class LedgerRepository {
  private readonly templates = new StatementTemplates();

  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async findAccountIds(keys: AccountKey[], executor: Executor = this.db): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    if (!keys.length) return found;
    const conditions = keys.map((key) =>
      key.kind === 'customer'
        ? and(eq(ledgerAccounts.kind, 'customer'), eq(ledgerAccounts.userId, key.userId), eq(ledgerAccounts.token, key.token))
        : and(eq(ledgerAccounts.kind, 'platform'), eq(ledgerAccounts.platformCode, platformCodeOf(key)), eq(ledgerAccounts.token, key.token)),
    );
    const result = await executor
      .select({
        id: ledgerAccounts.id,
        kind: ledgerAccounts.kind,
        userId: ledgerAccounts.userId,
        platformCode: ledgerAccounts.platformCode,
        token: ledgerAccounts.token,
      })
      .from(ledgerAccounts)
      .where(or(...conditions));
    for (const row of result) {
      found.set(row.kind === 'customer' ? `c:${row.userId}:${row.token}` : `p:${row.platformCode}:${row.token}`, row.id);
    }
    return found;
  }

  /** Creates the accounts that do not exist yet (a concurrent creator wins silently); in a stable order. */
  async insertAccounts(keys: AccountKey[], executor: Executor = this.db): Promise<void> {
    if (!keys.length) return;
    const sorted = [...keys].sort((a, b) => accountKeyString(a).localeCompare(accountKeyString(b)));
    await executor
      .insert(ledgerAccounts)
      .values(
        sorted.map((key) =>
          key.kind === 'customer'
            ? { kind: 'customer' as const, userId: key.userId, token: key.token }
            : { kind: 'platform' as const, platformCode: platformCodeOf(key), token: key.token },
        ),
      )
      .onConflictDoNothing();
  }

  /**
   * SELECT ... FOR NO KEY UPDATE (the row lock an UPDATE takes) in account id order: every writer takes its locks in the
   * same order. Not plain FOR UPDATE: that would also conflict with the KEY SHARE locks the journal lines' foreign key
   * takes on the accounts, and two movements could then deadlock.
   */
  async lockAccounts(ids: string[], executor: Executor): Promise<LockedAccount[]> {
    if (!ids.length) return [];
    return executor
      .select({ id: ledgerAccounts.id, balance: ledgerAccounts.balance })
      .from(ledgerAccounts)
      .where(inArray(ledgerAccounts.id, ids))
      .orderBy(asc(ledgerAccounts.id))
      .for('no key update');
  }

  /** Locks the accounts (FOR NO KEY UPDATE in account id order) and adds each delta to its balance, in one statement. */
  async lockAndAdd(deltas: Delta[], executor: Executor): Promise<void> {
    if (!deltas.length) return;
    await executor.execute(sql`with ${lockAndAddCtes('p', deltas.length, valuesOf(deltaValues(deltas)))} select count(*) from p_moved`);
  }

  /**
   * A whole movement in ONE statement (atomic on its own, no round trips while its locks are held): customer accounts
   * locked FOR NO KEY UPDATE in id order and updated (the CHECK refuses an overdraft), then — forced after them by the
   * scalar subquery — the platform accounts, in id order; the caller's extra inserts (e.g. the transaction row); the
   * entry and its lines (insert-only). Same global lock order everywhere: customer accounts, then platform accounts.
   */
  async postInOneStatement(
    customerDeltas: Delta[],
    platformDeltas: Delta[],
    entry: EntryRow,
    lines: LineInput[],
    extra: Array<SQL | SqlPiece>,
    executor: Executor = this.db,
    guards: MoneyGuard[] = [],
    returning?: SQL,
    expected?: ExpectedBalance,
  ): Promise<Record<string, unknown> | undefined> {
    // Guards first, each forced after the previous one; the customer locks only after the last one passed.
    const { parts, after: afterGuards } = guardParts(guards);
    const nc = customerDeltas.length;
    const np = platformDeltas.length;
    const afterCustomers = afterGuards;
    if (expected && (nc !== 1 || customerDeltas[0].id !== expected.accountId || !guards.length)) {
      throw new Error('An expected balance applies to the one customer account of a guarded movement');
    }
    if (nc) {
      const values = expected ? [...deltaValues(customerDeltas), expected.balance] : deltaValues(customerDeltas);
      parts.push({ key: `c${nc}${expected ? 'x' : ''}`, values, build: (bind) => lockAndAddCtes('c', nc, bind, afterCustomers, !!expected) });
    }
    if (np) {
      const after = nc ? sql`(select count(*) from c_moved) >= 0` : afterGuards;
      parts.push({ key: `p${np}`, values: deltaValues(platformDeltas), build: (bind) => lockAndAddCtes('p', np, bind, after) });
    }
    parts.push(...rowParts(extra));
    parts.push({
      key: 'e',
      values: [entry.id, entry.kind, entry.transactionId, entry.reason, entry.createdBy],
      build: (bind) => sql`e as (
        insert into journal_entries (id, kind, transaction_id, reason, created_by)
        values (${bind(0)}::uuid, ${bind(1)}, ${bind(2)}::uuid, ${bind(3)}, ${bind(4)}::uuid)
        returning id)`,
    });
    const nl = lines.length;
    const lineValues: unknown[] = [];
    for (const line of lines) lineValues.push(line.accountId, line.token, line.amount);
    const lineCount = parts.length;
    parts.push({ key: `l${nl}`, values: lineValues, build: () => sql`` });
    // With guards, a guard that yielded no row would lock (and move) nothing: the lines are written only when every
    // account was moved (never expected to fail; a 500 rather than an inconsistent ledger).
    const movedCounts = [
      ...(nc && !expected ? [sql.raw(`(select count(*) from c_moved) = ${nc}`)] : []),
      ...(np ? [sql.raw(`(select count(*) from p_moved) = ${np}`)] : []),
    ];
    // The customer account not updated with an expected balance: it changed (the message names the one found).
    const expectedCheck = expected
      ? sql`cp_require((select count(*) from c_moved) = 1, ${literal(BALANCE_CHANGED_STATE)}, ${literal(BALANCE_CHANGED_PREFIX)} || coalesce((select max(balance)::text from c_locked), 'none')) and `
      : sql``;
    const movedCheck = sql` where ${expectedCheck}cp_require(${sql.join(movedCounts.length ? movedCounts : [sql`true`], sql` and `)}, 'XX000', 'ledger: not every account of the movement was updated')`;
    const assemble = (bindOf: (part: number) => Bind) => {
      const bindLines = bindOf(lineCount);
      const rows: SQL[] = [];
      for (let i = 0; i < nl; i++) rows.push(sql`(${bindLines(3 * i)}::uuid, ${bindLines(3 * i + 1)}, ${bindLines(3 * i + 2)}::numeric)`);
      const ctes = parts.slice(0, lineCount).map((part, i) => part.build(bindOf(i)));
      return sql`with ${sql.join(ctes, sql`, `)}
      insert into journal_lines (entry_id, account_id, token, amount)
      select e.id, v.account_id, v.token, v.amount from e cross join (values ${sql.join(rows, sql`, `)}) as v(account_id, token, amount)${guards.length ? movedCheck : sql``}${returning ? sql` returning ${returning}` : sql``}`;
    };
    // `returning` (SQL built for this call: not cached): one row per line; the caller asks for values of the statement
    // (e.g. a guard's CTE), the same on each.
    const rows = await this.run(parts, assemble, executor, `post|g${guards.length}`, !returning);
    return rows[0];
  }

  /**
   * Runs a statement made of `parts`: from its cached text when every part is a piece and it runs on its own (not in a
   * transaction), else built for this call.
   */
  private async run(
    parts: Part[],
    assemble: (bindOf: (part: number) => Bind) => SQL,
    executor: Executor,
    kind: string,
    cacheable = true,
  ): Promise<Array<Record<string, unknown>>> {
    if (cacheable && executor === this.db && parts.every((part) => part.key !== undefined)) {
      return this.templates.run(this.db, `${kind}|${parts.map((part) => part.key).join('|')}`, parts, assemble);
    }
    const result = await executor.execute(StatementTemplates.inline(parts, assemble));
    return (result as unknown as { rows: Array<Record<string, unknown>> }).rows;
  }

  /**
   * A one-statement write that moves no money (e.g. a pending deposit, the void of one): the `guards` in order, then the
   * `extra` rows, in one autocommit statement. A failed guard aborts it all. The final select references the last
   * guard, so the whole chain runs.
   */
  async guardedWrite(extra: Array<SQL | SqlPiece>, guards: MoneyGuard[], executor: Executor = this.db): Promise<void> {
    const { parts, after: afterGuards } = guardParts(guards);
    parts.push(...rowParts(extra));
    if (!parts.length) return;
    // The guard's value must be used by the outer query (here: aggregated): an output column nobody reads is pruned by
    // the planner, and with it the reference to the last guard, which would then never run.
    const last = afterGuards ?? sql`true`;
    await this.run(
      parts,
      (bindOf) =>
        sql`with ${sql.join(
          parts.map((part, i) => part.build(bindOf(i))),
          sql`, `,
        )} select bool_and(guarded.ok) from (select ${last} as ok) as guarded`,
      executor,
      `guarded|g${guards.length}`,
    );
  }

  /** An account's balance now (no lock). */
  async balanceOf(accountId: string, executor: Executor = this.db): Promise<string> {
    const [row] = await executor.select({ balance: ledgerAccounts.balance }).from(ledgerAccounts).where(eq(ledgerAccounts.id, accountId));
    return row?.balance ?? '0';
  }

  /**
   * A guard of a one-statement posting that locks the account (FOR NO KEY UPDATE, as the movement will; it waits for a
   * concurrent writer and then sees its committed balance) and aborts with BALANCE_CHANGED_STATE unless the balance is
   * still `expected`. The error's message then names the balance it found (see `changedBalanceOf`): a caller that
   * decided from a stale balance can decide again without a read of its own.
   */
  balanceGuard(accountId: string, expected: string): MoneyGuard {
    return sqlPiece<[SQL, string]>(
      'balance',
      [expected, accountId],
      (bind, after, name) => sql`${sql.raw(name)} as materialized (
        select cp_require(coalesce(bool_and(locked.balance = ${bind(0)}::numeric), false), ${literal(BALANCE_CHANGED_STATE)},
          ${literal(BALANCE_CHANGED_PREFIX)} || coalesce(max(locked.balance)::text, 'none')) as ok
        from (select balance from ledger_accounts where id = ${bind(1)}::uuid and ${after} for no key update) as locked)`,
    );
  }

  async customerBalances(userIds: string[], executor: Executor = this.db): Promise<Array<{ userId: string; token: string; balance: string }>> {
    if (!userIds.length) return [];
    const result = await executor
      .select({ userId: ledgerAccounts.userId, token: ledgerAccounts.token, balance: ledgerAccounts.balance })
      .from(ledgerAccounts)
      .where(and(eq(ledgerAccounts.kind, 'customer'), inArray(ledgerAccounts.userId, userIds)));
    return result.map((row) => ({ userId: row.userId!, token: row.token, balance: row.balance }));
  }

  /** Per token: Σ of all lines (must be 0). */
  async tokenSums(executor: Executor = this.db): Promise<Array<{ token: string; sum: string; lines: number }>> {
    return rows(executor, sql`select token, sum(amount)::text as sum, count(*)::int as lines from journal_lines group by token order by token`);
  }

  /** Accounts whose balance differs from the sum of their lines. */
  async balanceMismatches(executor: Executor = this.db): Promise<Array<{ accountId: string; token: string; balance: string; linesSum: string }>> {
    return rows(
      executor,
      sql`select a.id as "accountId", a.token, a.balance::text as balance, coalesce(l.sum, 0)::text as "linesSum"
          from ledger_accounts a
          left join (select account_id, sum(amount) as sum from journal_lines group by account_id) l on l.account_id = a.id
          where a.balance <> coalesce(l.sum, 0)
          order by a.id
          limit 100`,
    );
  }

  async accountStats(executor: Executor = this.db): Promise<{ accounts: number; negativeCustomer: number }> {
    const [row] = await rows<{ accounts: number; negative: number }>(
      executor,
      sql`select count(*)::int as accounts, count(*) filter (where kind = 'customer' and balance < 0)::int as negative from ledger_accounts`,
    );
    return { accounts: row.accounts, negativeCustomer: row.negative };
  }

  /** Per token: Σ customer balances, Σ held for pending withdrawals, number of holders. */
  async liabilities(executor: Executor = this.db): Promise<Array<{ token: string; customer: string; pending: string; holders: number }>> {
    return rows(
      executor,
      sql`select token,
                 coalesce(sum(balance) filter (where kind = 'customer'), 0)::text as customer,
                 coalesce(sum(balance) filter (where kind = 'platform' and split_part(platform_code, '#', 1) = 'withdrawals_pending'), 0)::text as pending,
                 count(*) filter (where kind = 'customer' and balance > 0)::int as holders
          from ledger_accounts group by token order by token`,
    );
  }
}
