import { Inject, Injectable } from '@nestjs/common';
import type { PendingApprovalDto, UpdateBalanceDto, UpdateBalanceResponseDto } from '@coinpurse/contract';
import { randomUUID } from 'node:crypto';
import { ConflictError, InvalidInputError, NotFoundError } from '../../common/errors';
import type { Actor } from '../../common/principal';
import { DATABASE, type Database, type Tx } from '../../db/database';
import { AuditService } from '../audit/audit.service';
import { inTransaction } from '../../db/in-transaction';
import { BALANCE_CHANGED_SINCE_REQUEST, boundCustomerAmount, StaleApprovalError } from '../ledger/four-eyes-policy';
import { type IdempotencyContext, IdempotencyService } from '../ledger/idempotency';
import { LedgerService } from '../ledger/ledger.service';
import { type Money, parseAmount, plain, toMoney, tokenDecimals, usdToQuantity, usdValue } from '../ledger/money';
import { MONEY_CODES, type MoneyRefusal, moneyRefusalOf } from '../ledger/money-errors';
import { PriceService } from '../market/price.service';
import { LiveEventsService } from '../notifications/live-events.service';
import { describe, usdText } from '../wallet/wallet-common';
import type { WalletToken } from '../wallet/wallet-tokens.repository';
import type { CustomerRecord } from '../wallet/wallet-users.repository';
import { ADJUST_BALANCE, LOCK_CUSTOMER_BALANCE } from './adjustment-functions';
import { adjustmentLegs, adjustmentNoticeEvent, adjustmentRecords } from './adjustment-rows';
import { type Applying, requireBoundLines } from '../approvals/applying';
import { AdminMoneySupport } from './admin-money-support';
import { ApprovalGate, type GateRequest } from '../approvals/approval-gate.service';
import { UUID_TEXT } from '../../common/page-cursor';

export const DEFAULT_ADJUSTMENT_REASON = 'Balance adjusted by an administrator.';

/** What is decided before the lock: the token, its price, and the quantity added ('add') or the balance to set ('set'). */
interface Decided {
  token: WalletToken;
  price: Money;
  mode: 'add' | 'set';
  quantity: Money;
}

/** What cp_adjust_balance returns. */
interface Adjusted {
  /** The response as JSON text: what an Idempotency-Key replays, byte for byte. */
  answer: string;
  moved: boolean;
  /** The customer's notification (null: nothing moved). */
  message: string | null;
}

/** The domain error of a refusal cp_adjust_balance (or cp_lock_customer_balance) raises. */
function refusalOf({ code }: MoneyRefusal, symbol: string): Error | undefined {
  switch (code) {
    case MONEY_CODES.insufficient:
      return new ConflictError(`Insufficient ${symbol} balance`);
    case MONEY_CODES.tokenGone:
      return new InvalidInputError(`${symbol} is no longer a supported token: it was removed meanwhile. Reload and try again.`);
    case MONEY_CODES.customerGone:
      return new NotFoundError('User not found.');
    case MONEY_CODES.balanceChanged:
      return new StaleApprovalError(BALANCE_CHANGED_SINCE_REQUEST);
    default:
      return undefined;
  }
}

/**
 * Balance adjustments ("add" to and "set" a customer's balance in USD worth of a token), with their reason. Each is one
 * call of cp_adjust_balance (drizzle/0015_adjustment_functions.sql), which decides a "set" under the lock of the
 * customer's account; while four-eyes is on, the gate decides first, under that lock, in the same transaction.
 */
@Injectable()
export class BalanceAdjustmentsService {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly ledger: LedgerService,
    private readonly prices: PriceService,
    private readonly audit: AuditService,
    private readonly idempotency: IdempotencyService,
    private readonly gate: ApprovalGate,
    private readonly support: AdminMoneySupport,
    private readonly live: LiveEventsService,
  ) {}

  /** type yes adds `amount` USD worth; no sets the balance to `amount` USD worth. One adjustment entry with its reason. */
  async updateBalance(
    actor: Actor,
    userId: string,
    input: UpdateBalanceDto,
    idem?: IdempotencyContext,
    applying?: Applying,
  ): Promise<UpdateBalanceResponseDto | PendingApprovalDto> {
    const usd = parseAmount(input.amount);
    const reason = input.msg?.trim() || DEFAULT_ADJUSTMENT_REASON;
    if (applying) {
      const decided = await this.decideApplied(userId, input, usd, applying);
      return this.adjust(actor, userId, decided, usd, reason, { tx: applying.tx, expectedBalance: decided.expectedBalance });
    }
    // Every adjustment moves money across what is owed to customers: while four-eyes is on, the gate decides it.
    if (this.gate.decides(actor)) return this.adjustGated(actor, userId, input, usd, reason, idem);
    // One round trip: the function finds the customer (or refuses) and decides under the lock.
    if (!UUID_TEXT.test(userId)) throw new NotFoundError('User not found.');
    const decided = await this.decide(input, usd).catch(async (error: unknown) => {
      // The customer's 404 comes before the request's own 400s.
      await this.support.customerOr404(userId);
      throw error;
    });
    return this.adjust(actor, userId, decided, usd, reason, { idem });
  }

  /** The token, its price now and the quantity the USD amount comes to (refused: an "add" of nothing). */
  private async decide(input: UpdateBalanceDto, usd: Money, tx?: Tx): Promise<Decided> {
    const token = await this.support.resolveToken(input.token, 'token', tx);
    if (input.type === 'yes' && usd.isZero()) throw new InvalidInputError('Amount must be greater than 0.');
    const { price } = await this.prices.quote(token.id, tx);
    const quantity = usdToQuantity(usd, price, token.id);
    if (input.type === 'yes' && quantity.isZero()) throw new InvalidInputError(`The amount is below the smallest ${token.symbol.toUpperCase()} unit.`);
    return { token, price, mode: input.type === 'yes' ? 'add' : 'set', quantity };
  }

  /**
   * An approval applies exactly the delta it bound, at the request's price; a "set" only from the balance it was
   * decided from (cp_adjust_balance refuses otherwise: CPB01, a 409). A request from before effects were bound is
   * decided now.
   */
  private async decideApplied(userId: string, input: UpdateBalanceDto, usd: Money, applying: Applying): Promise<Decided & { expectedBalance?: Money }> {
    const bound = applying.effect;
    const boundDelta = bound ? boundCustomerAmount(bound) : undefined;
    if (!bound || boundDelta === undefined) return this.decide(input, usd, applying.tx);
    const token = await this.support.resolveToken(input.token, 'token', applying.tx);
    const price = bound.price ? toMoney(bound.price) : (await this.prices.quote(token.id, applying.tx)).price;
    const delta = toMoney(boundDelta);
    requireBoundLines(applying, adjustmentLegs(userId, token.id, delta));
    if (bound.balanceBefore === undefined) return { token, price, mode: 'add', quantity: delta };
    const before = toMoney(bound.balanceBefore);
    return { token, price, mode: 'set', quantity: before.add(delta), expectedBalance: before };
  }

  /**
   * While four-eyes is on: in one transaction, the key claimed, the balance locked, what the adjustment moves decided
   * from it and put to the gate — held (202, nothing moves), or applied under the same lock.
   */
  private async adjustGated(
    actor: Actor,
    userId: string,
    input: UpdateBalanceDto,
    usd: Money,
    reason: string,
    idem?: IdempotencyContext,
  ): Promise<UpdateBalanceResponseDto | PendingApprovalDto> {
    // The customer's 404 comes before the request's own 400s; the summary names the customer.
    const user = await this.support.customerOr404(userId);
    const decided = await this.decide(input, usd);
    return inTransaction(this.db, async (tx) => {
      // First in the transaction: a duplicate waits here, and a crash rolls the claim back with the effect.
      await this.idempotency.claim(idem, tx);
      const balance = await this.lockBalance(user.id, decided.token, tx);
      const delta = decided.mode === 'add' ? decided.quantity : decided.quantity.sub(balance);
      // Nothing to move (a "set" to the balance it is): nothing to put to the gate.
      const legs = delta.isZero() ? [] : adjustmentLegs(user.id, decided.token.id, delta);
      const held = await this.gate.holdIfGated(actor, legs, gatedAdjustment(user, input, usd, reason, decided, balance, delta), tx, idem);
      if (held) return held;
      const body = await this.adjust(actor, user.id, decided, usd, reason, { tx, expectedBalance: balance });
      await this.idempotency.complete(idem, idem?.status ?? 200, body, tx);
      return body;
    });
  }

  /** The customer's balance in the token, locked until `tx` ends. */
  private async lockBalance(userId: string, token: WalletToken, tx: Tx): Promise<Money> {
    try {
      return toMoney(String(await LOCK_CUSTOMER_BALANCE.call(this.db, [userId, token.id], tx)));
    } catch (error) {
      const refusal = moneyRefusalOf(error);
      throw (refusal && refusalOf(refusal, token.symbol.toUpperCase())) || error;
    }
  }

  /**
   * Runs cp_adjust_balance: on its own (autocommit, one round trip; it claims `idem` and stores the answer), or in `tx`
   * (the gate's or an approval's transaction: the caller claims and completes the key). Returns the answer.
   */
  private async adjust(
    actor: Actor,
    userId: string,
    decided: Decided,
    usd: Money,
    reason: string,
    placement: { idem?: IdempotencyContext; tx?: undefined } | { tx: Tx; expectedBalance?: Money },
  ): Promise<UpdateBalanceResponseDto> {
    const { token, price, mode, quantity } = decided;
    const symbol = token.symbol.toUpperCase();
    const request = { id: randomUUID(), actorId: actor.id, userId, token, reason, price, at: new Date() };
    const records = adjustmentRecords(request);
    const expected = placement.tx ? placement.expectedBalance : undefined;
    const idem = placement.tx ? undefined : placement.idem;
    const args = (shard: number) => [
      request.id,
      userId,
      token.id,
      mode,
      plain(quantity),
      plain(price),
      plain(usd),
      reason,
      expected === undefined ? null : plain(expected),
      symbol,
      tokenDecimals(token.id),
      actor.id,
      request.at,
      shard,
      // Claimed first, with its answer stored once the function has decided it.
      this.idempotency.keyFor(idem, idem?.status ?? 200, null),
      records.notice,
      this.audit.row(actor, records.audit),
      records.answer,
    ];
    const refuse = (refusal: MoneyRefusal) => refusalOf(refusal, symbol);
    // A "set" to the balance it already has moves nothing: no balance event then.
    const changes = (result: unknown) => (adjustedOf(result).moved ? [{ userId, token: token.id }] : []);
    let adjusted: Adjusted;
    if (placement.tx) {
      adjusted = adjustedOf(await this.ledger.runIn(placement.tx, ADJUST_BALANCE, args, { refuse, changes }));
      if (adjusted.moved) {
        await this.live.publish(userId, adjustmentNoticeEvent(records.notice, adjusted.message!), placement.tx);
      }
    } else {
      adjusted = await this.idempotency.runClaiming(idem, async () =>
        adjustedOf(await this.ledger.run(ADJUST_BALANCE, args, { refuse, changes, beforeCommit: this.idempotency.pauseAfterClaim(idem) })),
      );
      if (idem) idem.storedBody = adjusted.answer;
      if (adjusted.moved) {
        this.live.announce([{ userId, event: adjustmentNoticeEvent(records.notice, adjusted.message!) }]);
      }
    }
    return JSON.parse(adjusted.answer) as UpdateBalanceResponseDto;
  }
}

function adjustedOf(result: unknown): Adjusted {
  return (typeof result === 'string' ? JSON.parse(result) : result) as Adjusted;
}

/** An adjustment as the four-eyes gate weighs it and a second admin reads it: the lines, price and balances it binds. */
function gatedAdjustment(
  user: CustomerRecord,
  input: UpdateBalanceDto,
  usd: Money,
  reason: string,
  decided: Decided,
  balance: Money,
  delta: Money,
): GateRequest {
  const { token, price } = decided;
  const symbol = token.symbol.toUpperCase();
  const after = balance.add(delta);
  return {
    action: 'update-balance',
    userId: user.id,
    transactionId: null,
    payload: { token: input.token, amount: input.amount, type: input.type, ...(input.msg !== undefined ? { msg: input.msg } : {}) },
    basis: {
      price: plain(price),
      ...(decided.mode === 'set' ? { balanceBefore: plain(balance), balanceAfter: plain(after) } : {}),
    },
    // The value moved: what is added, or how far the new balance is from the current one.
    usd: decided.mode === 'add' ? usd : usd.sub(usdValue(balance, price)).abs(),
    summary:
      decided.mode === 'add'
        ? `Add ${describe(plain(delta), token.id, symbol)} (${usdText(plain(usd))}) to ${user.email}`
        : `Set the ${symbol} balance of ${user.email} from ${describe(plain(balance), token.id, symbol)} to ${describe(plain(after), token.id, symbol)} (${usdText(plain(usd))})`,
    reason,
  };
}
