import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { userMatches } from '../../common/search';
import { LRUCache } from 'lru-cache';
import { ledgerAccounts, users } from '../../db/schema';
import type { MoneyGuard } from '../ledger/ledger.repository';

export interface CustomerRecord {
  id: string;
  name: string;
  email: string;
  emailNormalized: string;
}

/** SQLSTATE of a one-statement posting whose customer is no longer active or changed name or email since it was read. */
export const CUSTOMER_CHANGED_STATE = 'CPU01';

const columns = { id: users.id, name: users.name, email: users.email, emailNormalized: users.emailNormalized };
const isActiveCustomer = (id: string) => and(eq(users.id, id), eq(users.role, 'user'), isNull(users.deactivatedAt));

/** Read-only view of customer accounts (owned by the auth module) for money operations and the admin list. */
@Injectable()
export class WalletUsersRepository {
  /**
   * The active customers this instance read last (the admin list, money operations): an admin operation can then run
   * in one statement whose `unchangedGuard` re-checks the customer — a stale entry costs a trip, never a wrong answer.
   */
  private readonly recent = new LRUCache<string, CustomerRecord>({ max: 10_000 });

  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** An active customer (not an admin, not deactivated). */
  async findActiveCustomer(id: string, executor: Executor = this.db): Promise<CustomerRecord | undefined> {
    const [row] = await executor.select(columns).from(users).where(isActiveCustomer(id));
    this.remember(id, row);
    return row;
  }

  /**
   * An active customer and, in the same query, the balance of one of its ledger accounts (no lock; '0' when the
   * account has no row).
   */
  async findActiveCustomerWithBalance(id: string, accountId: string): Promise<{ customer: CustomerRecord; balance: string } | undefined> {
    const [row] = await this.db
      .select({
        ...columns,
        balance: sql<string>`coalesce((select ${ledgerAccounts.balance} from ${ledgerAccounts} where ${ledgerAccounts.id} = ${accountId}::uuid), 0)::text`,
      })
      .from(users)
      .where(isActiveCustomer(id));
    if (!row) {
      this.remember(id, undefined);
      return undefined;
    }
    const { balance, ...customer } = row;
    this.remember(id, customer);
    return { customer, balance };
  }

  /** The active customer as this instance last read it (no trip; may be stale: use with `unchangedGuard`). */
  known(id: string): CustomerRecord | undefined {
    return this.recent.get(id);
  }

  /** Drops a customer `unchangedGuard` found changed. */
  forget(id: string): void {
    this.recent.delete(id);
  }

  /**
   * A guard of a one-statement posting: aborts with CUSTOMER_CHANGED_STATE unless the customer is still an active one
   * with this name and email (what the response and the stored idempotent answer show).
   */
  unchangedGuard(customer: CustomerRecord): MoneyGuard {
    return (after, name) => [
      sql`${sql.raw(name)} as materialized (
        select cp_require(${after} and exists (
          select 1 from users where id = ${customer.id}::uuid and role = 'user' and deactivated_at is null
            and name = ${customer.name} and email = ${customer.email}), ${CUSTOMER_CHANGED_STATE}, 'customer changed') as ok)`,
    ];
  }

  async findById(id: string, executor: Executor = this.db): Promise<CustomerRecord | undefined> {
    const [row] = await executor.select(columns).from(users).where(eq(users.id, id));
    return row;
  }

  /** Active customers by email, keyset on the normalized email; `search`: part of the email or name. */
  async listActiveCustomers(
    limit: number,
    afterEmail: string | undefined,
    executor: Executor = this.db,
    search?: string,
  ): Promise<Array<CustomerRecord & { country: string }>> {
    const conditions: SQL[] = [eq(users.role, 'user'), isNull(users.deactivatedAt)];
    if (search?.trim()) conditions.push(userMatches(search));
    if (afterEmail !== undefined) conditions.push(gt(users.emailNormalized, afterEmail));
    const rows = await executor
      .select({ ...columns, country: users.country })
      .from(users)
      .where(and(...conditions))
      .orderBy(asc(users.emailNormalized))
      .limit(limit);
    // The admin acts from this list: its customers' operations can then go in one statement.
    for (const row of rows) this.remember(row.id, row);
    return rows;
  }

  private remember(id: string, row: CustomerRecord | undefined): void {
    if (row) this.recent.set(id, row);
    else this.recent.delete(id);
  }
}
