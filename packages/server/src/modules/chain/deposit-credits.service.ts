import { Injectable, Logger } from '@nestjs/common';
import { findNetwork } from '../../common/networks';
import type { Actor } from '../../common/principal';
import { AuditService } from '../audit/audit.service';
import { LedgerService } from '../ledger/ledger.service';
import { MailService } from '../mail/mail.service';
import { PriceService } from '../market/price.service';
import { NetworksService } from '../networks/networks.service';
import { NotificationsService } from '../notifications/notifications.service';
import { describe as describeAmount } from '../wallet/wallet-common';
import type { ConnectedChain } from './chain-connections';
import { ChainDepositsRepository } from './chain-deposits.repository';
import { CREDIT_CHAIN_DEPOSIT, RELEASE_DEPOSIT_HOLD } from './chain-functions';
import { DepositHoldsRepository, type HeldDepositRecord } from './deposit-holds.repository';
import { holdWords } from '../wallet/hold-words';

/**
 * Crediting a confirmed chain deposit, or holding it (drizzle/0063_deposit_holds.sql: above the customer's deposit
 * limit, or sent from a sanctioned address), and the watcher's release of 'limit' holds once the limit allows them.
 * The rules are in SQL (`cp_credit_chain_deposit`, `cp_release_deposit_hold`); here: the texts, which commit with what
 * the function decides.
 */
@Injectable()
export class DepositCreditsService {
  private readonly logger = new Logger('DepositCredits');

  constructor(
    private readonly deposits: ChainDepositsRepository,
    private readonly holds: DepositHoldsRepository,
    private readonly ledger: LedgerService,
    private readonly notifications: NotificationsService,
    private readonly mail: MailService,
    private readonly prices: PriceService,
    private readonly audit: AuditService,
    private readonly explorers: NetworksService,
  ) {}

  /**
   * Credits one deposit exactly once (`cp_credit_chain_deposit` decides under the deposit's row lock: still confirming,
   * its block still in the chain, the confirmations reached; an admin's hand settlement of its History row wins; held
   * when a sanctioned sender or the deposit limit says so). Here: the texts — the notification, the mail and the audit
   * entry commit with the movement, the hold's notification with the hold. True when this call credited it.
   */
  async credit(chain: ConnectedChain, depositId: string): Promise<boolean> {
    const deposit = await this.deposits.creditView(depositId);
    // Not in a block (seen, or orphaned): there are no confirmations to count yet.
    if (!deposit || deposit.blockHeight === null || deposit.cursorHeight === null) return false;
    const confirmations = deposit.cursorHeight - deposit.blockHeight + 1;
    const symbol = (await this.prices.quote(deposit.token).catch(() => undefined))?.symbol ?? deposit.token;
    const amountText = describeAmount(deposit.amount, deposit.token, symbol);
    const network = findNetwork(chain.network)?.shortName ?? chain.network;
    const link = this.explorers.txUrl(chain.network, deposit.txid) ?? '';
    const notice = this.notifications.notificationRecord({
      userId: deposit.userId,
      title: 'Deposit approved',
      message: `Your deposit of ${amountText} arrived on ${network} and was credited after ${confirmations} confirmations. Transaction hash: ${deposit.txid}`,
      status: 'approved',
      createdBy: null,
      transactionId: deposit.transactionId,
    });
    const mail = deposit.email
      ? this.mail.outboxRecord({
          to: deposit.email,
          subject: `Deposit credited: ${amountText}`,
          text: `Hello ${deposit.name},\n\nyour deposit of ${amountText} was credited to your Coinpurse wallet after ${confirmations} confirmations.\n\nTransaction: ${deposit.txid}\n${link}\n`,
        })
      : undefined;
    const facts = { network: chain.network, txid: deposit.txid, outputIndex: deposit.outputIndex, amount: deposit.amount, token: deposit.token, confirmations };
    const audit = this.audit.row(null, { action: 'chain.deposit_credit', targetType: 'transaction', targetId: deposit.transactionId, after: facts });
    // Held instead (the function decides which, if any): the customer is told, the audit says why.
    const heldNotice = (hold: 'limit' | 'sanctions') =>
      this.notifications.notificationRecord({
        userId: deposit.userId,
        title: 'Deposit held',
        message: `Your deposit of ${amountText} arrived on ${network} and is held, not yet in your balance. ${holdWords(hold)} Transaction hash: ${deposit.txid}`,
        status: 'pending',
        createdBy: null,
        transactionId: deposit.transactionId,
      });
    const held = { limit: heldNotice('limit'), sanctions: heldNotice('sanctions') };
    const heldRecords = (hold: 'limit' | 'sanctions') => ({
      notifications: [held[hold].row],
      audit: [this.audit.row(null, { action: 'chain.deposit_hold', targetType: 'transaction', targetId: deposit.transactionId, after: { ...facts, hold } })],
    });
    const outcome = await this.ledger.run(
      CREDIT_CHAIN_DEPOSIT,
      (shard) => [
        deposit.id,
        confirmations,
        chain.confirmations,
        shard,
        { notifications: [notice.row], audit: [audit], ...(mail ? { mail: [mail.row] } : {}) },
        { limit: heldRecords('limit'), sanctions: heldRecords('sanctions') },
      ],
      // The customer's wallet refetches whatever the deposit became (credited, held, or dropped after an admin's rejection).
      { changes: [{ userId: deposit.userId, token: deposit.token }] },
    );
    if (outcome === 'held') {
      const row = (await this.holds.list({ id: deposit.id, limit: 1 }))[0];
      if (row) held[row.hold].announce();
      this.logger.warn(`${chain.network}: deposit ${deposit.txid}:${deposit.outputIndex} (${deposit.amount} ${deposit.token}) held: ${row?.hold}`);
      return false;
    }
    if (outcome !== 'credited') return false;
    notice.announce();
    mail?.announce();
    return true;
  }

  /**
   * The watcher's pass over a network's 'limit' holds, oldest first: each is released when the customer's limit now
   * allows it (a raised level or limit, or the day / 30 days rolled on; `cp_release_deposit_hold` decides under the
   * customer's lock). A customer's later holds wait while an earlier one does not fit. Returns how many were released.
   */
  async releaseDue(network: string): Promise<number> {
    const held = await this.holds.list({ network, hold: 'limit' });
    const waiting = new Set<string>();
    let released = 0;
    for (const deposit of held) {
      if (waiting.has(deposit.userId)) continue;
      if (await this.release(deposit, null)) released++;
      else waiting.add(deposit.userId);
    }
    return released;
  }

  /**
   * Releases one held deposit (`actor`: the admin's id, null: the watcher's pass) in its own call, or inside `tx` (an
   * admin's release under four-eyes). True when it moved the coins.
   */
  async release(deposit: HeldDepositRecord, actor: Actor | null, reason?: string): Promise<boolean> {
    const { args, options, announce } = this.releaseCall(deposit, actor, reason);
    const moved = await this.ledger.run(RELEASE_DEPOSIT_HOLD, args, options);
    if (moved === true) announce();
    return moved === true;
  }

  /** The release's call: its arguments (the texts), its options, and what to announce once it committed. */
  releaseCall(deposit: HeldDepositRecord, actor: Actor | null, reason?: string) {
    const symbol = deposit.symbol ?? deposit.token;
    const amountText = describeAmount(deposit.amount, deposit.token, symbol);
    const network = findNetwork(deposit.network)?.shortName ?? deposit.network;
    const notice = this.notifications.notificationRecord({
      userId: deposit.userId,
      title: 'Deposit released',
      message: `Your held deposit of ${amountText} on ${network} was released and added to your balance. Transaction hash: ${deposit.txid}`,
      status: 'approved',
      createdBy: actor?.id ?? null,
      transactionId: deposit.transactionId,
    });
    const mail = this.mail.outboxRecord({
      to: deposit.userEmail,
      subject: `Deposit credited: ${amountText}`,
      text: `Hello ${deposit.userName},\n\nyour held deposit of ${amountText} on ${network} was released and credited to your Coinpurse wallet.\n\nTransaction: ${deposit.txid}\n`,
    });
    const audit = this.audit.row(actor, {
      action: 'chain.deposit_hold_release',
      targetType: 'transaction',
      targetId: deposit.transactionId,
      before: { state: 'held', hold: deposit.hold },
      after: {
        depositId: deposit.id,
        network: deposit.network,
        txid: deposit.txid,
        amount: deposit.amount,
        token: deposit.token,
        state: 'credited',
        by: actor ? 'admin' : 'limit allows it',
        ...(reason ? { reason } : {}),
      },
    });
    return {
      args: (shard: number) => [deposit.id, actor?.id ?? null, shard, { notifications: [notice.row], audit: [audit], mail: [mail.row] }],
      options: { changes: [{ userId: deposit.userId, token: deposit.token }] },
      announce: () => {
        notice.announce();
        mail.announce();
      },
      publish: async (tx: Parameters<typeof notice.publish>[0]) => {
        await notice.publish(tx);
        await mail.publish(tx);
      },
    };
  }
}
