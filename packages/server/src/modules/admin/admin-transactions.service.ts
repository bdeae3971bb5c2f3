import { Inject, Injectable } from '@nestjs/common';
import type {
  DeleteTransactionResponseDto,
  DepositDto,
  ModifyTransactionDto,
  PendingApprovalDto,
  TransactionChangeDto,
  TransactionDto,
} from '@coinpurse/contract';
import { ConflictError, InvalidInputError, NotFoundError } from '../../common/errors';
import type { Actor } from '../../common/principal';
import { DATABASE, type Database, type Tx } from '../../db/database';
import { AdminMoneySupport, UUID } from './admin-money-support';
import { ApprovalGate } from './approval-gate.service';
import { AuditService } from '../audit/audit.service';
import { sqlState } from '../ledger/db-transaction';
import { type SQL } from 'drizzle-orm';
import {
  boundCustomerAmount,
  boundLines,
  isGated,
  MOVEMENT_CHANGED_SINCE_REQUEST,
  refundsSettledWithdrawal,
  StaleApprovalError,
} from '../ledger/four-eyes-policy';
import { type IdempotencyContext, IdempotencyService } from '../ledger/idempotency';
import { type MoneyGuard } from '../ledger/ledger.repository';
import { type EntryInput, LedgerService } from '../ledger/ledger.service';
import { type Money, parseAmount, plain, toMoney, usdToQuantity } from '../ledger/money';
import { PriceService } from '../market/price.service';
import { NotificationsService } from '../notifications/notifications.service';
import { TRANSACTION_CHANGED_STATE, type TransactionRecord, TransactionsRepository } from '../wallet/transactions.repository';
import { auditStatement } from '../wallet/audit-statement';
import { describe, requireLiveTokens, toTransactionDto, usdText } from '../wallet/wallet-common';
import { TOKEN_GONE_STATE, type WalletToken, WalletTokensRepository } from '../wallet/wallet-tokens.repository';
import { CUSTOMER_CHANGED_STATE, type CustomerRecord, WalletUsersRepository } from '../wallet/wallet-users.repository';
import { validateTxHash } from '../wallet/tx-hash';
import {
  type Applying,
  depositRows,
  removedToken,
  requireBoundLines,
  tokenGoneMeanwhile,
  statusChangeLegs,
  statusChangeRows,
  TYPE_LABEL,
  voidLegs,
  voidRows,
} from './admin-transaction-rows';
import { WalletService } from '../wallet/wallet.service';
import { findNetwork, NATIVE_NETWORK, NETWORKS } from '../../common/networks';
import { TokenNetworksRepository } from '../networks/token-networks.repository';

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
    private readonly support: AdminMoneySupport,
  ) {}

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
    let user = known ?? (await this.support.customerOr404(userId, outer));
    const target = await this.support.customerFirst(userId, known, () => this.resolveDepositTarget(input.network, outer));
    const { token } = target;
    const symbol = token.symbol.toUpperCase();
    if (oneStatement) {
      const done = await this.support.customerFirst(userId, known, () => this.depositInOneStatement(actor, user, target, input, usd, idem));
      if (done) return done;
      // The customer changed meanwhile (or the key is taken): read again, then the multi-statement way.
      if (known) user = await this.support.customerOr404(userId);
    }
    return this.support.within(outer, async (tx) => {
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
    return this.support.within(outer, async (tx) => {
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
            usd: await this.support.currentUsd(record, tx),
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
    return this.support.within(outer, async (tx) => {
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
            usd: await this.support.currentUsd(record, tx),
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
}
