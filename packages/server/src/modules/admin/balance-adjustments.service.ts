import { Inject, Injectable } from '@nestjs/common';
import type { PendingApprovalDto, TransactionDto, UpdateBalanceDto, UpdateBalanceResponseDto } from '@coinpurse/contract';
import { ConflictError, InvalidInputError, NotFoundError } from '../../common/errors';
import type { Actor } from '../../common/principal';
import { DATABASE, type Database } from '../../db/database';
import { AuditService } from '../audit/audit.service';
import { sqlState } from '../ledger/db-transaction';
import { BALANCE_CHANGED_SINCE_REQUEST, boundCustomerAmount, boundLines, StaleApprovalError } from '../ledger/four-eyes-policy';
import { type IdempotencyContext, IdempotencyService } from '../ledger/idempotency';
import { BALANCE_CHANGED_STATE, changedBalanceOf, customerBalanceBefore } from '../ledger/ledger.repository';
import { sql } from 'drizzle-orm';
import { LedgerService } from '../ledger/ledger.service';
import { type Money, parseAmount, plain, toMoney, usdToQuantity, usdValue } from '../ledger/money';
import { PriceService } from '../market/price.service';
import { NotificationsService } from '../notifications/notifications.service';
import { auditStatement } from '../wallet/audit-statement';
import { TransactionsRepository } from '../wallet/transactions.repository';
import { describe, requireLiveTokens, tokenBalance, toTransactionDto, usdText } from '../wallet/wallet-common';
import { type WalletToken, WalletTokensRepository } from '../wallet/wallet-tokens.repository';
import { CUSTOMER_CHANGED_STATE, type CustomerRecord, WalletUsersRepository } from '../wallet/wallet-users.repository';
import { adjustmentRows, type Applying, requireBoundLines, tokenGoneMeanwhile } from './admin-transaction-rows';
import { AdminMoneySupport, UUID } from './admin-money-support';
import { ApprovalGate } from './approval-gate.service';

export const DEFAULT_ADJUSTMENT_REASON = 'Balance adjusted by an administrator.';

/** Balance adjustments ("add" and "set" a customer's balance in USD worth of a token), with their reason. */
@Injectable()
export class BalanceAdjustmentsService {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly ledger: LedgerService,
    private readonly prices: PriceService,
    private readonly tokens: WalletTokensRepository,
    private readonly customers: WalletUsersRepository,
    private readonly transactions: TransactionsRepository,
    private readonly notifications: NotificationsService,
    private readonly audit: AuditService,
    private readonly idempotency: IdempotencyService,
    private readonly gate: ApprovalGate,
    private readonly support: AdminMoneySupport,
  ) {}

  /** type yes adds `amount` USD worth; no sets the balance to `amount` USD worth. One adjustment entry with its reason. */
  async updateBalance(
    actor: Actor,
    userId: string,
    input: UpdateBalanceDto,
    idem?: IdempotencyContext,
    applying?: Applying,
  ): Promise<UpdateBalanceResponseDto | PendingApprovalDto> {
    const outer = applying?.tx;
    const usd = parseAmount(input.amount);
    const reason = input.msg?.trim() || DEFAULT_ADJUSTMENT_REASON;
    // Every adjustment moves money across what is owed to customers: while four-eyes is on, the gate decides it (locked path).
    const oneStatement = !outer && !this.gate.decides(actor) && (!idem || this.idempotency.claimsInStatement);
    // Steady state of "add" without a key: nothing read first (see addInOneStatement).
    const known = oneStatement && input.type === 'yes' && !idem ? this.customers.known(userId) : undefined;
    if (known) {
      const done = await this.support.customerFirst(userId, known, () => this.addInOneStatement(actor, known, input, usd, reason));
      if (done) return done;
    }
    // The customer's 404 comes before an unknown token's 400.
    const token = await this.support.resolveToken(input.token, 'token', outer).catch(async (error: unknown) => {
      await this.support.customerOr404(userId, outer);
      throw error;
    });
    const accountId = oneStatement && UUID.test(userId) ? this.ledger.knownAccountId(userId, token.id) : undefined;
    // Steady state ("set", "add" with a key): the customer and the balance as this instance last saw them, both checked
    // by the statement's guards — nothing read first. A stale balance costs one more statement; a changed customer, the read.
    const seen = accountId ? this.customers.known(userId) : undefined;
    const hint = seen && accountId ? this.ledger.balanceHint(accountId) : undefined;
    let tried: OneStatementOutcome | undefined;
    if (seen && accountId && hint !== undefined && !(input.type === 'yes' && usd.isZero())) {
      tried = await this.support.customerFirst(userId, seen, () =>
        this.updateBalanceInOneStatement(actor, seen, token, input, usd, reason, idem, { accountId, balance: hint, customerGuarded: true }),
      );
      if (typeof tried === 'object') return tried;
    }
    // The customer and the balance in one query when the account is known (its first use: customer, then account).
    const read = accountId && tried !== 'locked' ? await this.customers.findActiveCustomerWithBalance(userId, accountId) : undefined;
    if (accountId && tried !== 'locked' && !read) throw new NotFoundError('User not found.');
    const user = read?.customer ?? (await this.support.customerOr404(userId, outer));
    if (input.type === 'yes' && usd.isZero()) throw new InvalidInputError('Amount must be greater than 0.');
    const symbol = token.symbol.toUpperCase();
    if (oneStatement && tried !== 'locked') {
      const balance = read && accountId ? { accountId, balance: read.balance, customerGuarded: false } : undefined;
      const done = await this.updateBalanceInOneStatement(actor, user, token, input, usd, reason, idem, balance);
      if (typeof done === 'object') return done;
    }
    return this.support.within(outer, async (tx) => {
      // First in the transaction: a duplicate waits here, and a crash rolls the claim back with the effect.
      await this.idempotency.claim(idem, tx);
      await requireLiveTokens(this.tokens, [token], tx);
      // An approval applies exactly the delta it bound, at the request's price, and only from the balance it was decided from.
      const bound = applying?.effect;
      const price = bound?.price ? toMoney(bound.price) : (await this.prices.quote(token.id, tx)).price;
      const quantity = usdToQuantity(usd, price, token.id);
      const current = (await this.ledger.lockCustomer(user.id, [token.id], tx)).get(token.id)!;
      if (bound?.balanceBefore !== undefined && !current.eq(bound.balanceBefore)) throw new StaleApprovalError(BALANCE_CHANGED_SINCE_REQUEST);
      const boundDelta = bound ? (boundCustomerAmount(bound) ?? '0') : undefined;
      let delta: Money;
      if (boundDelta !== undefined) {
        delta = toMoney(boundDelta);
      } else if (input.type === 'yes') {
        if (quantity.isZero()) throw new InvalidInputError(`The amount is below the smallest ${symbol} unit.`);
        delta = quantity;
      } else {
        delta = quantity.sub(current);
      }
      const after = current.add(delta);
      const adjustment = delta.isZero() ? undefined : adjustmentRows(actor, user, token, input.type, reason, usd, delta, price);
      if (adjustment) {
        requireBoundLines(applying, adjustment.entry.legs);
        // The value moved: what is added, or how far the new balance is from the current one.
        const moved = input.type === 'yes' ? usd : usd.sub(usdValue(current, price)).abs();
        const held = await this.gate.hold(
          actor,
          {
            action: 'update-balance',
            userId: user.id,
            transactionId: null,
            payload: { token: input.token, amount: input.amount, type: input.type, ...(input.msg !== undefined ? { msg: input.msg } : {}) },
            effect: {
              lines: boundLines(adjustment.entry.legs),
              price: plain(price),
              ...(input.type === 'no' ? { balanceBefore: plain(current), balanceAfter: plain(after) } : {}),
            },
            usd: moved,
            summary:
              input.type === 'yes'
                ? `Add ${describe(plain(delta), token.id, symbol)} (${usdText(plain(usd))}) to ${user.email}`
                : `Set the ${symbol} balance of ${user.email} from ${describe(plain(current), token.id, symbol)} to ${describe(plain(after), token.id, symbol)} (${usdText(plain(usd))})`,
            reason,
          },
          tx,
          idem,
        );
        if (held) return held;
      }
      const balanceDto = tokenBalance({ ...token, currentPrice: plain(price) }, plain(after));
      let transaction: TransactionDto | null = null;
      if (adjustment) {
        const row = await this.transactions.insert(adjustment.record, tx);
        await this.notifications.notify(adjustment.notice, tx);
        await this.audit.record(actor, adjustment.audit(plain(current), plain(after)), tx);
        await this.ledger.post(adjustment.entry, tx, adjustment.onShort);
        transaction = toTransactionDto({ ...row, userName: user.name, userEmail: user.email, symbol: token.symbol });
      }
      const body: UpdateBalanceResponseDto = { message: 'Balance updated successfully', balance: balanceDto, transaction };
      await this.idempotency.complete(idem, idem?.status ?? 200, body, tx);
      return body;
    });
  }

  /**
   * "Add" without an idempotency key in ONE statement, one round trip, nothing read first: the customer as this instance
   * last read it, still active with that name and email (else the statement aborts), the token's share lock, the
   * customer account locked — its balance, named by the statement, is the audit's before (after: plus the amount) and
   * comes back for the response — the movement, the transaction, notification and audit rows, the entry and its lines.
   * Undefined (nothing written): the account is not known yet, the four-eyes gate holds the action, or the customer
   * changed — then `updateBalance` reads and decides as before. (With a key, the stored answer holds the balance, which
   * must then be known before the statement: "add" with a key and "set" read it first, see updateBalanceInOneStatement.)
   */
  private async addInOneStatement(
    actor: Actor,
    user: CustomerRecord,
    input: UpdateBalanceDto,
    usd: Money,
    reason: string,
  ): Promise<UpdateBalanceResponseDto | undefined> {
    const token = await this.support.resolveToken(input.token, 'token');
    if (usd.isZero()) throw new InvalidInputError('Amount must be greater than 0.');
    const accountId = this.ledger.knownAccountId(user.id, token.id);
    if (!accountId || this.gate.decides(actor)) return undefined;
    const symbol = token.symbol.toUpperCase();
    const quote = await this.prices.quote(token.id);
    const quantity = usdToQuantity(usd, quote.price, token.id);
    if (quantity.isZero()) throw new InvalidInputError(`The amount is below the smallest ${symbol} unit.`);
    const adjustment = adjustmentRows(actor, user, token, input.type, reason, usd, quantity, quote.price);
    const { statement, record } = this.transactions.insertStatement(adjustment.record);
    const notified = this.notifications.notifyStatements(adjustment.notice);
    // The balance the movement changed, from its own UPDATE: `plain` in SQL is trim_scale (no trailing zeros).
    const before = customerBalanceBefore(plain(quantity));
    const audit = auditStatement(
      actor,
      adjustment.audit(sql`to_jsonb(trim_scale(${before})::text)`, sql`to_jsonb(trim_scale(${before} + ${plain(quantity)}::numeric)::text)`),
    );
    let returned: Record<string, unknown> | undefined;
    try {
      returned = await this.ledger.postInOneRoundTrip(adjustment.entry, adjustment.onShort, {
        extra: [statement, ...notified.extra, audit],
        announce: [notified.announce],
        guards: [this.customers.unchangedGuard(user), this.tokens.liveGuard([token.id])],
        onGuard: tokenGoneMeanwhile(symbol),
        returning: sql`${before}::text as balance`,
      });
    } catch (error) {
      if (sqlState(error) !== CUSTOMER_CHANGED_STATE) throw error;
      this.customers.forget(user.id);
      return undefined;
    }
    const after = toMoney(String(returned!.balance)).add(quantity);
    this.ledger.rememberBalance(accountId, plain(after));
    const view = { ...record, userName: user.name, userEmail: user.email, symbol: token.symbol };
    this.transactions.remember(view);
    return {
      message: 'Balance updated successfully',
      balance: tokenBalance({ ...token, currentPrice: plain(quote.price) }, plain(after)),
      transaction: toTransactionDto(view),
    };
  }

  /**
   * An adjustment in ONE statement, one round trip: the idempotency claim (stored done with the response), the token's
   * share lock, the customer unchanged (when `known.customerGuarded`: the customer as this instance last saw it), the
   * customer account locked with its balance still `known.balance` (else read now, no lock), the movement, the
   * transaction, notification and audit rows, the entry and its lines. Both modes decide from that balance — "set" its
   * delta, both the audit's before/after and the response — and the statement applies only while it is exactly the
   * account's balance; when it is not, the error names the balance found and the statement runs once more with that
   * one. Returns the response,
   * 'customer' (the customer changed: read it), or 'locked' (nothing written: the balance moved again, the four-eyes
   * gate holds the action, or the key is taken — `updateBalance` then decides under the lock).
   */
  private async updateBalanceInOneStatement(
    actor: Actor,
    user: CustomerRecord,
    token: WalletToken,
    input: UpdateBalanceDto,
    usd: Money,
    reason: string,
    idem?: IdempotencyContext,
    known?: { accountId: string; balance: string; customerGuarded: boolean },
  ): Promise<OneStatementOutcome> {
    const symbol = token.symbol.toUpperCase();
    const quote = await this.prices.quote(token.id);
    const quantity = usdToQuantity(usd, quote.price, token.id);
    if (input.type === 'yes' && quantity.isZero()) throw new InvalidInputError(`The amount is below the smallest ${symbol} unit.`);
    let balance = known ?? { ...(await this.ledger.customerBalance(user.id, token.id)), customerGuarded: false };
    for (let attempt = 0; ; attempt++) {
      const current = toMoney(balance.balance);
      const delta = input.type === 'yes' ? quantity : quantity.sub(current);
      const after = current.add(delta);
      if (!delta.isZero() && this.gate.decides(actor)) return 'locked';
      const balanceDto = tokenBalance({ ...token, currentPrice: plain(quote.price) }, plain(after));
      const adjustment = delta.isZero() ? undefined : adjustmentRows(actor, user, token, input.type, reason, usd, delta, quote.price);
      const inserted = adjustment && this.transactions.insertStatement(adjustment.record);
      const notified = adjustment && this.notifications.notifyStatements(adjustment.notice);
      const view = inserted && { ...inserted.record, userName: user.name, userEmail: user.email, symbol: token.symbol };
      const body: UpdateBalanceResponseDto = {
        message: 'Balance updated successfully',
        balance: balanceDto,
        transaction: view ? toTransactionDto(view) : null,
      };
      try {
        await this.ledger.postInOneRoundTrip(
          adjustment?.entry ?? { kind: 'adjustment', transactionId: null, reason, createdBy: actor.id, legs: [] },
          adjustment?.onShort ?? (() => new ConflictError(`Insufficient ${symbol} balance`)),
          {
            extra: adjustment ? [inserted!.statement, ...notified!.extra, auditStatement(actor, adjustment.audit(plain(current), plain(after)))] : [],
            announce: notified ? [notified.announce] : [],
            guards: [
              ...(idem ? [this.idempotency.claimGuard(idem, idem.status ?? 200, body)] : []),
              ...(balance.customerGuarded ? [this.customers.unchangedGuard(user)] : []),
              this.tokens.liveGuard([token.id]),
              // Nothing moves ("set" to the balance it has): the guard alone states the balance decided from.
              ...(adjustment ? [] : [this.ledger.balanceGuard(balance.accountId, balance.balance)]),
            ],
            // A movement states it in its own UPDATE (see LedgerService.postInOneRoundTrip).
            expectedBalance: adjustment ? { accountId: balance.accountId, balance: balance.balance } : undefined,
            onGuard: tokenGoneMeanwhile(symbol),
          },
        );
      } catch (error) {
        if (sqlState(error) === CUSTOMER_CHANGED_STATE) {
          this.customers.forget(user.id);
          return 'customer';
        }
        const found = changedBalanceOf(error);
        if (found !== undefined && attempt === 0) {
          balance = { ...balance, balance: found };
          continue;
        }
        if (IdempotencyService.isKeyTaken(error) || sqlState(error) === BALANCE_CHANGED_STATE) return 'locked';
        throw error;
      }
      this.ledger.rememberBalance(balance.accountId, plain(after));
      if (view) this.transactions.remember(view);
      return body;
    }
  }
}

/** What a one-statement adjustment came to: the response, or why `updateBalance` must go on (see updateBalanceInOneStatement). */
type OneStatementOutcome = UpdateBalanceResponseDto | 'customer' | 'locked';
