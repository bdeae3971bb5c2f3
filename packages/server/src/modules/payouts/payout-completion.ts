import { Injectable, Logger } from '@nestjs/common';
import type { Tx } from '../../db/database';
import { findNetwork } from '../../common/networks';
import { NetworksService } from '../networks/networks.service';
import type { ConnectedChain } from '../chain/chain-connections';
import { LedgerService } from '../ledger/ledger.service';
import { NotificationsService } from '../notifications/notifications.service';
import { MailService } from '../mail/mail.service';
import { AuditService } from '../audit/audit.service';
import { describe as describeAmount } from '../wallet/wallet-common';
import { COMPLETE_PAYOUT } from './payout-functions';
import { payoutDetails, type PayoutRecord, PayoutsRepository } from './payouts.repository';

/**
 * A payout whose payment reached its confirmations completes: `cp_complete_payout` completes it once, records the fee
 * the chain took and books it (the fee charged to the customer out of the settled amount to network_fees, the
 * difference to the platform's network_fee_margin), with the customer's notification and mail and the audit row — in
 * the caller's transaction, which holds the payout's row lock. Here: the texts.
 */
@Injectable()
export class PayoutCompletion {
  private readonly logger = new Logger('Payouts');

  constructor(
    private readonly payouts: PayoutsRepository,
    private readonly ledger: LedgerService,
    private readonly notifications: NotificationsService,
    private readonly mail: MailService,
    private readonly audit: AuditService,
    private readonly explorers: NetworksService,
  ) {}

  /** True when this call completed the payout (false: it was completed or moved meanwhile). */
  async complete(chain: ConnectedChain, payout: PayoutRecord, confirmations: number, feeBase: string, tx: Tx): Promise<boolean> {
    const withdrawal = await this.payouts.withdrawalView(payout.transactionId, tx);
    const txid = payout.txid!;
    const amountText = withdrawal ? describeAmount(withdrawal.coinAmount, withdrawal.token, await this.payouts.symbolOf(withdrawal.token, tx)) : '';
    const network = findNetwork(chain.network);
    const link = this.explorers.txUrl(chain.network, txid) ?? '';
    const message = `Your withdrawal of ${amountText} was paid on ${network?.shortName ?? chain.network} and has ${confirmations} confirmations. Transaction hash: ${txid}`;
    const notice =
      withdrawal &&
      this.notifications.notificationRecord({
        userId: withdrawal.userId,
        title: 'Withdrawal completed',
        message,
        status: 'approved',
        createdBy: null,
        transactionId: payout.transactionId,
      });
    const mail = withdrawal?.email
      ? this.mail.outboxRecord({
          to: withdrawal.email,
          subject: `Withdrawal completed: ${amountText}`,
          text: `Hello ${withdrawal.name},\n\n${message}\n${link}\n`,
        })
      : undefined;
    const audit = this.audit.row(null, {
      action: 'chain.payout_completed',
      targetType: 'transaction',
      targetId: payout.transactionId,
      after: { network: chain.network, txid, fee: feeBase, feeCharged: payout.chargedFeeBase, bumps: payout.bumps, confirmations },
    });
    // The network's own coin pays the fee (a token payout charges none of it to the customer).
    const feeToken = withdrawal && chain.nativeCoins.includes(withdrawal.token) ? withdrawal.token : chain.nativeCoins[0];
    const completed = await this.ledger.runIn(tx, COMPLETE_PAYOUT, (shard) => [
      payout.id,
      txid,
      confirmations,
      feeBase,
      feeToken,
      chain.nativeDecimals,
      payoutDetails({ ...payout, state: 'completed', confirmations, feeBase, lastError: null }, chain.nativeDecimals),
      shard,
      { audit: [audit], ...(notice ? { notifications: [notice.row] } : {}), ...(mail ? { mail: [mail.row] } : {}) },
    ]);
    if (completed !== true) return false;
    await notice?.publish(tx);
    await mail?.publish(tx);
    this.logger.log(`Payout of withdrawal ${payout.transactionId} on ${payout.network} completed: ${txid}`);
    return true;
  }
}
