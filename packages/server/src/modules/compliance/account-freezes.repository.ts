import { Inject, Injectable } from '@nestjs/common';
import { eq, sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { accountFreezes, users } from '../../db/schema';

export interface AccountFreezeRecord {
  userId: string;
  reason: string;
  frozenBy: string | null;
  frozenAt: Date;
}

const freezeColumns = { userId: accountFreezes.userId, reason: accountFreezes.reason, frozenBy: accountFreezes.frozenBy, frozenAt: accountFreezes.frozenAt };

/** Frozen customers (drizzle/0058_compliance.sql). */
@Injectable()
export class AccountFreezesRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /**
   * The customer's users row, locked FOR UPDATE until commit: `cp_require_unfrozen` share-locks it, so a send or swap
   * in flight finishes before the freeze is written, and one that starts after sees it.
   */
  async lockCustomer(userId: string, executor: Executor): Promise<{ id: string; name: string; email: string } | undefined> {
    const [row] = await executor
      .select({ id: users.id, name: users.name, email: users.email })
      .from(users)
      .where(sql`${users.id} = ${userId} and ${users.role} = 'user'`)
      .for('update');
    return row;
  }

  async find(userId: string, executor: Executor = this.db): Promise<AccountFreezeRecord | undefined> {
    const [row] = await executor.select(freezeColumns).from(accountFreezes).where(eq(accountFreezes.userId, userId));
    return row;
  }

  /** The freeze written, or undefined when the account was already frozen (the first freeze and its reason stay). */
  async insert(userId: string, reason: string, frozenBy: string | null, executor: Executor): Promise<AccountFreezeRecord | undefined> {
    const [row] = await executor.insert(accountFreezes).values({ userId, reason, frozenBy }).onConflictDoNothing().returning(freezeColumns);
    return row;
  }

  async delete(userId: string, executor: Executor): Promise<AccountFreezeRecord | undefined> {
    const [row] = await executor.delete(accountFreezes).where(eq(accountFreezes.userId, userId)).returning(freezeColumns);
    return row;
  }
}
