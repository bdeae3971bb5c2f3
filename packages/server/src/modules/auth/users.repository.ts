import { Inject, Injectable } from '@nestjs/common';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { users } from '../../db/schema';

export interface UserRecord {
  id: string;
  name: string;
  email: string;
  passwordHash: string;
  country: string;
  role: 'user' | 'admin';
  createdAt: Date;
  deactivatedAt: Date | null;
}

const userColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  passwordHash: users.passwordHash,
  country: users.country,
  role: users.role,
  createdAt: users.createdAt,
  deactivatedAt: users.deactivatedAt,
};

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

@Injectable()
export class UsersRepository {
  /** The access guard reads the user on every authenticated request: build that query once, as a prepared statement. */
  private readonly byId;

  constructor(@Inject(DATABASE) private readonly db: Database) {
    this.byId = db
      .select(userColumns)
      .from(users)
      .where(eq(users.id, sql.placeholder('id')))
      .prepare('users_find_by_id');
  }

  async findById(id: string, executor: Executor = this.db): Promise<UserRecord | undefined> {
    const [row] = executor === this.db ? await this.byId.execute({ id }) : await executor.select(userColumns).from(users).where(eq(users.id, id));
    return row;
  }

  async findByEmail(email: string, executor: Executor = this.db): Promise<UserRecord | undefined> {
    const [row] = await executor
      .select(userColumns)
      .from(users)
      .where(eq(users.emailNormalized, normalizeEmail(email)));
    return row;
  }

  /** Inserts unless the email is taken; returns undefined on a duplicate (no exception-driven flow). */
  async insert(
    input: { name: string; email: string; passwordHash: string; country: string; role: 'user' | 'admin' },
    executor: Executor = this.db,
  ): Promise<UserRecord | undefined> {
    const [row] = await executor
      .insert(users)
      .values({ ...input, email: input.email.trim(), emailNormalized: normalizeEmail(input.email) })
      .onConflictDoNothing({ target: users.emailNormalized })
      .returning(userColumns);
    return row;
  }

  async updatePassword(id: string, passwordHash: string, executor: Executor = this.db): Promise<void> {
    await executor.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, id));
  }

  /** Undefined when the account is gone or closed; throws a unique violation (23505) when the new email is taken. */
  async updateProfile(id: string, changes: { name?: string; country?: string; email?: string }, executor: Executor = this.db): Promise<UserRecord | undefined> {
    const { email, ...rest } = changes;
    const [row] = await executor
      .update(users)
      .set({ ...rest, ...(email !== undefined ? { email: email.trim(), emailNormalized: normalizeEmail(email) } : {}), updatedAt: new Date() })
      .where(and(eq(users.id, id), isNull(users.deactivatedAt)))
      .returning(userColumns);
    return row;
  }

  /** Makes sure the configured admin exists with the configured password; returns whether it was created. */
  async upsertAdmin(email: string, passwordHash: string, executor: Executor = this.db): Promise<void> {
    await executor
      .insert(users)
      .values({ name: 'Administrator', email: email.trim(), emailNormalized: normalizeEmail(email), passwordHash, country: '-', role: 'admin' })
      .onConflictDoUpdate({
        target: users.emailNormalized,
        set: { passwordHash, role: 'admin', deactivatedAt: null, updatedAt: new Date() },
      });
  }

  /** The active administrators, who receive the operator alerts by mail (reserves, a locked hot wallet). */
  activeAdmins(executor: Executor = this.db): Promise<Array<{ name: string; email: string }>> {
    return executor
      .select({ name: users.name, email: users.email })
      .from(users)
      .where(and(eq(users.role, 'admin'), isNull(users.deactivatedAt)));
  }

  async countAdmins(executor: Executor = this.db): Promise<number> {
    const [row] = await executor
      .select({ count: sql<number>`count(*)::int` })
      .from(users)
      .where(and(eq(users.role, 'admin'), isNull(users.deactivatedAt)));
    return row.count;
  }
}
