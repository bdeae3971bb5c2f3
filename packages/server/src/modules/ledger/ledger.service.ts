import { Inject, Injectable } from '@nestjs/common';
import type { LedgerCheckDto } from '@coinpurse/contract';
import { DATABASE, type Database, type Executor, type Tx } from '../../db/database';
import type { SqlFunction } from '../../db/sql-function';
import { sqlState } from '../../db/in-transaction';
import { GroupCommit } from './group-commit';
import { type BalanceChange, LedgerEvents } from './ledger-events';
import { type AccountKey, LedgerRepository, type PlatformCode } from './ledger.repository';
import { type Money, plain, toMoney } from './money';
import { type MoneyRefusal, moneyRefusalOf } from './money-errors';

/** Serialization failure, deadlock: PostgreSQL aborted the statement; running it again is safe. */
const RETRYABLE_STATES = new Set(['40001', '40P01']);

/** One account's share of a movement: what the four-eyes policy looks at (see four-eyes-policy.ts). */
export interface Leg {
  account: AccountKey;
  amount: Money;
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

/** The balances a money operation changes: a list known before the call, or read from the function's result. */
export type BalanceChanges = BalanceChange[] | ((result: unknown) => BalanceChange[]);

function changesOf(changes: BalanceChanges | undefined, result: unknown): BalanceChange[] {
  return typeof changes === 'function' ? changes(result) : (changes ?? []);
}

/** Moves `amount` of `token` from one account to another: the two legs of a simple entry. */
export function transfer(from: AccountKey, to: AccountKey, amount: Money): Leg[] {
  return [
    { account: from, amount: amount.neg() },
    { account: to, amount },
  ];
}

/**
 * The only way money moves: each money operation is one SQL function of the migrations (see
 * drizzle/0012_ledger_core.sql), run here as one statement. Also the ledger's own checks and figures.
 */
@Injectable()
export class LedgerService {
  private readonly shards = new ShardLeases(PLATFORM_SHARDS);

  constructor(
    private readonly repository: LedgerRepository,
    @Inject(DATABASE) private readonly db: Database,
    private readonly events: LedgerEvents,
  ) {}

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
      /** The customers' balances it changed: known before, or read from what the function returned. */
      changes?: BalanceChanges;
      announce?: Array<() => void>;
      refuse?: (refusal: MoneyRefusal) => Error | undefined;
      /** Test hook (see IdempotencyService.pauseAfterClaim): the call runs in a transaction that awaits this before its commit. */
      beforeCommit?: () => Promise<void>;
      /** Sent in a batch of its operation's group commit (see group-commit.ts), kept apart from the owner's other calls. */
      groupCommit?: { batches: GroupCommit; owner: string; order?: string };
    } = {},
    attempts = 4,
  ): Promise<unknown> {
    const beforeCommit = options.beforeCommit;
    const group = beforeCommit ? undefined : options.groupCommit;
    // A call of a batch runs under the batch's shard; any other leases one.
    const lease = group ? undefined : this.shards.lease();
    const shard = lease?.shard ?? 0;
    let result: unknown;
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          if (group) await group.batches.submit(group.owner, args, group.order);
          else if (beforeCommit)
            result = await this.db.transaction(async (tx) => {
              const value = await operation.call(this.db, args(shard), tx);
              await beforeCommit();
              return value;
            });
          else result = await operation.call(this.db, args(shard));
          break;
        } catch (error) {
          const refusal = moneyRefusalOf(error);
          if (refusal) throw options.refuse?.(refusal) ?? error;
          if (attempt >= attempts || !RETRYABLE_STATES.has(sqlState(error) ?? '')) throw error;
          await new Promise((resolve) => setTimeout(resolve, 5 * attempt + Math.random() * 10));
        }
      }
    } finally {
      lease?.release();
    }
    const changes = changesOf(options.changes, result);
    if (changes.length) this.events.announceBalanceChanges(changes);
    for (const announce of options.announce ?? []) announce();
    return result;
  }

  /**
   * A group commit of `operation` (returning nothing) through `batchFunction` (see group-commit.ts): pass it to `run` as
   * `groupCommit` with the call's owner.
   */
  groupCommit(batchFunction: SqlFunction, operation: SqlFunction): GroupCommit {
    return new GroupCommit(this.db, batchFunction, operation, this.shards);
  }

  /**
   * `run` inside the caller's transaction (a four-eyes approval being applied, a chain job under its row locks): the
   * balance changes are published on commit; a refusal throws `refuse`'s error and the caller's transaction rolls back.
   */
  async runIn(
    tx: Tx,
    operation: SqlFunction,
    args: (shard: number) => readonly unknown[],
    options: { changes?: BalanceChanges; refuse?: (refusal: MoneyRefusal) => Error | undefined } = {},
  ): Promise<unknown> {
    const lease = this.shards.lease();
    try {
      const result = await operation.call(this.db, args(lease.shard), tx);
      const changes = changesOf(options.changes, result);
      if (changes.length) await this.events.publishBalanceChanges(changes, tx);
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

  customerBalances(userIds: string[], executor?: Executor) {
    return this.repository.customerBalances(userIds, executor);
  }
}
