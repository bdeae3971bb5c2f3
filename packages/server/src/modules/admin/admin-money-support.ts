import { Inject, Injectable } from '@nestjs/common';
import { NotFoundError, InvalidInputError } from '../../common/errors';
import { DATABASE, type Database, type Executor, type Tx } from '../../db/database';
import { inTransaction } from '../../db/in-transaction';
import { type Money, toMoney, usdValue } from '../ledger/money';
import { PriceService } from '../market/price.service';
import { LiveEventsService } from '../notifications/live-events.service';
import type { NotificationRecord } from '../notifications/notifications.repository';
import { type NotificationRow, toNotificationDto } from '../notifications/notifications.service';
import type { TransactionRecord } from '../wallet/transactions.repository';
import { type WalletToken, WalletTokensRepository } from '../wallet/wallet-tokens.repository';
import { type CustomerRecord, WalletUsersRepository } from '../wallet/wallet-users.repository';
import type { Applied } from './admin-transaction-functions';
import { ApprovalGate } from '../approvals/approval-gate.service';
import { UUID_TEXT } from '../../common/page-cursor';

/** What the admin money commands share: their transaction, the customer they act on, the token named, a value now. */
@Injectable()
export class AdminMoneySupport {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly prices: PriceService,
    private readonly tokens: WalletTokensRepository,
    private readonly customers: WalletUsersRepository,
    private readonly gate: ApprovalGate,
    private readonly live: LiveEventsService,
  ) {}

  /** In the caller's transaction (a four-eyes approval being applied), or in a new one. */
  within<T>(outer: Tx | undefined, work: (tx: Tx) => Promise<T>): Promise<T> {
    return outer ? work(outer) : inTransaction(this.db, work);
  }

  /** USD value of a recorded quantity at the current price (the recorded value when no price is available). */
  async currentUsd(record: Pick<TransactionRecord, 'token' | 'coinAmount' | 'usdAmount'>, tx?: Executor): Promise<Money> {
    if (!this.gate.enabled) return toMoney(record.usdAmount);
    const quote = await this.prices.quote(record.token, tx).catch(() => undefined);
    return quote ? usdValue(toMoney(record.coinAmount), quote.price) : toMoney(record.usdAmount);
  }

  /** A supported token by id, name or symbol (case-insensitive; the id wins). */
  async resolveToken(input: string, what: 'token' | 'network', executor?: Tx): Promise<WalletToken> {
    const wanted = input.trim().toLowerCase();
    const supported = await this.tokens.listSupported(executor);
    const found =
      supported.find((t) => t.id === wanted) ??
      supported.find((t) => t.name.toLowerCase() === wanted) ??
      (supported.filter((t) => t.symbol.toLowerCase() === wanted).length === 1 ? supported.find((t) => t.symbol.toLowerCase() === wanted) : undefined);
    if (!found) {
      const names = supported.map((t) => t.id).join(', ');
      throw new InvalidInputError(
        what === 'network'
          ? `Unknown network "${input.slice(0, 60)}". Use a supported token: ${names}.`
          : `Unknown token "${input.slice(0, 60)}". Use a supported token: ${names}.`,
      );
    }
    return found;
  }

  async customerOr404(userId: string, executor?: Tx): Promise<CustomerRecord> {
    const user = UUID_TEXT.test(userId) ? await this.customers.findActiveCustomer(userId, executor) : undefined;
    if (!user) throw new NotFoundError('User not found.');
    return user;
  }

  /** The live event of the notification a status change or void wrote, once it committed. */
  announceNotification(applied: Applied): void {
    if (applied.notification) this.live.announce([notificationEvent(applied.notification)]);
  }

  /** `announceNotification` for a change made in `tx`: the event is sent when (and if) it commits. */
  async publishNotification(applied: Applied, tx: Tx): Promise<void> {
    if (applied.notification) await this.live.publishMany([notificationEvent(applied.notification)], tx);
  }
}

/** A notification a money function wrote, as its live event. */
function notificationEvent(row: NotificationRow) {
  const data = toNotificationDto({
    id: row.id,
    userId: row.user_id,
    title: row.title,
    message: row.message,
    status: row.status as NotificationRecord['status'],
    read: false,
    createdAt: new Date(row.created_at),
    transactionId: row.transaction_id,
  });
  return { userId: row.user_id, event: { type: 'notification' as const, data } };
}
