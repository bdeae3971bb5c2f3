import { Inject, Injectable } from '@nestjs/common';
import { and, asc, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { adminApprovals, auditLog, notifications, tickets, transactions, users } from '../../db/schema';

export interface AdminAccountRow {
  id: string;
  name: string;
  email: string;
  createdAt: Date;
  deactivatedAt: Date | null;
}

const adminColumns = { id: users.id, name: users.name, email: users.email, createdAt: users.createdAt, deactivatedAt: users.deactivatedAt };

/** Admin accounts and the reads of the per-user page. */
@Injectable()
export class AdminsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  listAdmins(executor: Executor = this.db): Promise<AdminAccountRow[]> {
    return executor.select(adminColumns).from(users).where(eq(users.role, 'admin')).orderBy(asc(users.createdAt), asc(users.id));
  }

  /** Every active admin, locked: two admins deactivating each other at once cannot leave none. */
  lockActiveAdmins(executor: Executor): Promise<AdminAccountRow[]> {
    return executor
      .select(adminColumns)
      .from(users)
      .where(and(eq(users.role, 'admin'), isNull(users.deactivatedAt)))
      .orderBy(asc(users.id))
      .for('update');
  }

  async profile(id: string, executor: Executor = this.db) {
    const [row] = await executor
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        country: users.country,
        role: users.role,
        createdAt: users.createdAt,
        deactivatedAt: users.deactivatedAt,
        erasedAt: users.erasedAt,
      })
      .from(users)
      .where(eq(users.id, id));
    return row;
  }

  notificationsOf(userId: string, limit: number, executor: Executor = this.db) {
    return executor
      .select({
        id: notifications.id,
        title: notifications.title,
        message: notifications.message,
        read: notifications.read,
        createdAt: notifications.createdAt,
      })
      .from(notifications)
      .where(eq(notifications.userId, userId))
      .orderBy(desc(notifications.createdAt))
      .limit(limit);
  }

  ticketsOf(userId: string, limit: number, executor: Executor = this.db) {
    return executor
      .select({ id: tickets.id, subject: tickets.subject, status: tickets.status, createdAt: tickets.createdAt })
      .from(tickets)
      .where(eq(tickets.userId, userId))
      .orderBy(desc(tickets.createdAt))
      .limit(limit);
  }

  auditAbout(userId: string, limit: number, executor: Executor = this.db) {
    const actor = sql<string | null>`(select email from ${users} where ${users.id} = ${auditLog.actorId})`;
    return (
      executor
        .select({ id: auditLog.id, action: auditLog.action, actorEmail: actor, after: auditLog.after, createdAt: auditLog.createdAt })
        .from(auditLog)
        // About the customer: the account itself, its transactions and the approval requests about it.
        .where(
          or(
            and(eq(auditLog.targetType, 'user'), eq(auditLog.targetId, userId)),
            and(
              eq(auditLog.targetType, 'transaction'),
              inArray(
                auditLog.targetId,
                executor
                  .select({ id: sql<string>`${transactions.id}::text` })
                  .from(transactions)
                  .where(eq(transactions.userId, userId)),
              ),
            ),
            and(
              eq(auditLog.targetType, 'approval'),
              inArray(
                auditLog.targetId,
                executor
                  .select({ id: sql<string>`${adminApprovals.id}::text` })
                  .from(adminApprovals)
                  .where(eq(adminApprovals.userId, userId)),
              ),
            ),
          ),
        )
        .orderBy(desc(auditLog.id))
        .limit(limit)
    );
  }

  /** Status and void state of a transaction, locked (a delete approval re-checks what was asked). */
  async lockTransactionState(id: string, executor: Executor): Promise<{ status: string; voided: boolean } | undefined> {
    const [row] = await executor
      .select({ status: transactions.status, voided: sql<boolean>`${transactions.voidedAt} is not null` })
      .from(transactions)
      .where(eq(transactions.id, id))
      .for('update');
    return row;
  }
}
