import type { UpdateBalanceResponseDto } from '@coinpurse/contract';
import { randomUUID } from 'node:crypto';
import type { AuditEntry } from '../audit/audit.service';
import { customer, type Leg, LEASED_SHARD, platform, transfer } from '../ledger/ledger.service';
import { type Money, plain } from '../ledger/money';
import type { LiveEvent } from '../notifications/live-events.service';
import { type NotificationRow, toNotificationDto } from '../notifications/notifications.service';
import { tokenBalance, toTransactionDto } from '../wallet/wallet-common';
import type { WalletToken } from '../wallet/wallet-tokens.repository';

/**
 * What a balance adjustment writes and answers (drizzle/0015_adjustment_functions.sql decides the rest under the lock).
 * Pure: no database access.
 */

export const ADJUSTMENT_DONE = 'Balance updated successfully';

/** The movement of an adjustment of `delta` (not zero) with the platform's adjustments account: what an approval binds. */
export function adjustmentLegs(userId: string, tokenId: string, delta: Money): Leg[] {
  return delta.isPositive()
    ? transfer(platform('adjustments', tokenId, LEASED_SHARD), customer(userId, tokenId), delta)
    : transfer(customer(userId, tokenId), platform('adjustments', tokenId, LEASED_SHARD), delta.neg());
}

/** One adjustment as requested: the rows below are built from it. */
export interface AdjustmentRequest {
  /** The id of the adjustment's transaction row (when something moves). */
  id: string;
  actorId: string;
  userId: string;
  token: WalletToken;
  reason: string;
  price: Money;
  at: Date;
}

/**
 * The rows and the answer of an adjustment as far as they are known before `cp_adjust_balance` locks the balance: it
 * fills in the notification's message (what moved), the audit's balance before and after, the answer's balance and the
 * transaction's customer, direction, quantity and value (or no transaction when nothing moves).
 */
export function adjustmentRecords(request: AdjustmentRequest): {
  notice: Omit<NotificationRow, 'message'>;
  audit: AuditEntry;
  answer: UpdateBalanceResponseDto;
} {
  const { id, userId, token, price, at } = request;
  const pending = '0';
  return {
    notice: {
      id: randomUUID(),
      user_id: userId,
      title: 'Balance updated',
      status: 'approved',
      created_by: request.actorId,
      created_at: at.toISOString(),
      transaction_id: null,
    },
    audit: {
      action: 'balance.adjust',
      targetType: 'user',
      targetId: userId,
      before: { token: token.id },
      after: { token: token.id, transactionId: id, reason: request.reason },
    },
    answer: {
      message: ADJUSTMENT_DONE,
      balance: tokenBalance({ ...token, currentPrice: plain(price) }, pending),
      transaction: toTransactionDto({
        id,
        userId,
        type: 'adjustment',
        token: token.id,
        network: null,
        address: null,
        coinAmount: pending,
        usdAmount: pending,
        price: plain(price),
        status: 'approved',
        direction: 'in',
        note: request.reason,
        details: null,
        createdAt: at,
        voidedAt: null,
        userName: '',
        userEmail: '',
        symbol: token.symbol,
      }),
    },
  };
}

/** The live event of the adjustment's notification, with the message cp_adjust_balance wrote. */
export function adjustmentNoticeEvent(notice: Omit<NotificationRow, 'message'>, message: string): LiveEvent {
  return {
    type: 'notification',
    data: toNotificationDto({
      id: notice.id,
      userId: notice.user_id,
      title: notice.title,
      message,
      status: 'approved',
      read: false,
      createdAt: new Date(notice.created_at),
    }),
  };
}
