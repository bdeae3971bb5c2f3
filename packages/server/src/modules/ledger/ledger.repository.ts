import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { ledgerAccounts } from '../../db/schema';

/** Platform accounts, one per token: the other side of every customer movement. */
export type PlatformCode = 'deposits' | 'withdrawals_pending' | 'withdrawals_settled' | 'swap_pool' | 'adjustments';

export type AccountKey = { kind: 'customer'; userId: string; token: string } | { kind: 'platform'; code: PlatformCode; token: string };

export function accountKeyString(key: AccountKey): string {
  return key.kind === 'customer' ? `c:${key.userId}:${key.token}` : `p:${key.code}:${key.token}`;
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

@Injectable()
export class LedgerRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async findAccountIds(keys: AccountKey[], executor: Executor = this.db): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    if (!keys.length) return found;
    const conditions = keys.map((key) =>
      key.kind === 'customer'
        ? and(eq(ledgerAccounts.kind, 'customer'), eq(ledgerAccounts.userId, key.userId), eq(ledgerAccounts.token, key.token))
        : and(eq(ledgerAccounts.kind, 'platform'), eq(ledgerAccounts.platformCode, key.code), eq(ledgerAccounts.token, key.token)),
    );
    const result = await executor
      .select({ id: ledgerAccounts.id, kind: ledgerAccounts.kind, userId: ledgerAccounts.userId, platformCode: ledgerAccounts.platformCode, token: ledgerAccounts.token })
      .from(ledgerAccounts)
      .where(or(...conditions));
    for (const row of result) {
      const key: AccountKey = row.kind === 'customer' ? { kind: 'customer', userId: row.userId!, token: row.token } : { kind: 'platform', code: row.platformCode as PlatformCode, token: row.token };
      found.set(accountKeyString(key), row.id);
    }
    return found;
  }

  /** Creates the accounts that do not exist yet (a concurrent creator wins silently); in a stable order. */
  async insertAccounts(keys: AccountKey[], executor: Executor = this.db): Promise<void> {
    if (!keys.length) return;
    const sorted = [...keys].sort((a, b) => accountKeyString(a).localeCompare(accountKeyString(b)));
    await executor
      .insert(ledgerAccounts)
      .values(sorted.map((key) => (key.kind === 'customer' ? { kind: 'customer' as const, userId: key.userId, token: key.token } : { kind: 'platform' as const, platformCode: key.code, token: key.token })))
      .onConflictDoNothing();
  }

  /** SELECT ... FOR UPDATE in account id order: every writer takes its locks in the same order. */
  async lockAccounts(ids: string[], executor: Executor): Promise<LockedAccount[]> {
    if (!ids.length) return [];
    return executor
      .select({ id: ledgerAccounts.id, balance: ledgerAccounts.balance })
      .from(ledgerAccounts)
      .where(inArray(ledgerAccounts.id, ids))
      .orderBy(asc(ledgerAccounts.id))
      .for('update');
  }

  /** Adds each delta to its account's balance in one statement (rows already locked, or a single row). */
  async addToBalances(deltas: Array<{ id: string; delta: string }>, executor: Executor): Promise<void> {
    if (!deltas.length) return;
    if (deltas.length === 1) {
      await executor.execute(sql`update ledger_accounts set balance = balance + ${deltas[0].delta}::numeric where id = ${deltas[0].id}::uuid`);
      return;
    }
    const values = sql.join(
      deltas.map((d) => sql`(${d.id}::uuid, ${d.delta}::numeric)`),
      sql`, `,
    );
    await executor.execute(sql`update ledger_accounts as a set balance = a.balance + v.delta from (values ${values}) as v(id, delta) where a.id = v.id`);
  }

  /** One journal entry and its lines, in one statement. Lines are insert-only. */
  async insertEntry(entry: { id: string; kind: string; transactionId: string | null; reason: string | null; createdBy: string | null }, lines: LineInput[], executor: Executor): Promise<void> {
    const values = sql.join(
      lines.map((line) => sql`(${line.accountId}::uuid, ${line.token}, ${line.amount}::numeric)`),
      sql`, `,
    );
    await executor.execute(sql`
      with e as (
        insert into journal_entries (id, kind, transaction_id, reason, created_by)
        values (${entry.id}::uuid, ${entry.kind}, ${entry.transactionId}::uuid, ${entry.reason}, ${entry.createdBy}::uuid)
        returning id
      )
      insert into journal_lines (entry_id, account_id, token, amount)
      select e.id, v.account_id, v.token, v.amount from e cross join (values ${values}) as v(account_id, token, amount)`);
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
                 coalesce(sum(balance) filter (where kind = 'platform' and platform_code = 'withdrawals_pending'), 0)::text as pending,
                 count(*) filter (where kind = 'customer' and balance > 0)::int as holders
          from ledger_accounts group by token order by token`,
    );
  }
}
