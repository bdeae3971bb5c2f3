import { Inject, Injectable } from '@nestjs/common';
import type { DeleteTransactionResponseDto, PendingApprovalDto } from '@coinpurse/contract';
import { ConflictError, NotFoundError } from '../../common/errors';
import type { Actor } from '../../common/principal';
import { DATABASE, type Database, type Executor, type Tx } from '../../db/database';
import { AuditService } from '../audit/audit.service';
import { inTransaction } from '../../db/in-transaction';
import { MOVEMENT_CHANGED_SINCE_REQUEST, StaleApprovalError } from '../ledger/four-eyes-policy';
import { LedgerService } from '../ledger/ledger.service';
import { MONEY_CODES, moneyRefusalOf } from '../ledger/money-errors';
import { TransactionsRepository } from '../wallet/transactions.repository';
import { describe } from '../wallet/wallet-common';
import { WalletTokensRepository } from '../wallet/wallet-tokens.repository';
import { AdminMoneySupport } from './admin-money-support';
import { type Applied, legsOf, type Plan, PLAN_VOID_TRANSACTION, viewOf, VOID_TRANSACTION, CUSTOMER_CHANGES } from './admin-transaction-functions';
import { removedToken, TYPE_LABEL } from './admin-transaction-rows';
import { type Applying, requireBoundLines } from '../approvals/applying';
import { ApprovalGate } from '../approvals/approval-gate.service';
import { UUID_TEXT } from '../../common/page-cursor';

const DELETED = { message: 'Transaction deleted successfully' };

/** The symbol of each token a void's texts may name (by coin id; upper case). */
type SymbolOf = (token: string) => string;

/** Voids: a transaction's ledger effect reversed; it is hidden from lists and kept in the ledger and the audit. */
@Injectable()
export class TransactionVoidsService {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly ledger: LedgerService,
    private readonly transactions: TransactionsRepository,
    private readonly tokens: WalletTokensRepository,
    private readonly audit: AuditService,
    private readonly gate: ApprovalGate,
    private readonly support: AdminMoneySupport,
  ) {}

  /**
   * One call of `cp_void_transaction` (the row locked, the reversal, the rows; 409 when the customer no longer holds
   * what must come back). While the four-eyes gate decides, the plan is read under the row lock first and the void may
   * be held instead; an approval being applied voids only from the status it bound, moving exactly the lines it bound.
   */
  async void(actor: Actor, id: string, applying?: Applying): Promise<DeleteTransactionResponseDto | PendingApprovalDto> {
    if (!UUID_TEXT.test(id)) throw new NotFoundError('Transaction not found.');
    if (applying) return this.decided(applying.tx, actor, id, applying);
    if (this.gate.decides(actor)) return inTransaction(this.db, (tx) => this.decided(tx, actor, id));
    let applied: Applied;
    try {
      applied = (await this.ledger.run(VOID_TRANSACTION, (shard) => this.args(actor, id, null, shard), { changes: CUSTOMER_CHANGES })) as Applied;
    } catch (error) {
      throw refusalOf(error, await this.symbols([moneyRefusalOf(error)?.detail]));
    }
    this.support.announceNotification(applied);
    return DELETED;
  }

  /** In `tx`: the plan under the row lock, the four-eyes gate (or the approval's bound status and lines), then the void. */
  private async decided(tx: Tx, actor: Actor, id: string, applying?: Applying): Promise<DeleteTransactionResponseDto | PendingApprovalDto> {
    // The symbols a refusal names, read before anything can abort the transaction.
    const seen = await this.transactions.findView(id, tx);
    const symbolOf = await this.symbols([seen?.token, seen?.details?.toToken], tx);
    const refused = (error: unknown): never => {
      throw refusalOf(error, symbolOf);
    };
    const expected = applying?.effect?.status ?? null;
    const plan = (await this.ledger.runIn(tx, PLAN_VOID_TRANSACTION, () => [id, expected]).catch(refused)) as Plan;
    const record = viewOf(plan.transaction);
    const legs = legsOf(plan.lines);
    requireBoundLines(applying, legs);
    if (!applying) {
      const held = await this.gate.holdIfGated(
        actor,
        legs,
        {
          action: 'delete-trx',
          userId: record.userId,
          transactionId: record.id,
          payload: { id: record.id },
          basis: { price: record.price ?? undefined, status: record.status },
          usd: await this.support.currentUsd(record, tx),
          summary: `Delete (reverse) the ${record.status} ${TYPE_LABEL[record.type]} of ${describe(record.coinAmount, record.token, symbolOf(record.token))}`,
        },
        tx,
      );
      if (held) return held;
    }
    const applied = (await this.ledger
      .runIn(tx, VOID_TRANSACTION, (shard) => this.args(actor, id, expected, shard), { changes: CUSTOMER_CHANGES })
      .catch(refused)) as Applied;
    await this.support.publishNotification(applied, tx);
    return DELETED;
  }

  private args(actor: Actor, id: string, expected: string | null, shard: number): unknown[] {
    const audit = this.audit.row(actor, { action: 'transaction.void', targetType: 'transaction', targetId: id, after: { voided: true } });
    return [id, expected, actor.id, shard, audit];
  }

  /** The symbols of these coins, upper case (a coin not known: its id). */
  private async symbols(tokens: unknown[], executor?: Executor): Promise<SymbolOf> {
    const ids = tokens.filter((token): token is string => typeof token === 'string' && token !== '');
    const coins = await this.tokens.coinsByIds(ids, executor);
    return (token) => (coins.get(token)?.symbol ?? token).toUpperCase();
  }
}

/** The domain error of a refusal the void functions raised; anything else (e.g. the payouts trigger's CP011) as it is. */
function refusalOf(error: unknown, symbolOf: SymbolOf): unknown {
  const refusal = moneyRefusalOf(error);
  switch (refusal?.code) {
    case MONEY_CODES.transactionGone:
      return new NotFoundError('Transaction not found.');
    case MONEY_CODES.transactionChanged:
      // Only an approval being applied states the status it expects.
      return new StaleApprovalError(MOVEMENT_CHANGED_SINCE_REQUEST);
    case MONEY_CODES.tokenGone:
      return removedToken(symbolOf(refusal.detail));
    case MONEY_CODES.insufficient:
      return new ConflictError(`This transaction cannot be deleted: the customer no longer holds the ${symbolOf(refusal.detail)} it would take back.`);
    default:
      return error;
  }
}
