import { Inject, Injectable } from '@nestjs/common';
import type { ModifyTransactionDto, PendingApprovalDto, TransactionChangeDto, TransactionStatus } from '@coinpurse/contract';
import { ConflictError, InvalidInputError, NotFoundError } from '../../common/errors';
import type { Actor } from '../../common/principal';
import { DATABASE, type Database, type Tx } from '../../db/database';
import { AuditService } from '../audit/audit.service';
import { inTransaction } from '../../db/in-transaction';

import { LedgerService } from '../ledger/ledger.service';
import { MONEY_CODES, moneyRefusalOf } from '../ledger/money-errors';
import { TransactionsRepository, type TransactionView } from '../wallet/transactions.repository';
import { validateTxHash } from '../wallet/tx-hash';
import { NetworksService } from '../networks/networks.service';
import { describe, symbolOf, toTransactionDto } from '../wallet/wallet-common';
import { UUID_TEXT } from '../../common/page-cursor';
import { AdminMoneySupport } from './admin-money-support';
import { type Applied, legsOf, type Plan, PLAN_TRANSACTION_STATUS, SET_TRANSACTION_STATUS, viewOf, CUSTOMER_CHANGES } from './admin-transaction-functions';
import { removedToken, TYPE_LABEL } from './admin-transaction-rows';
import { type Applying, requireBoundLines } from '../approvals/applying';
import { ApprovalGate } from '../approvals/approval-gate.service';

/** A txHash checked against the format of its withdrawal's network, with its explorer page. */
interface TxHash {
  hash: string;
  link: string | null;
}

/** Status changes of deposits and withdrawals: any status to any status, each posting its ledger effect. */
@Injectable()
export class TransactionStatusService {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly ledger: LedgerService,
    private readonly transactions: TransactionsRepository,
    private readonly audit: AuditService,
    private readonly gate: ApprovalGate,
    private readonly support: AdminMoneySupport,
    private readonly networks: NetworksService,
  ) {}

  /**
   * One call of `cp_set_transaction_status` (the row locked, the rules, the movement, the rows). While the four-eyes gate
   * decides, the plan is read under the row lock first and the change may be held instead; an approval being applied
   * checks it moves exactly the lines it bound. Concurrent changes serialize on the row lock.
   */
  async modify(actor: Actor, input: ModifyTransactionDto, applying?: Applying): Promise<TransactionChangeDto | PendingApprovalDto> {
    if (!UUID_TEXT.test(input.tId)) throw new NotFoundError('Transaction not found.');
    const txHash = await this.checkedTxHash(input, applying?.tx);
    if (applying) return this.decided(applying.tx, actor, input, txHash, applying);
    if (this.gate.decides(actor)) return inTransaction(this.db, (tx) => this.decided(tx, actor, input, txHash));
    let applied: Applied;
    try {
      applied = (await this.ledger.run(SET_TRANSACTION_STATUS, (shard) => this.args(actor, input, txHash, shard), { changes: CUSTOMER_CHANGES })) as Applied;
    } catch (error) {
      // Nothing was written. The type, token and amount never change: the transaction read now names them right.
      throw await refusalOf(error, input.modification, () => this.transactions.findView(input.tId));
    }
    this.support.announceNotification(applied);
    return answer(applied);
  }

  /** In `tx`: the plan under the row lock, the four-eyes gate (or the approval's bound lines), then the change. */
  private async decided(
    tx: Tx,
    actor: Actor,
    input: ModifyTransactionDto,
    txHash: TxHash | undefined,
    applying?: Applying,
  ): Promise<TransactionChangeDto | PendingApprovalDto> {
    const to = input.modification;
    // What a refusal names, read before anything can abort the transaction.
    const seen = await this.transactions.findView(input.tId, tx);
    const refused = async (error: unknown): Promise<never> => {
      throw await refusalOf(error, to, () => Promise.resolve(seen));
    };
    const plan = (await this.ledger
      .runIn(tx, PLAN_TRANSACTION_STATUS, () => [input.tId, to, input.expectedStatus ?? null, txHash?.hash ?? null])
      .catch(refused)) as Plan;
    if (plan.changes) {
      const record = viewOf(plan.transaction);
      const legs = legsOf(plan.lines);
      requireBoundLines(applying, legs);
      // Four-eyes: a change that moves money across what is owed to customers (see four-eyes-policy.ts); the approval
      // re-checks the status it was asked from and applies only the same movement.
      if (!applying) {
        const held = await this.gate.holdIfGated(
          actor,
          legs,
          {
            action: 'modify-transaction',
            userId: record.userId,
            transactionId: record.id,
            payload: { ...input, expectedStatus: input.expectedStatus ?? record.status },
            basis: { price: record.price ?? undefined, status: record.status },
            usd: await this.support.currentUsd(record, tx),
            summary: `Change the ${TYPE_LABEL[record.type]} of ${describe(record.coinAmount, record.token, symbolOf(record))} from ${record.status} to ${to}`,
          },
          tx,
        );
        if (held) return held;
      }
    }
    const applied = (await this.ledger
      .runIn(tx, SET_TRANSACTION_STATUS, (shard) => this.args(actor, input, txHash, shard), { changes: CUSTOMER_CHANGES })
      .catch(refused)) as Applied;
    await this.support.publishNotification(applied, tx);
    return answer(applied);
  }

  private args(actor: Actor, input: ModifyTransactionDto, txHash: TxHash | undefined, shard: number): unknown[] {
    const audit = this.audit.row(actor, {
      action: 'transaction.status',
      targetType: 'transaction',
      targetId: input.tId,
      after: { status: input.modification, ...(txHash ? { txHash: txHash.hash } : {}) },
    });
    return [input.tId, input.modification, input.expectedStatus ?? null, txHash?.hash ?? null, txHash?.link ?? null, actor.id, shard, audit];
  }

  /**
   * The txHash given, checked against the format of the withdrawal's network (read first: only then is there a
   * network). Given for anything but approving a withdrawal it goes as it is: the function refuses it, after the
   * answers that come first (not found, no status, changed meanwhile, already in that status).
   */
  private async checkedTxHash(input: ModifyTransactionDto, executor?: Tx): Promise<TxHash | undefined> {
    if (input.txHash === undefined || input.txHash.trim() === '') return undefined;
    const record = await this.transactions.findView(input.tId, executor);
    if (record?.type !== 'withdrawal' || input.modification !== 'approved') return { hash: input.txHash.trim(), link: null };
    const network = record.network ?? record.token;
    const checked = validateTxHash(network, input.txHash);
    if (!checked.ok) throw new InvalidInputError(checked.message);
    return { hash: checked.hash, link: this.networks.txUrl(network, checked.hash) ?? null };
  }
}

function answer(applied: Applied): TransactionChangeDto {
  const transaction = toTransactionDto(viewOf(applied.transaction), 'admin');
  return applied.changed
    ? { message: 'Status updated successfully', changed: true, transaction }
    : { message: `The transaction is already ${transaction.status}.`, changed: false, transaction };
}

/**
 * The domain error of a refusal the status functions raised; anything else (e.g. the payouts trigger's CP011) as it
 * is. `transaction` reads the transaction the texts name (only for a refusal that names it).
 */
async function refusalOf(error: unknown, to: TransactionStatus, transaction: () => Promise<TransactionView | undefined>): Promise<unknown> {
  const refusal = moneyRefusalOf(error);
  switch (refusal?.code) {
    case MONEY_CODES.transactionGone:
      return TYPE_LABEL[refusal.detail]
        ? new ConflictError(`A ${TYPE_LABEL[refusal.detail]} has no status to change.`)
        : new NotFoundError('Transaction not found.');
    case MONEY_CODES.transactionChanged:
      return new ConflictError(`This transaction was changed meanwhile: it is now ${refusal.detail}. Reload and try again.`);
    case MONEY_CODES.txHashNotAllowed:
      return new InvalidInputError('A transaction hash can only be given when approving a withdrawal.');
    case MONEY_CODES.tokenGone: {
      const record = await transaction();
      return removedToken(record ? symbolOf(record) : refusal.detail.toUpperCase());
    }
    case MONEY_CODES.insufficient: {
      const record = await transaction();
      return record ? shortOfFunds(record, to) : error;
    }
    default:
      return error;
  }
}

/** The customer no longer holds what the change takes (409). */
function shortOfFunds(record: TransactionView, to: TransactionStatus): ConflictError {
  const amountText = describe(record.coinAmount, record.token, symbolOf(record));
  return new ConflictError(
    record.type === 'deposit'
      ? `The customer no longer holds the ${amountText} this deposit credited, so it cannot leave approved.`
      : `The customer no longer holds the ${amountText} this withdrawal needs, so it cannot be ${to === 'pending' ? 'put back to pending' : 'approved'}.`,
  );
}
