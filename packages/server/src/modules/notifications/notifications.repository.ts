import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { notifications } from '../../db/schema';

export interface NewNotification {
  userId: string;
  title: string;
  message: string;
  status?: 'pending' | 'approved' | 'rejected' | null;
  createdBy?: string | null;
}

@Injectable()
export class NotificationsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async insert(input: NewNotification, executor: Executor = this.db): Promise<{ id: string }> {
    const [row] = await executor
      .insert(notifications)
      .values({ userId: input.userId, title: input.title, message: input.message, status: input.status ?? null, createdBy: input.createdBy ?? null })
      .returning({ id: notifications.id });
    return row;
  }
}
