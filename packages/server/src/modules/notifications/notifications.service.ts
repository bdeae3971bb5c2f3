import { Injectable } from '@nestjs/common';
import type { Executor } from '../../db/database';
import { type NewNotification, NotificationsRepository } from './notifications.repository';

/**
 * Customer notifications. Other modules call `notify` inside their own transaction (pass `tx`), so a
 * notification exists exactly when the change it reports committed.
 */
@Injectable()
export class NotificationsService {
  constructor(private readonly repository: NotificationsRepository) {}

  notify(input: NewNotification, executor?: Executor): Promise<{ id: string }> {
    return this.repository.insert(input, executor);
  }
}
