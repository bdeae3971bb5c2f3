import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq, gt, isNull, type SQL } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { userMatches } from '../../common/search';
import { users } from '../../db/schema';

export interface CustomerRecord {
  id: string;
  name: string;
  email: string;
  emailNormalized: string;
}

const columns = { id: users.id, name: users.name, email: users.email, emailNormalized: users.emailNormalized };
const isActiveCustomer = (id: string) => and(eq(users.id, id), eq(users.role, 'user'), isNull(users.deactivatedAt));

/** Read-only view of customer accounts (owned by the auth module) for money operations and the admin list. */
@Injectable()
export class WalletUsersRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** An active customer (not an admin, not deactivated). */
  async findActiveCustomer(id: string, executor: Executor = this.db): Promise<CustomerRecord | undefined> {
    const [row] = await executor.select(columns).from(users).where(isActiveCustomer(id));
    return row;
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
    return rows;
  }
}
