import { Inject, Injectable } from '@nestjs/common';
import type { ChainDepositReviewDto, DepositReviewResolvedDto, PendingApprovalDto } from '@coinpurse/contract';
import { ConflictError, NotFoundError } from '../../common/errors';
import { findNetwork } from '../../common/networks';
import type { Actor } from '../../common/principal';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { type Applying, requireBoundLines } from '../approvals/applying';
import { ApprovalGate } from '../approvals/approval-gate.service';
import { ChainDepositReversals } from '../approvals/chain-deposit-reversals';
import { AuditService } from '../audit/audit.service';
import { inTransaction } from '../../db/in-transaction';

import { customer, LedgerService, platform, LEASED_SHARD, transfer } from '../ledger/ledger.service';
import { MONEY_CODES, type MoneyRefusal } from '../ledger/money-errors';
import { type Money, toMoney, usdValue } from '../ledger/money';
import { MailService } from '../mail/mail.service';
import { PriceService } from '../market/price.service';
import { NotificationsService } from '../notifications/notifications.service';
import { describe as describeAmount } from '../wallet/wallet-common';
import { chainDepositFields } from './chain-deposit-fields';
import { KEEP_CHAIN_DEPOSIT, PLAN_CHAIN_DEPOSIT_REVERSAL, REVERSE_CHAIN_DEPOSIT } from './deposit-review-functions';
import { type DepositReviewRecord, DepositReviewsRepository } from './deposit-reviews.repository';
import { UUID_TEXT } from '../../common/page-cursor';

const NOT_FOUND = 'No deposit flagged for review has this id.';

/** What taking a deposit back moves (cp_plan_chain_deposit_reversal). */
interface ReversalPlan {
  userId: string;
  token: string;
  amount: string;
  transactionId: string;
}

function toReviewDto(row: DepositReviewRecord): ChainDepositReviewDto {
  return {
    ...chainDepositFields(row),
    userEmail: row.userEmail,
    state: row.state,
    blockHeight: row.blockHeight,
    resolution: row.resolution,
    reason: row.reason,
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    resolvedBy: row.resolvedBy,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * An admin's decision on a credited deposit whose block was orphaned (flagged `orphaned_after_credit` by the
 * watcher, never debited by itself): "take back" reverses the credit (`cp_reverse_chain_deposit`: customer → the
 * deposits platform account, the History row rejected, the customer told; a four-eyes action like the other admin
 * money actions, since it takes from what is owed to a customer), "keep" accepts the loss (`cp_keep_chain_deposit`:
 * nothing moves). Both record the admin's reason and an audit row; the functions decide under the deposit's row lock.
 */
@Injectable()
export class DepositReviewsService implements ChainDepositReversals {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly repository: DepositReviewsRepository,
    private readonly ledger: LedgerService,
    private readonly gate: ApprovalGate,
    private readonly notifications: NotificationsService,
    private readonly mail: MailService,
    private readonly audit: AuditService,
    private readonly prices: PriceService,
  ) {}

  async list(): Promise<ChainDepositReviewDto[]> {
    return (await this.repository.list({ limit: 200 })).map(toReviewDto);
  }

  private async found(id: string, executor?: Executor): Promise<DepositReviewRecord> {
    const [row] = UUID_TEXT.test(id) ? await this.repository.list({ id, limit: 1 }, executor) : [];
    if (!row) throw new NotFoundError(NOT_FOUND);
    return row;
  }

  private async view(id: string, executor?: Executor): Promise<ChainDepositReviewDto> {
    return toReviewDto(await this.found(id, executor));
  }

  /** The refusals of the functions, for people (each a 409 except an unknown deposit). */
  private refusal(refusal: MoneyRefusal, review: DepositReviewRecord, amountText: string): Error | undefined {
    if (refusal.code === MONEY_CODES.depositNotInReview) {
      if (refusal.detail === 'not found') return new NotFoundError(NOT_FOUND);
      if (refusal.detail === 'resolved: taken_back') return new ConflictError('This deposit was already taken back.');
      if (refusal.detail === 'resolved: kept') return new ConflictError('This deposit was already kept: its review is resolved.');
      return new ConflictError('This deposit is not waiting for a review: only a credited deposit whose block was orphaned is.');
    }
    if (refusal.code === MONEY_CODES.depositHistorySettled) {
      return new ConflictError(
        `Its History row is ${refusal.detail} now: an admin settled it by hand, which already took the credit back. Keep it to close the review.`,
      );
    }
    if (refusal.code === MONEY_CODES.insufficient) {
      return new ConflictError(
        `The customer (${review.userEmail}) no longer holds the ${amountText} of this deposit: nothing was taken back. Keep it (accept the loss) or settle it with the customer.`,
      );
    }
    return undefined;
  }

  /** USD value of the deposit at the current price (the History row's value when the token has no price now). */
  private async usd(review: DepositReviewRecord): Promise<{ usd: Money; price?: string }> {
    const quote = await this.prices.quote(review.token).catch(() => undefined);
    if (quote) return { usd: usdValue(toMoney(review.amount), quote.price), price: quote.price.toString() };
    return { usd: toMoney(review.usdAmount ?? '0') };
  }

  /**
   * "Take back": reverses the credit of a flagged deposit. Gated by four-eyes (the answer is then the 202 request); a
   * customer who no longer holds the amount gets a 409 and nothing changes. `applying`: a second admin's approval,
   * applied in its transaction exactly as bound.
   */
  async takeBack(actor: Actor, depositId: string, input: { reason: string }, applying?: Applying): Promise<DepositReviewResolvedDto | PendingApprovalDto> {
    const review = await this.found(depositId, applying?.tx);
    const reason = input.reason.trim();
    const amountText = describeAmount(review.amount, review.token, review.symbol ?? review.token);
    const network = findNetwork(review.network)?.shortName ?? review.network;
    const notice = this.notifications.notificationRecord({
      userId: review.userId,
      title: 'Deposit reversed',
      message: `Your deposit of ${amountText} on ${network} was reversed after its block was dropped from the blockchain. Reason: ${reason} Transaction hash: ${review.txid}`,
      status: 'rejected',
      createdBy: actor.id,
      transactionId: review.transactionId,
    });
    const mail = this.mail.outboxRecord({
      to: review.userEmail,
      subject: `Deposit reversed: ${amountText}`,
      text: `Hello ${review.userName},\n\nyour deposit of ${amountText} on ${network} was credited, then its block was dropped from the blockchain, so it was reversed.\n\nReason: ${reason}\nTransaction: ${review.txid}\n`,
    });
    const audit = this.audit.row(actor, {
      action: 'chain.deposit_take_back',
      targetType: 'transaction',
      targetId: review.transactionId,
      before: { state: 'credited', review: 'orphaned_after_credit' },
      after: {
        depositId: review.id,
        network: review.network,
        txid: review.txid,
        outputIndex: review.outputIndex,
        amount: review.amount,
        token: review.token,
        state: 'dropped',
        resolution: 'taken_back',
        reason,
      },
    });
    const note = `Reversed after its block was dropped from the blockchain: ${reason}`;
    const args = (shard: number) => [review.id, reason, note, actor.id, shard, { notifications: [notice.row], audit: [audit], mail: [mail.row] }];
    const options = {
      changes: [{ userId: review.userId, token: review.token }],
      refuse: (refusal: MoneyRefusal) => this.refusal(refusal, review, amountText),
    };
    const done = { message: `${amountText} was taken back from ${review.userEmail}.` };
    const legsOf = (plan: ReversalPlan) => transfer(customer(plan.userId, plan.token), platform('deposits', plan.token, LEASED_SHARD), toMoney(plan.amount));

    if (applying) {
      // The approval applies exactly the lines it bound, or nothing (its transaction rolls back).
      const plan = (await this.ledger.runIn(applying.tx, REVERSE_CHAIN_DEPOSIT, args, options)) as ReversalPlan;
      requireBoundLines(applying, legsOf(plan));
      await notice.publish(applying.tx);
      await mail.publish(applying.tx);
      return { ...done, review: await this.view(depositId, applying.tx) };
    }
    if (this.gate.decides(actor)) {
      const { usd, price } = await this.usd(review);
      const held = await inTransaction(this.db, async (tx) => {
        // The plan under the deposit's row lock: the gate stores what would move now, the call applies the same.
        const plan = (await this.ledger.runIn(tx, PLAN_CHAIN_DEPOSIT_REVERSAL, () => [review.id], options)) as ReversalPlan;
        const pending = await this.gate.holdIfGated(
          actor,
          legsOf(plan),
          {
            action: 'reverse-chain-deposit',
            userId: plan.userId,
            transactionId: plan.transactionId,
            payload: { depositId: review.id, reason },
            basis: price ? { price } : {},
            usd,
            summary: `Take back the chain deposit of ${amountText} from ${review.userEmail} (its block was orphaned after credit)`,
            reason,
          },
          tx,
        );
        if (pending) return pending;
        await this.ledger.runIn(tx, REVERSE_CHAIN_DEPOSIT, args, options);
        return undefined;
      });
      if (held) return held;
      notice.announce();
      mail.announce();
    } else {
      await this.ledger.run(REVERSE_CHAIN_DEPOSIT, args, { ...options, announce: [notice.announce, mail.announce] });
    }
    return { ...done, review: await this.view(depositId) };
  }

  /** "Keep (accept loss)": the customer keeps the credit; the review is resolved with the reason. No money moves. */
  async keep(actor: Actor, depositId: string, input: { reason: string }): Promise<DepositReviewResolvedDto> {
    const review = await this.found(depositId);
    const reason = input.reason.trim();
    const amountText = describeAmount(review.amount, review.token, review.symbol ?? review.token);
    const audit = this.audit.row(actor, {
      action: 'chain.deposit_keep',
      targetType: 'transaction',
      targetId: review.transactionId,
      before: { state: review.state, review: 'orphaned_after_credit' },
      after: { depositId: review.id, network: review.network, txid: review.txid, amount: review.amount, token: review.token, resolution: 'kept', reason },
    });
    await this.ledger.run(KEEP_CHAIN_DEPOSIT, () => [review.id, reason, actor.id, { audit: [audit] }], {
      refuse: (refusal) => this.refusal(refusal, review, amountText),
    });
    return { message: `Kept: ${review.userEmail} keeps the ${amountText}; the review is resolved.`, review: await this.view(depositId) };
  }
}
