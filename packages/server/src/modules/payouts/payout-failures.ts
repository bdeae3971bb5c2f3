import { Injectable, Logger } from '@nestjs/common';
import type { Tx } from '../../db/database';
import type { Actor } from '../../common/principal';
import type { ConnectedChain } from '../chain/chain-connections';
import { FAIL_PAYOUT } from '../chain/chain-functions';
import { LedgerService } from '../ledger/ledger.service';
import { NotificationsService } from '../notifications/notifications.service';
import { MailService } from '../mail/mail.service';
import { AuditService } from '../audit/audit.service';
import { payoutDetails, type PayoutRecord, PayoutsRepository } from './payouts.repository';

/** Who failed a payout: the payout job (the signer refused) or an admin abandoning a cold payout. */
export interface PayoutFailure {
  reason: string;
  actor: Actor | null;
  /** The audit action: chain.payout_failed (the job), chain.cold_payout_failed (an admin). */
  action: string;
}

/**
 * A payout that will never be signed (nothing of it stored as signed, nothing sent): `cp_fail_payout` fails it and,
 * while the withdrawal is still approved, returns the held amount to the customer by a reversal entry with the reason
 * and rejects the withdrawal — in the caller's transaction, which holds the payout's row lock, so it happens once.
 * Here: the customer's notification and mail and the audit row, the same whoever fails it.
 */
@Injectable()
export class PayoutFailures {
  private readonly logger = new Logger('Payouts');

  constructor(
    private readonly payouts: PayoutsRepository,
    private readonly ledger: LedgerService,
    private readonly notifications: NotificationsService,
    private readonly mail: MailService,
    private readonly audit: AuditService,
  ) {}

  /** True when this call returned the amount to the customer (false: the withdrawal was no longer approved, or the payout moved). */
  async fail(chain: ConnectedChain, payout: PayoutRecord, failure: PayoutFailure, tx: Tx): Promise<boolean> {
    const { reason } = failure;
    const withdrawal = await this.payouts.withdrawalView(payout.transactionId, tx);
    const notice =
      withdrawal &&
      this.notifications.notificationRecord({
        userId: withdrawal.userId,
        title: 'Withdrawal failed',
        message: `Your withdrawal could not be paid on the chain, so the amount was returned to your balance. Reason: ${reason}`,
        status: 'rejected',
        createdBy: failure.actor?.id ?? null,
        transactionId: payout.transactionId,
      });
    const mail = withdrawal?.email
      ? this.mail.outboxRecord({
          to: withdrawal.email,
          subject: 'Withdrawal failed',
          text: `Hello ${withdrawal.name},\n\nyour withdrawal could not be paid on the chain, so the amount was returned to your Coinpurse balance.\n\nReason: ${reason}\n`,
        })
      : undefined;
    const audit = this.audit.row(failure.actor, {
      action: failure.action,
      targetType: 'transaction',
      targetId: payout.transactionId,
      before: { status: 'approved' },
      after: { status: 'rejected', reason },
    });
    const returned = await this.ledger.runIn(
      tx,
      FAIL_PAYOUT,
      (shard) => [
        payout.id,
        reason,
        payoutDetails({ ...payout, state: 'failed' }, chain.nativeDecimals),
        shard,
        { audit: [audit], ...(notice ? { notifications: [notice.row] } : {}), ...(mail ? { mail: [mail.row] } : {}) },
      ],
      { changes: withdrawal ? [{ userId: withdrawal.userId, token: withdrawal.token }] : [] },
    );
    if (returned !== true) return false;
    await notice?.publish(tx);
    await mail?.publish(tx);
    this.logger.warn(`Payout of withdrawal ${payout.transactionId} on ${payout.network} failed and was returned to the customer: ${reason}`);
    return true;
  }
}
