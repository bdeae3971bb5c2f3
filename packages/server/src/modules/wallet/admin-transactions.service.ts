import { Inject, Injectable } from '@nestjs/common';
import type {
  AdminUserDto,
  DeleteTransactionResponseDto,
  DepositDto,
  LiabilitiesDto,
  ModifyTransactionDto,
  PendingApprovalDto,
  TransactionChangeDto,
  TransactionDto,
  TransactionStatus,
  UpdateBalanceDto,
  UpdateBalanceResponseDto,
  UsersQueryDto,
} from '@coinpurse/contract';
import { randomUUID } from 'node:crypto';
import { countryName } from '../../common/countries';
import { ConflictError, InvalidInputError, NotFoundError } from '../../common/errors';
import type { Actor } from '../../common/principal';
import { DATABASE, type Database, type Executor, type Tx } from '../../db/database';
import { ApprovalGate } from '../admin/approval-gate.service';
import { AuditService } from '../audit/audit.service';
import { inTransaction, sqlState } from '../ledger/db-transaction';
import { is, SQL, sql } from 'drizzle-orm';
import {
  BALANCE_CHANGED_SINCE_REQUEST,
  type BoundEffect,
  boundCustomerAmount,
  boundLines,
  isGated,
  location,
  MOVEMENT_CHANGED_SINCE_REQUEST,
  refundsSettledWithdrawal,
  sameLines,
  StaleApprovalError,
} from '../ledger/four-eyes-policy';
import { type IdempotencyContext, IdempotencyService } from '../ledger/idempotency';
import { type AccountKey, BALANCE_CHANGED_STATE, changedBalanceOf, customerBalanceBefore, type MoneyGuard } from '../ledger/ledger.repository';
import { customer, type EntryInput, type Leg, LEASED_SHARD, LedgerService, platform, transfer } from '../ledger/ledger.service';
import { type Money, parseAmount, plain, toMoney, usdNumber, usdToQuantity, usdValue } from '../ledger/money';
import { PriceService } from '../market/price.service';
import { NotificationsService } from '../notifications/notifications.service';
import { TRANSACTION_CHANGED_STATE, type TransactionRecord, TransactionsRepository } from './transactions.repository';
import { auditStatement, jsonWith } from './audit-statement';
import { describe, parseLimit, requireLiveTokens, tokenBalance, toTransactionDto, usdText } from './wallet-common';
import { TOKEN_GONE_STATE, type WalletToken, WalletTokensRepository } from './wallet-tokens.repository';
import { CUSTOMER_CHANGED_STATE, type CustomerRecord, WalletUsersRepository } from './wallet-users.repository';
import { txExplorerUrl, validateTxHash } from './tx-hash';
import { WalletService } from './wallet.service';
import { findNetwork, NATIVE_NETWORK, NETWORKS } from '../../common/networks';
import { TokenNetworksRepository } from '../networks/token-networks.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const DEFAULT_ADJUSTMENT_REASON = 'Balance adjusted by an administrator.';

function sameAccount(a: AccountKey, b: AccountKey): boolean {
  return (
    a.kind === b.kind &&
    a.token === b.token &&
    (a.kind === 'customer' ? a.userId === (b as { userId: string }).userId : a.code === (b as { code: string }).code)
  );
}

/** A status change or void would give a customer money (or a pending transaction) in a token no longer supported. */
const removedToken = (symbol: string) =>
  new ConflictError(`${symbol} is no longer a supported token, so this would leave the customer holding it. Add the token again first.`);

/** The `onGuard` of a one-statement write crediting `symbol`: the token was removed since it was looked up (400). */
const tokenGoneMeanwhile = (symbol: string) => (code: string) =>
  code === TOKEN_GONE_STATE ? new InvalidInputError(`${symbol} is no longer a supported token: it was removed meanwhile. Reload and try again.`) : undefined;

const TYPE_LABEL: Record<string, string> = { deposit: 'deposit', withdrawal: 'withdrawal', swap: 'swap', adjustment: 'balance adjustment' };

/** A four-eyes approval being applied by the second admin: in its transaction, with the effect it binds (null: a request from before effects were bound). */
export interface Applying {
  tx: Tx;
  effect: BoundEffect | null;
}

/** Nothing of an approval is applied when the movement decided now is not the one it bound. */
function requireBoundLines(applying: Applying | undefined, legs: Leg[]): void {
  if (applying?.effect && !sameLines(applying.effect.lines, legs)) throw new StaleApprovalError(MOVEMENT_CHANGED_SINCE_REQUEST);
}

@Injectable()
export class AdminTransactionsService {
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
    private readonly wallet: WalletService,
    private readonly tokenNetworks: TokenNetworksRepository,
    private readonly gate: ApprovalGate,
  ) {}

  /** In the caller's transaction (a four-eyes approval being applied), or in a new one. */
  private within<T>(outer: Tx | undefined, work: (tx: Tx) => Promise<T>): Promise<T> {
    return outer ? work(outer) : inTransaction(this.db, work);
  }

  /** USD value of a recorded quantity at the current price (the recorded value when no price is available). */
  private async currentUsd(record: Pick<TransactionRecord, 'token' | 'coinAmount' | 'usdAmount'>, tx?: Executor): Promise<Money> {
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

  /**
   * What a deposit's `network` names: a supported token (id, name or symbol → its first network), or a network id
   * (→ the token on it: the network's native coin when supported, else the only token there). Anything else → 400
   * with the choices.
   */
  async resolveDepositTarget(input: string, executor?: Tx): Promise<{ token: WalletToken; network: string; address: string | null }> {
    const wanted = input.trim().toLowerCase();
    const [supported, rows] = await Promise.all([this.tokens.listSupported(executor), this.tokenNetworks.listLive({}, executor)]);
    const token = supported.find((t) => t.id === wanted) ?? supported.find((t) => t.name.toLowerCase() === wanted);
    const bySymbol = supported.filter((t) => t.symbol.toLowerCase() === wanted);
    const chosen = token ?? (bySymbol.length === 1 ? bySymbol[0] : undefined);
    if (chosen) {
      const first = rows.find((r) => r.coinId === chosen.id);
      return { token: chosen, network: first?.network ?? wanted, address: first?.address ?? chosen.address };
    }
    const network = findNetwork(wanted);
    const names = `${supported.map((t) => t.id).join(', ')}`;
    if (!network) {
      throw new InvalidInputError(
        `Unknown network "${input.slice(0, 60)}". Use a supported token (${names}) or a network id (${NETWORKS.map((n) => n.id).join(', ')}).`,
      );
    }
    const onNetwork = rows.filter((r) => r.network === network.id);
    const native = onNetwork.find((r) => NATIVE_NETWORK[r.coinId] === network.id);
    const row = native ?? (onNetwork.length === 1 ? onNetwork[0] : undefined);
    const rowToken = row && supported.find((t) => t.id === row.coinId);
    if (!row || !rowToken) {
      throw new InvalidInputError(
        onNetwork.length
          ? `Several tokens are on ${network.name} (${onNetwork.map((r) => r.coinId).join(', ')}): use the token id.`
          : `No supported token is on ${network.name}. Use a supported token: ${names}.`,
      );
    }
    return { token: rowToken, network: row.network, address: row.address };
  }

  private async customerOr404(userId: string, executor?: Tx): Promise<CustomerRecord> {
    const user = UUID.test(userId) ? await this.customers.findActiveCustomer(userId, executor) : undefined;
    if (!user) throw new NotFoundError('User not found.');
    return user;
  }

  /**
   * Runs `work`, decided with the customer `known` from this instance's cache (no read first): when it refuses, a
   * customer gone meanwhile is answered first (404), as on the path that reads the customer before anything else.
   */
  private async customerFirst<T>(userId: string, known: CustomerRecord | undefined, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (known) await this.customerOr404(userId);
      throw error;
    }
  }

  /** The current symbol of a coin from the reference data cache (no trip), as the view's join gives it (null: none). */
  private async coinSymbol(token: string): Promise<string | null> {
    return (await this.tokens.coinsByIds([token])).get(token)?.symbol ?? null;
  }

  async deposit(actor: Actor, userId: string, input: DepositDto, idem?: IdempotencyContext, applying?: Applying): Promise<TransactionDto | PendingApprovalDto> {
    const outer = applying?.tx;
    const usd = parseAmount(input.amount);
    // A call the four-eyes gate does not decide: ONE statement (see depositInOneStatement).
    const gated = input.status === 'approved' && this.gate.decides(actor);
    const oneStatement = !outer && !gated && (!idem || this.idempotency.claimsInStatement);
    // Steady state: the customer as this instance last read it (the statement's guard re-checks it), no read first.
    const known = oneStatement ? this.customers.known(userId) : undefined;
    let user = known ?? (await this.customerOr404(userId, outer));
    const target = await this.customerFirst(userId, known, () => this.resolveDepositTarget(input.network, outer));
    const { token } = target;
    const symbol = token.symbol.toUpperCase();
    if (oneStatement) {
      const done = await this.customerFirst(userId, known, () => this.depositInOneStatement(actor, user, target, input, usd, idem));
      if (done) return done;
      // The customer changed meanwhile (or the key is taken): read again, then the multi-statement way.
      if (known) user = await this.customerOr404(userId);
    }
    return this.within(outer, async (tx) => {
      // First in the transaction: a duplicate waits here, and a crash rolls the claim back with the effect.
      await this.idempotency.claim(idem, tx);
      await requireLiveTokens(this.tokens, [token], tx);
      // An approval credits exactly the quantity it bound, at the request's price (not one recomputed now).
      const bound = applying?.effect;
      const price = bound?.price ? toMoney(bound.price) : (await this.prices.quote(token.id, tx)).price;
      const boundQuantity = bound && boundCustomerAmount(bound);
      const quantity = boundQuantity ? toMoney(boundQuantity) : usdToQuantity(usd, price, token.id);
      if (quantity.isZero()) throw new InvalidInputError(`The amount is below the smallest ${symbol} unit.`);
      const deposit = depositRows(actor, user, target, input.status, quantity, price);
      requireBoundLines(applying, deposit.legs);
      if (isGated(deposit.legs)) {
        const held = await this.gate.hold(
          actor,
          {
            action: 'deposit',
            userId: user.id,
            transactionId: null,
            payload: { ...input },
            effect: { lines: boundLines(deposit.legs), price: plain(price) },
            usd,
            summary: `Approved deposit of ${describe(plain(quantity), token.id, symbol)} (${usdText(plain(usd))}) for ${user.email}`,
          },
          tx,
          idem,
        );
        if (held) return held;
      }
      const row = await this.transactions.insert(deposit.record, tx);
      await this.notifications.notify(deposit.notice, tx);
      await this.audit.record(actor, deposit.audit, tx);
      if (deposit.legs.length) {
        await this.ledger.post(deposit.entry, tx, () => new ConflictError('The deposit could not be credited.'));
      }
      const body = toTransactionDto({ ...row, userName: user.name, userEmail: user.email, symbol: token.symbol });
      await this.idempotency.complete(idem, idem?.status ?? 201, body, tx);
      return body;
    });
  }

  /**
   * A deposit in ONE statement, one round trip: the idempotency claim (stored done with the response), the customer
   * still active with the name and email the response shows, the token's share lock, then (approved) the customer's and
   * the deposits account, the transaction, notification and audit rows, the entry and its lines; the live events are
   * announced after the commit. Undefined (nothing written): the key is taken by a concurrent duplicate (the caller then claims it
   * the multi-statement way, which replays or refuses as usual), or the customer changed.
   */
  private async depositInOneStatement(
    actor: Actor,
    user: CustomerRecord,
    target: { token: WalletToken; network: string; address: string | null },
    input: DepositDto,
    usd: Money,
    idem?: IdempotencyContext,
  ): Promise<TransactionDto | undefined> {
    const { token } = target;
    const symbol = token.symbol.toUpperCase();
    const quote = await this.prices.quote(token.id);
    const quantity = usdToQuantity(usd, quote.price, token.id);
    if (quantity.isZero()) throw new InvalidInputError(`The amount is below the smallest ${symbol} unit.`);
    const deposit = depositRows(actor, user, target, input.status, quantity, quote.price);
    const { statement, record } = this.transactions.insertStatement(deposit.record);
    const notified = this.notifications.notifyStatements(deposit.notice);
    const audit = auditStatement(actor, deposit.audit);
    const view = { ...record, userName: user.name, userEmail: user.email, symbol: token.symbol };
    const body = toTransactionDto(view);
    try {
      // Not approved: no money moves (only the rows are written).
      await this.ledger.postInOneRoundTrip(deposit.entry, () => new ConflictError('The deposit could not be credited.'), {
        extra: [statement, ...notified.extra, audit],
        announce: [notified.announce],
        guards: [
          ...(idem ? [this.idempotency.claimGuard(idem, idem.status ?? 201, body)] : []),
          this.customers.unchangedGuard(user),
          this.tokens.liveGuard([token.id]),
        ],
        onGuard: tokenGoneMeanwhile(symbol),
      });
    } catch (error) {
      if (sqlState(error) === CUSTOMER_CHANGED_STATE) {
        this.customers.forget(user.id);
        return undefined;
      }
      if (!IdempotencyService.isKeyTaken(error)) throw error;
      return undefined;
    }
    // The admin acts on it next (approve, void): known, that is one statement too.
    this.transactions.remember(view);
    return body;
  }

  private async lockTransaction(id: string, tx: Tx): Promise<TransactionRecord> {
    const record = UUID.test(id) ? await this.transactions.findForUpdate(id, tx) : undefined;
    if (!record || record.voidedAt) throw new NotFoundError('Transaction not found.');
    return record;
  }

  /** Any status to any status on deposits and withdrawals; each change posts its ledger effect. Concurrent changes serialize on the row lock. */
  async modify(actor: Actor, input: ModifyTransactionDto, applying?: Applying): Promise<TransactionChangeDto | PendingApprovalDto> {
    const outer = applying?.tx;
    if (!outer) {
      const done = await this.modifyInOneStatement(actor, input);
      if (done) return done;
    }
    return this.within(outer, async (tx) => {
      const record = await this.lockTransaction(input.tId, tx);
      if (record.type !== 'deposit' && record.type !== 'withdrawal') throw new ConflictError(`A ${TYPE_LABEL[record.type]} has no status to change.`);
      if (input.expectedStatus && input.expectedStatus !== record.status)
        throw new ConflictError(`This transaction was changed meanwhile: it is now ${record.status}. Reload and try again.`);
      const view = async () => toTransactionDto((await this.transactions.findView(record.id, tx))!);
      if (record.status === input.modification) return { message: `The transaction is already ${record.status}.`, changed: false, transaction: await view() };
      let txHash: string | undefined;
      if (input.txHash !== undefined && input.txHash.trim() !== '') {
        if (record.type !== 'withdrawal' || input.modification !== 'approved')
          throw new InvalidInputError('A transaction hash can only be given when approving a withdrawal.');
        const checked = validateTxHash(record.network ?? record.token, input.txHash);
        if (!checked.ok) throw new InvalidInputError(checked.message);
        txHash = checked.hash;
      }

      const symbol = ((await this.tokens.coinsByIds([record.token], tx)).get(record.token)?.symbol ?? record.token).toUpperCase();
      const change = statusChangeRows(actor, record, symbol, input.modification, txHash);
      // Crediting the customer or making it pending again exposes the token: it must still be supported (share lock).
      if (change.exposesToken) await requireLiveTokens(this.tokens, [{ id: record.token, symbol }], tx, removedToken);
      // Four-eyes: a change that moves money across what is owed to customers (see four-eyes-policy.ts); the approval
      // re-checks the status it was asked from and applies only the same movement.
      requireBoundLines(applying, change.entry.legs);
      if (isGated(change.entry.legs)) {
        const held = await this.gate.hold(
          actor,
          {
            action: 'modify-transaction',
            userId: record.userId,
            transactionId: record.id,
            payload: { ...input, expectedStatus: input.expectedStatus ?? record.status },
            effect: { lines: boundLines(change.entry.legs), price: record.price ?? undefined, status: record.status },
            usd: await this.currentUsd(record, tx),
            summary: `Change the ${TYPE_LABEL[record.type]} of ${change.amountText} from ${record.status} to ${input.modification}`,
            kinds: refundsSettledWithdrawal(change.entry.legs) ? ['settled-refund'] : [],
          },
          tx,
        );
        if (held) return held;
      }
      await this.transactions.setStatus(record.id, input.modification, tx);
      if (txHash) await this.transactions.setTxHash(record.id, txHash, tx);
      await this.notifications.notify(change.notice, tx);
      await this.audit.record(actor, change.audit, tx);
      if (change.entry.legs.length) await this.ledger.post(change.entry, tx, change.onShort);
      return { message: 'Status updated successfully', changed: true, transaction: await view() };
    });
  }

  /**
   * The usual status change in ONE statement, one round trip: the transaction as this instance last read it (the admin
   * list, the deposit it wrote; else read first), whose row is updated only if it still has that status, details and
   * customer name and email (else the statement aborts), the token's share lock, the ledger movement, notification and
   * audit rows. Its other fields never change. Undefined (nothing written): anything else — an answer that is not a
   * change (an error, already in that status), an action the four-eyes gate holds, or a concurrent change — is decided
   * under the row lock by `modify`.
   */
  private async modifyInOneStatement(actor: Actor, input: ModifyTransactionDto): Promise<TransactionChangeDto | undefined> {
    const record = UUID.test(input.tId) ? (this.transactions.known(input.tId) ?? (await this.transactions.findView(input.tId))) : undefined;
    if (!record || record.voidedAt || (record.type !== 'deposit' && record.type !== 'withdrawal')) return undefined;
    if ((input.expectedStatus && input.expectedStatus !== record.status) || record.status === input.modification) return undefined;
    let txHash: string | undefined;
    if (input.txHash !== undefined && input.txHash.trim() !== '') {
      if (record.type !== 'withdrawal' || input.modification !== 'approved') return undefined;
      const checked = validateTxHash(record.network ?? record.token, input.txHash);
      if (!checked.ok) return undefined;
      txHash = checked.hash;
    }
    // The gate decides a gated movement under its locks (the window's sums), in `modify`.
    if (this.gate.decides(actor) && isGated(statusChangeLegs(record, input.modification))) return undefined;

    const coinSymbol = await this.coinSymbol(record.token);
    const symbol = (coinSymbol ?? record.token).toUpperCase();
    const change = statusChangeRows(actor, record, symbol, input.modification, txHash);
    const notified = this.notifications.notifyStatements(change.notice);
    const changed = await this.inOneStatement(
      record.id,
      change.entry,
      change.onShort,
      [
        this.transactions.statusChangeGuard(record.id, record.status, input.modification, record, txHash),
        ...(change.exposesToken ? [this.tokens.liveGuard([record.token])] : []),
      ],
      [...notified.extra, auditStatement(actor, change.audit)],
      [notified.announce],
      () => removedToken(symbol),
    );
    if (!changed) return undefined;
    const details = txHash ? { ...(record.details ?? {}), txHash } : record.details;
    const after = { ...record, symbol: coinSymbol, status: input.modification, details };
    this.transactions.remember(after);
    return { message: 'Status updated successfully', changed: true, transaction: toTransactionDto(after) };
  }

  /**
   * Runs a one-statement change (see LedgerService.postInOneRoundTrip) whose first guard re-checks the transaction row.
   * False: the row changed since it was read (nothing was written; it is read again next time). A token removed
   * meanwhile throws `removed()`.
   */
  private async inOneStatement(
    transactionId: string,
    entry: EntryInput,
    onShort: (token: string) => ConflictError,
    guards: MoneyGuard[],
    extra: SQL[],
    announce: Array<() => void>,
    removed: (detail: string) => ConflictError,
  ): Promise<boolean> {
    try {
      await this.ledger.postInOneRoundTrip(entry, onShort, {
        extra,
        announce,
        guards,
        onGuard: (code, detail) => (code === TOKEN_GONE_STATE ? removed(detail) : undefined),
      });
      return true;
    } catch (error) {
      if (sqlState(error) !== TRANSACTION_CHANGED_STATE) throw error;
      this.transactions.forget(transactionId);
      return false;
    }
  }

  /** Voids: reverses the ledger effect (409 when the customer no longer holds what must come back), hides it from lists, keeps it in the ledger and the audit. */
  async void(actor: Actor, id: string, applying?: Applying): Promise<DeleteTransactionResponseDto | PendingApprovalDto> {
    const outer = applying?.tx;
    if (!outer) {
      const done = await this.voidInOneStatement(actor, id);
      if (done) return done;
    }
    return this.within(outer, async (tx) => {
      const record = await this.lockTransaction(id, tx);
      if (applying?.effect?.status && applying.effect.status !== record.status) throw new StaleApprovalError(MOVEMENT_CHANGED_SINCE_REQUEST);
      const symbols = await this.tokens.coinsByIds([record.token, String(record.details?.toToken ?? record.token)], tx);
      const reversal = voidRows(actor, record, (token) => (symbols.get(token)?.symbol ?? token).toUpperCase());
      requireBoundLines(applying, reversal.entry.legs);
      if (isGated(reversal.entry.legs)) {
        const held = await this.gate.hold(
          actor,
          {
            action: 'delete-trx',
            userId: record.userId,
            transactionId: record.id,
            payload: { id: record.id },
            effect: { lines: boundLines(reversal.entry.legs), price: record.price ?? undefined, status: record.status },
            usd: await this.currentUsd(record, tx),
            summary: `Delete (reverse) the ${record.status} ${TYPE_LABEL[record.type]} of ${describe(record.coinAmount, record.token, reversal.symbolOf(record.token))}`,
            kinds: refundsSettledWithdrawal(reversal.entry.legs) ? ['settled-refund'] : [],
          },
          tx,
        );
        if (held) return held;
      }
      await requireLiveTokens(
        this.tokens,
        reversal.credited.map((token) => ({ id: token, symbol: reversal.symbolOf(token) })),
        tx,
        removedToken,
      );
      await this.transactions.markVoided(record.id, actor.id, tx);
      await this.notifications.notify(reversal.notice, tx);
      await this.audit.record(actor, reversal.audit, tx);
      if (reversal.entry.legs.length) await this.ledger.post(reversal.entry, tx, reversal.onShort);
      this.transactions.forget(record.id);
      return { message: 'Transaction deleted successfully' };
    });
  }

  /**
   * The usual void in ONE statement, one round trip: the transaction as this instance last read it (else read first;
   * the symbols come from the reference data cache), marked voided only if it still has that status, details and
   * customer name and email and is not voided (else the statement aborts), the share locks of the tokens the customer
   * gets back, the reversing movement, notification and audit rows. Undefined (nothing written): a transaction not
   * found, one the four-eyes gate holds, or a concurrent change — decided under the row lock by `void`.
   */
  private async voidInOneStatement(actor: Actor, id: string): Promise<DeleteTransactionResponseDto | undefined> {
    const record = UUID.test(id) ? (this.transactions.known(id) ?? (await this.transactions.findView(id))) : undefined;
    if (!record || record.voidedAt) return undefined;
    // The gate decides a gated movement under its locks (the window's sums), in `void`.
    if (this.gate.decides(actor) && isGated(voidLegs(record))) return undefined;
    const symbols = await this.tokens.coinsByIds([record.token, String(record.details?.toToken ?? record.token)]);
    const reversal = voidRows(actor, record, (token) => (symbols.get(token)?.symbol ?? token).toUpperCase());
    const { credited, symbolOf } = reversal;
    const notified = this.notifications.notifyStatements(reversal.notice);
    const done = await this.inOneStatement(
      record.id,
      reversal.entry,
      reversal.onShort,
      [this.transactions.voidGuard(record.id, record.status, actor.id, record), ...(credited.length ? [this.tokens.liveGuard(credited)] : [])],
      [...notified.extra, auditStatement(actor, reversal.audit)],
      [notified.announce],
      (detail) => {
        const live = new Set(detail.split(','));
        return removedToken(symbolOf(credited.find((token) => !live.has(token)) ?? credited[0]));
      },
    );
    if (!done) return undefined;
    this.transactions.forget(record.id);
    return { message: 'Transaction deleted successfully' };
  }

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
      const done = await this.customerFirst(userId, known, () => this.addInOneStatement(actor, known, input, usd, reason));
      if (done) return done;
    }
    // The customer's 404 comes before an unknown token's 400.
    const token = await this.resolveToken(input.token, 'token', outer).catch(async (error: unknown) => {
      await this.customerOr404(userId, outer);
      throw error;
    });
    const accountId = oneStatement && UUID.test(userId) ? this.ledger.knownAccountId(userId, token.id) : undefined;
    // Steady state ("set", "add" with a key): the customer and the balance as this instance last saw them, both checked
    // by the statement's guards — nothing read first. A stale balance costs one more statement; a changed customer, the read.
    const seen = accountId ? this.customers.known(userId) : undefined;
    const hint = seen && accountId ? this.ledger.balanceHint(accountId) : undefined;
    let tried: OneStatementOutcome | undefined;
    if (seen && accountId && hint !== undefined && !(input.type === 'yes' && usd.isZero())) {
      tried = await this.customerFirst(userId, seen, () =>
        this.updateBalanceInOneStatement(actor, seen, token, input, usd, reason, idem, { accountId, balance: hint, customerGuarded: true }),
      );
      if (typeof tried === 'object') return tried;
    }
    // The customer and the balance in one query when the account is known (its first use: customer, then account).
    const read = accountId && tried !== 'locked' ? await this.customers.findActiveCustomerWithBalance(userId, accountId) : undefined;
    if (accountId && tried !== 'locked' && !read) throw new NotFoundError('User not found.');
    const user = read?.customer ?? (await this.customerOr404(userId, outer));
    if (input.type === 'yes' && usd.isZero()) throw new InvalidInputError('Amount must be greater than 0.');
    const symbol = token.symbol.toUpperCase();
    if (oneStatement && tried !== 'locked') {
      const balance = read && accountId ? { accountId, balance: read.balance, customerGuarded: false } : undefined;
      const done = await this.updateBalanceInOneStatement(actor, user, token, input, usd, reason, idem, balance);
      if (typeof done === 'object') return done;
    }
    return this.within(outer, async (tx) => {
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
    const token = await this.resolveToken(input.token, 'token');
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

  async listUsers(query: UsersQueryDto): Promise<{ items: AdminUserDto[]; nextCursor?: string }> {
    const limit = parseLimit(query.limit);
    let after: string | undefined;
    if (query.cursor !== undefined && query.cursor !== '') {
      after = Buffer.from(query.cursor, 'base64url').toString('utf8');
      if (!after || Buffer.from(after, 'utf8').toString('base64url') !== query.cursor) throw new InvalidInputError('The cursor is not valid.');
    }
    const rows = await this.customers.listActiveCustomers(limit + 1, after, undefined, query.search);
    const page = rows.slice(0, limit);
    const balances = await this.wallet.balancesOf(page.map((u) => u.id));
    return {
      items: page.map((u) => ({
        _id: u.id,
        name: u.name,
        email: u.email,
        country: countryName(u.country),
        balances: (balances.get(u.id) ?? []).map((b) => ({ token: b.name, balance: b.balance, tokenId: b.token, symbol: b.symbol, coinAmount: b.coinAmount })),
      })),
      nextCursor: rows.length > limit ? Buffer.from(page[page.length - 1].emailNormalized, 'utf8').toString('base64url') : undefined,
    };
  }

  async liabilities(): Promise<LiabilitiesDto> {
    const rows = await this.ledger.liabilities();
    const coins = await this.tokens.coinsByIds(rows.map((r) => r.token));
    let total = toMoney(0);
    const tokens = rows
      .map((row) => {
        const coin = coins.get(row.token);
        const sum = toMoney(row.customer).add(row.pending);
        const usd = coin ? usdValue(sum, coin.currentPrice) : toMoney(0);
        total = total.add(usd);
        return {
          token: row.token,
          symbol: coin?.symbol ?? row.token,
          name: coin?.name ?? row.token,
          customerBalance: plain(row.customer),
          pendingWithdrawals: plain(row.pending),
          total: plain(sum),
          price: coin ? plain(coin.currentPrice) : null,
          usdValue: usdNumber(usd),
          holders: Number(row.holders),
        };
      })
      .filter((t) => !toMoney(t.total).isZero() || t.holders > 0);
    return { totalUsd: usdNumber(total), tokens, asOf: new Date().toISOString() };
  }
}

/** What a one-statement adjustment came to: the response, or why `updateBalance` must go on (see updateBalanceInOneStatement). */
type OneStatementOutcome = UpdateBalanceResponseDto | 'customer' | 'locked';

/** " — https://explorer/tx/…" for a network in the registry, '' otherwise. */
function explorerLine(network: string | null, hash: string): string {
  const url = txExplorerUrl(network, hash);
  return url ? ` — ${url}` : '';
}

/** The movement that reverses a transaction's ledger effect (none when its quantity is not with the customer, or not yet). */
function voidLegs(record: Omit<TransactionRecord, 'seq'>): Leg[] {
  const quantity = toMoney(record.coinAmount);
  if (record.type === 'deposit') {
    const at = location(record, record.status);
    return at.kind === 'customer' ? transfer(at, platform('deposits', record.token, LEASED_SHARD), quantity) : [];
  }
  if (record.type === 'withdrawal') {
    const at = location(record, record.status);
    return at.kind !== 'customer' ? transfer(at, customer(record.userId, record.token), quantity) : [];
  }
  if (record.type === 'swap') {
    const toToken = String(record.details?.toToken);
    const toQty = toMoney(String(record.details?.toCoinAmount));
    return [
      ...transfer(customer(record.userId, toToken), platform('swap_pool', toToken, LEASED_SHARD), toQty),
      ...transfer(platform('swap_pool', record.token, LEASED_SHARD), customer(record.userId, record.token), quantity),
    ];
  }
  return record.direction === 'in'
    ? transfer(customer(record.userId, record.token), platform('adjustments', record.token, LEASED_SHARD), quantity)
    : transfer(platform('adjustments', record.token, LEASED_SHARD), customer(record.userId, record.token), quantity);
}

/** The tokens a movement credits to a customer (they must still be supported). */
function creditedTokens(legs: Leg[]): string[] {
  return [...new Set(legs.filter((leg) => leg.account.kind === 'customer' && leg.amount.isPositive()).map((leg) => leg.account.token))];
}

/**
 * What a deposit writes, whichever path writes it: the transaction row, the customer's notification, the audit entry
 * and (approved only) the credit from the platform's deposits account.
 */
function depositRows(
  actor: Actor,
  user: CustomerRecord,
  target: { token: WalletToken; network: string; address: string | null },
  status: DepositDto['status'],
  quantity: Money,
  price: Money,
) {
  const { token, network, address } = target;
  const id = randomUUID();
  const usdAt = usdValue(quantity, price);
  const legs = status === 'approved' ? transfer(platform('deposits', token.id, LEASED_SHARD), customer(user.id, token.id), quantity) : [];
  return {
    record: {
      id,
      userId: user.id,
      type: 'deposit' as const,
      token: token.id,
      network,
      address,
      coinAmount: plain(quantity),
      usdAmount: plain(usdAt),
      price: plain(price),
      status,
      direction: 'in' as const,
      note: null,
      details: null,
      createdBy: actor.id,
    },
    notice: {
      userId: user.id,
      title: `Deposit ${status}`,
      message: `A deposit of ${describe(plain(quantity), token.id, token.symbol.toUpperCase())} (${usdText(plain(usdAt))}) was recorded with status ${status}.`,
      status,
      createdBy: actor.id,
    },
    audit: {
      action: 'transaction.deposit',
      targetType: 'transaction',
      targetId: id,
      after: { userId: user.id, token: token.id, coinAmount: plain(quantity), usd: plain(usdAt), status },
    },
    legs,
    entry: { kind: 'deposit_credit', transactionId: id, reason: 'deposit approved', createdBy: actor.id, legs },
  };
}

/**
 * What a status change writes besides the row, whichever path writes it: the customer's notification, the audit entry
 * and the movement from where the quantity sits now to where the new status puts it (no legs: it stays), with the
 * error when the customer no longer holds it.
 */
/** The movement of a status change: from where the quantity sits now to where the new status puts it (none: it stays). */
function statusChangeLegs(record: Omit<TransactionRecord, 'seq'>, to: TransactionStatus): Leg[] {
  const from = location(record, record.status);
  const target = location(record, to);
  return sameAccount(from, target) ? [] : transfer(from, target, toMoney(record.coinAmount));
}

function statusChangeRows(actor: Actor, record: Omit<TransactionRecord, 'seq'>, symbol: string, to: TransactionStatus, txHash: string | undefined) {
  const amountText = describe(record.coinAmount, record.token, symbol);
  const target = location(record, to);
  return {
    amountText,
    // Crediting the customer or making it pending again exposes the token: it must still be supported.
    exposesToken: target.kind === 'customer' || to === 'pending',
    notice: {
      userId: record.userId,
      title: `Transaction ${to}`,
      message: `Your ${TYPE_LABEL[record.type]} of ${amountText} (${usdText(record.usdAmount)}) is now ${to}.${txHash ? ` Transaction hash: ${txHash}${explorerLine(record.network, txHash)}` : ''}`,
      status: to,
      createdBy: actor.id,
    },
    audit: {
      action: 'transaction.status',
      targetType: 'transaction',
      targetId: record.id,
      before: { status: record.status },
      after: { status: to, ...(txHash ? { txHash } : {}) },
    },
    entry: {
      kind: `${record.type}_${record.status}_to_${to}`,
      transactionId: record.id,
      reason: `status ${record.status} → ${to}`,
      createdBy: actor.id,
      legs: statusChangeLegs(record, to),
    },
    onShort: () =>
      new ConflictError(
        record.type === 'deposit'
          ? `The customer no longer holds the ${amountText} this deposit credited, so it cannot leave approved.`
          : `The customer no longer holds the ${amountText} this withdrawal needs, so it cannot be ${to === 'pending' ? 'put back to pending' : 'approved'}.`,
      ),
  };
}

/**
 * What a void writes besides marking the row, whichever path writes it: the customer's notification, the audit entry,
 * the reversing movement (and the tokens it credits to the customer, which must still be supported).
 */
function voidRows(actor: Actor, record: Omit<TransactionRecord, 'seq'>, symbolOf: (token: string) => string) {
  const amountText = describe(record.coinAmount, record.token, symbolOf(record.token));
  const legs = voidLegs(record);
  return {
    symbolOf,
    credited: creditedTokens(legs),
    notice: {
      userId: record.userId,
      title: 'Transaction cancelled',
      message: `Your ${TYPE_LABEL[record.type]} of ${amountText} (${usdText(record.usdAmount)}) was cancelled by an administrator.`,
      createdBy: actor.id,
    },
    audit: {
      action: 'transaction.void',
      targetType: 'transaction',
      targetId: record.id,
      before: { status: record.status, voided: false },
      after: { status: record.status, voided: true },
    },
    entry: { kind: `${record.type}_void`, transactionId: record.id, reason: 'voided by an administrator', createdBy: actor.id, legs },
    onShort: (token: string) =>
      new ConflictError(`This transaction cannot be deleted: the customer no longer holds the ${symbolOf(token)} it would take back.`),
  };
}

/**
 * What a balance adjustment of `delta` (not zero) writes, whichever path writes it: the transaction row, the customer's
 * notification, the audit entry — given the balance before and after, as values or as jsonb expressions of the one
 * statement that alone knows them — and the movement with the platform's adjustments account.
 */
function adjustmentRows(
  actor: Actor,
  user: CustomerRecord,
  token: WalletToken,
  type: UpdateBalanceDto['type'],
  reason: string,
  requestedUsd: Money,
  delta: Money,
  price: Money,
) {
  const symbol = token.symbol.toUpperCase();
  const id = randomUUID();
  const magnitude = delta.abs();
  const usdAt = usdValue(magnitude, price);
  const direction = delta.isPositive() ? ('in' as const) : ('out' as const);
  const legs =
    direction === 'in'
      ? transfer(platform('adjustments', token.id, LEASED_SHARD), customer(user.id, token.id), magnitude)
      : transfer(customer(user.id, token.id), platform('adjustments', token.id, LEASED_SHARD), magnitude);
  const balanceOf = (balance: string | SQL, rest: Record<string, unknown>) =>
    is(balance, SQL) ? jsonWith({ token: token.id, ...rest }, { balance }) : { token: token.id, balance, ...rest };
  return {
    record: {
      id,
      userId: user.id,
      type: 'adjustment' as const,
      token: token.id,
      network: null,
      address: null,
      coinAmount: plain(magnitude),
      usdAmount: plain(usdAt),
      price: plain(price),
      status: 'approved' as const,
      direction,
      note: reason,
      details: { mode: type === 'yes' ? 'add' : 'set', requestedUsd: plain(requestedUsd) },
      createdBy: actor.id,
    },
    notice: {
      userId: user.id,
      title: 'Balance updated',
      message: `${reason} Your ${symbol} balance was ${direction === 'in' ? 'credited with' : 'debited by'} ${describe(plain(magnitude), token.id, symbol)} (${usdText(plain(usdAt))}).`,
      status: 'approved' as const,
      createdBy: actor.id,
    },
    audit: (before: string | SQL, after: string | SQL) => ({
      action: 'balance.adjust',
      targetType: 'user',
      targetId: user.id,
      before: balanceOf(before, {}),
      after: balanceOf(after, { transactionId: id, reason }),
    }),
    entry: { kind: 'adjustment', transactionId: id, reason, createdBy: actor.id, legs },
    onShort: () => new ConflictError(`Insufficient ${symbol} balance`),
  };
}
