import { Inject, Injectable } from '@nestjs/common';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { notifications, users } from '../../db/schema';

export interface NewNotification {
  userId: string;
  title: string;
  message: string;
  status?: 'pending' | 'approved' | 'rejected' | null;
  createdBy?: string | null;
  /** The History row it is about (the client links to it). */
  transactionId?: string | null;
}

export interface NotificationRecord {
  id: string;
  userId: string;
  title: string;
  message: string;
  status: 'pending' | 'approved' | 'rejected' | null;
  read: boolean;
  createdAt: Date;
  transactionId?: string | null;
}

const columns = {
  id: notifications.id,
  userId: notifications.userId,
  title: notifications.title,
  message: notifications.message,
  status: notifications.status,
  read: notifications.read,
  createdAt: notifications.createdAt,
  transactionId: notifications.transactionId,
};

/** The most a customer's list returns (newest first). */
export const NOTIFICATIONS_LIST_LIMIT = 500;

@Injectable()
export class NotificationsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async insert(input: NewNotification, executor: Executor = this.db): Promise<NotificationRecord> {
    const [row] = await executor
      .insert(notifications)
      .values({
        userId: input.userId,
        title: input.title,
        message: input.message,
        status: input.status ?? null,
        createdBy: input.createdBy ?? null,
        transactionId: input.transactionId ?? null,
      })
      .returning(columns);
    return row;
  }

  /** One notification for every active customer, in one statement; returns how many were created. */
  async insertForAllCustomers(
    input: { title: string; message: string; createdBy: string | null },
    executor: Executor = this.db,
  ): Promise<{ count: number; createdAt: Date }> {
    const createdAt = new Date();
    const rows = await executor
      .insert(notifications)
      .select(
        executor
          .select({
            id: sql`gen_random_uuid()`.as('id'),
            userId: users.id,
            title: sql`${input.title}`.as('title'),
            message: sql`${input.message}`.as('message'),
            status: sql`null`.as('status'),
            read: sql`false`.as('read'),
            transactionId: sql`null::uuid`.as('transaction_id'),
            createdBy: sql`${input.createdBy}::uuid`.as('created_by'),
            createdAt: sql`${createdAt.toISOString()}::timestamptz`.as('created_at'),
          })
          .from(users)
          .where(and(eq(users.role, 'user'), isNull(users.deactivatedAt))),
      )
      .returning({ id: notifications.id });
    return { count: rows.length, createdAt };
  }

  listForUser(userId: string, executor: Executor = this.db): Promise<NotificationRecord[]> {
    return executor
      .select(columns)
      .from(notifications)
      .where(eq(notifications.userId, userId))
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(NOTIFICATIONS_LIST_LIMIT);
  }

  /** Marks the user's own notification read; undefined when it is not theirs or does not exist. */
  async markRead(id: string, userId: string, executor: Executor = this.db): Promise<NotificationRecord | undefined> {
    const [row] = await executor
      .update(notifications)
      .set({ read: true })
      .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
      .returning(columns);
    return row;
  }
}
