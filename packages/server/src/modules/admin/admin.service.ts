import { Inject, Injectable } from '@nestjs/common';
import {
  type AuditPageDto,
  type AuditQueryDto,
  type DashboardDto,
  type NotificationSentDto,
  USER_DELETED_MESSAGE,
  USER_NOTIFIED_MESSAGE,
  type UserDeletedDto,
} from '@coinpurse/contract';
import Decimal from 'decimal.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../../common/errors';
import type { Actor } from '../../common/principal';
import { DATABASE, type Database } from '../../db/database';
import { AuditService } from '../audit/audit.service';
import { LedgerService } from '../ledger/ledger.service';
import { NotificationsService } from '../notifications/notifications.service';
import { SessionsService } from '../security/sessions.service';
import { AdminRepository } from './admin.repository';
import { WithdrawalQueues } from '../payouts/withdrawal-queues';
import { decodeCursor, encodeCursor, pageLimit, UUID_TEXT } from '../../common/page-cursor';

export const USER_NOT_FOUND = 'User not found.';

const decimal = (value: string) => new Decimal(value).toFixed();

@Injectable()
export class AdminService {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly repository: AdminRepository,
    private readonly notifications: NotificationsService,
    private readonly audit: AuditService,
    private readonly ledger: LedgerService,
    private readonly sessions: SessionsService,
    private readonly queues: WithdrawalQueues,
  ) {}

  /**
   * "Delete" deactivates: sign-in refused, every token revoked, hidden from lists; balances, ledger and history kept.
   * Administrators (including the caller) cannot be deleted here.
   */
  async deleteUser(actor: Actor, id: string): Promise<UserDeletedDto> {
    if (!UUID_TEXT.test(id)) throw new NotFoundError(USER_NOT_FOUND);
    if (id.toLowerCase() === actor.id.toLowerCase()) throw new ConflictError('You cannot delete your own account.');
    await this.db.transaction(async (tx) => {
      const user = await this.repository.findAccount(id, { lock: true }, tx);
      if (!user || user.deactivatedAt) throw new NotFoundError(USER_NOT_FOUND);
      if (user.role === 'admin') throw new ConflictError('An administrator account cannot be deleted.');
      const at = await this.repository.deactivate(user.id, actor.id, tx);
      await this.sessions.revokeAll(user.id, {}, tx);
      await this.audit.record(
        actor,
        {
          action: 'user.deactivate',
          targetType: 'user',
          targetId: user.id,
          before: { email: user.email, name: user.name, deactivatedAt: null },
          after: { deactivatedAt: at.toISOString() },
        },
        tx,
      );
    });
    return { ok: true, message: USER_DELETED_MESSAGE };
  }

  async sendNotification(actor: Actor, userId: string, input: { title: string; message: string; userId?: string }): Promise<NotificationSentDto> {
    if (input.userId !== undefined && input.userId !== userId) throw new InvalidInputError('The user in the body does not match the address.');
    if (!UUID_TEXT.test(userId)) throw new NotFoundError(USER_NOT_FOUND);
    await this.db.transaction(async (tx) => {
      const user = await this.repository.findAccount(userId, {}, tx);
      if (!user || user.deactivatedAt || user.role !== 'user') throw new NotFoundError(USER_NOT_FOUND);
      const notification = await this.notifications.notify({ userId: user.id, title: input.title, message: input.message, createdBy: actor.id }, tx);
      await this.audit.record(
        actor,
        {
          action: 'notification.send',
          targetType: 'user',
          targetId: user.id,
          after: { notificationId: notification.id, title: input.title, message: input.message },
        },
        tx,
      );
    });
    return { ok: true, message: USER_NOTIFIED_MESSAGE, sent: 1 };
  }

  async broadcast(actor: Actor, input: { title: string; message: string }): Promise<NotificationSentDto> {
    const sent = await this.db.transaction(async (tx) => {
      const count = await this.notifications.notifyAllCustomers({ title: input.title, message: input.message, createdBy: actor.id }, tx);
      await this.audit.record(
        actor,
        { action: 'notification.broadcast', targetType: 'notification', targetId: null, after: { title: input.title, message: input.message, sent: count } },
        tx,
      );
      return count;
    });
    return { ok: true, message: sent === 1 ? 'Notification sent to 1 customer' : `Notification sent to ${sent} customers`, sent };
  }

  async auditLog(query: AuditQueryDto): Promise<AuditPageDto> {
    const limit = pageLimit(query.limit);
    const beforeId = query.cursor ? Number(decodeCursor(query.cursor, [/^[1-9]\d{0,15}$/])[0]) : undefined;
    const rows = await this.repository.listAudit({
      actor: query.actor,
      action: query.action,
      targetType: query.targetType,
      targetId: query.targetId,
      beforeId,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    return {
      items: page.map((row) => ({
        _id: String(row.id),
        actorId: row.actorId,
        actorRole: row.actorRole,
        actorEmail: row.actorEmail,
        action: row.action,
        targetType: row.targetType,
        targetId: row.targetId,
        before: row.before ?? null,
        after: row.after ?? null,
        requestId: row.requestId,
        apiKey: row.apiKey,
        createdAt: row.createdAt.toISOString(),
      })),
      nextCursor: rows.length > limit ? encodeCursor([String(page[page.length - 1].id)]) : null,
    };
  }

  async dashboard(): Promise<DashboardDto> {
    const [counts, waiting] = await Promise.all([
      this.repository.counts(),
      this.repository.waiting(this.queues.open(), {
        review: this.queues.only('review'),
        manual: this.queues.only('manual-payout'),
        funds: this.queues.only('awaiting-funds'),
        unsigned: this.queues.only('cannot-sign'),
        cold: this.queues.only('cold-signature'),
      }),
    ]);
    // The ledger module's own check and sums: the same figures as GET /admin/ledger/check.
    const check = await this.ledger.check();
    const liabilities = await this.ledger.liabilities();
    return {
      ...counts,
      liabilities: liabilities
        .filter((row) => !new Decimal(row.customer).isZero() || !new Decimal(row.pending).isZero() || row.holders > 0)
        .map((row) => ({ token: row.token, total: decimal(row.customer), pending: decimal(row.pending), holders: row.holders })),
      ledgerCheck: check,
      waiting,
    };
  }
}
