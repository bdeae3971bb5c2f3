import { Injectable } from '@nestjs/common';
import type { NotificationDto } from '@coinpurse/contract';
import { randomUUID } from 'node:crypto';
import { NotFoundError } from '../../common/errors';
import type { Executor } from '../../db/database';
import { LiveEventsService } from './live-events.service';
import { type NewNotification, type NotificationRecord, NotificationsRepository } from './notifications.repository';
import { UUID_TEXT } from '../../common/page-cursor';

export const NOTIFICATION_NOT_FOUND = 'Notification not found.';

/** A notification as `cp_write_records` takes it (the columns of `notifications`). */
export interface NotificationRow {
  id: string;
  user_id: string;
  title: string;
  message: string;
  status: string | null;
  created_by: string | null;
  created_at: string;
  transaction_id: string | null;
}

export function isUuid(value: string): boolean {
  return UUID_TEXT.test(value);
}

/**
 * Customer notifications. Other modules call `notify` inside their own transaction (pass `tx`), so a
 * notification exists exactly when the change it reports committed; its live event is sent on that commit.
 */
@Injectable()
export class NotificationsService {
  constructor(
    private readonly repository: NotificationsRepository,
    private readonly live: LiveEventsService,
  ) {}

  async notify(input: NewNotification, executor?: Executor): Promise<{ id: string }> {
    const row = await this.repository.insert(input, executor);
    await this.live.publish(row.userId, { type: 'notification', data: toNotificationDto(row) }, executor);
    return { id: row.id };
  }

  /**
   * `notify` as a row for a money function to write with its movement (`cp_write_records`), and its live event:
   * `announce` once the call committed on its own, or `publish` in the caller's transaction (sent on commit).
   */
  notificationRecord(input: NewNotification): { row: NotificationRow; announce: () => void; publish: (tx: Executor) => Promise<void> } {
    const record: NotificationRecord = {
      id: randomUUID(),
      userId: input.userId,
      title: input.title,
      message: input.message,
      status: input.status ?? null,
      read: false,
      createdAt: new Date(),
      transactionId: input.transactionId ?? null,
    };
    const event = { type: 'notification' as const, data: toNotificationDto(record) };
    return {
      row: {
        id: record.id,
        user_id: record.userId,
        title: record.title,
        message: record.message,
        status: record.status,
        created_by: input.createdBy ?? null,
        created_at: record.createdAt.toISOString(),
        transaction_id: record.transactionId ?? null,
      },
      announce: () => this.live.announce([{ userId: record.userId, event }]),
      publish: (tx) => this.live.publish(record.userId, event, tx),
    };
  }

  /** One notification for every active customer; returns how many got it. */
  async notifyAllCustomers(input: { title: string; message: string; createdBy: string | null }, executor?: Executor): Promise<number> {
    const { count, createdAt } = await this.repository.insertForAllCustomers(input, executor);
    if (count > 0) {
      // Each customer's row has its own id; the event carries the content and the client refetches its list.
      await this.live.publishToAll(
        { type: 'notification', data: { title: input.title, message: input.message, createdAt: createdAt.toISOString(), read: false } },
        executor,
      );
    }
    return count;
  }

  async listForUser(userId: string): Promise<NotificationDto[]> {
    return (await this.repository.listForUser(userId)).map(toNotificationDto);
  }

  async markRead(userId: string, id: string): Promise<NotificationDto> {
    if (!isUuid(id)) throw new NotFoundError(NOTIFICATION_NOT_FOUND);
    const row = await this.repository.markRead(id, userId);
    if (!row) throw new NotFoundError(NOTIFICATION_NOT_FOUND);
    return toNotificationDto(row);
  }
}

export function toNotificationDto(row: NotificationRecord): NotificationDto {
  return {
    _id: row.id,
    title: row.title,
    message: row.message,
    createdAt: row.createdAt.toISOString(),
    read: row.read,
    ...(row.status ? { status: row.status } : {}),
    ...(row.transactionId ? { transactionId: row.transactionId } : {}),
  };
}
