import { Inject, Injectable } from '@nestjs/common';
import type {
  SendCryptoDto,
  SendCryptoResponseDto,
  SwapDto,
  SwapResponseDto,
  TokenBalanceDto,
  TransactionDto,
  TransactionQueryDto,
  UserBalanceDto,
} from '@coinpurse/contract';
import Decimal from 'decimal.js';
import { randomUUID } from 'node:crypto';
import { InvalidInputError, NotFoundError, ServiceUnavailableError } from '../../common/errors';
import type { Actor, Principal } from '../../common/principal';
import { DATABASE, type Database } from '../../db/database';
import { AuditService } from '../audit/audit.service';
import { inTransaction } from '../ledger/db-transaction';
import { type IdempotencyContext, IdempotencyService } from '../ledger/idempotency';
import { customer, LEASED_SHARD, LedgerService, platform, transfer } from '../ledger/ledger.service';
import { formatQuantity, parseAmount, plain, toMoney, tokenDecimals, usdNumber, usdToQuantity, usdValue } from '../ledger/money';
import { PriceService, type Quote } from '../market/price.service';
import { NotificationsService } from '../notifications/notifications.service';
import { SecurityMailService } from '../security/security-mail.service';
import { StepUpService } from '../security/step-up.service';
import { TransactionsRepository } from './transactions.repository';
import { auditPiece, auditStatement } from './audit-statement';
import { csvCell, describe, parseLimit, parseSeqCursor, requireLiveTokens, tokenBalance, toTransactionDto, usdText } from './wallet-common';
import { PRICE_MOVED_STATE, TOKEN_GONE_STATE, WalletTokensRepository } from './wallet-tokens.repository';
import { AddressBookService } from '../address-book/address-book.service';
import { chooseTransferNetwork } from '../networks/network-choice';
import { TokenNetworksRepository } from '../networks/token-networks.repository';

/**
 * A quoted price was no longer current when the movement ran (nothing moved). A 503: transient, so an Idempotency-Key
 * does not keep it (a retry with the same key runs again).
 */
class PriceMovedError extends ServiceUnavailableError {
  constructor() {
    super('The price changed while your request was being processed. Nothing was moved: please try again.');
  }
}

/** The domain error of a failed one-statement guard (undefined: not a guard of these). */
function moneyGuardError(code: string, detail: string, tokens: Array<{ id: string; symbol: string }>): Error | undefined {
  if (code === PRICE_MOVED_STATE) return new PriceMovedError();
  if (code === TOKEN_GONE_STATE) {
    const live = new Set(detail.split(','));
    const gone = tokens.find((token) => !live.has(token.id)) ?? tokens[0];
    return new InvalidInputError(`${gone.symbol.toUpperCase()} is no longer a supported token: it was removed meanwhile. Reload and try again.`);
  }
  return undefined;
}

export const SEND_SUCCESS = 'Sent and Pending Check Status in History';
export const SWAP_SUCCESS = 'Swap successful';

@Injectable()
export class WalletService {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly ledger: LedgerService,
    private readonly prices: PriceService,
    private readonly tokens: WalletTokensRepository,
    private readonly transactions: TransactionsRepository,
    private readonly notifications: NotificationsService,
    private readonly audit: AuditService,
    private readonly idempotency: IdempotencyService,
    private readonly tokenNetworks: TokenNetworksRepository,
    private readonly addressBook: AddressBookService,
    private readonly stepUp: StepUpService,
    private readonly securityMails: SecurityMailService,
  ) {}

  /** Every supported token (zero included) plus any other token still held, in USD at current prices. */
  async balance(userId: string): Promise<UserBalanceDto> {
    const balances = await this.balancesOf([userId]);
    const list = balances.get(userId) ?? [];
    const total = list.reduce((sum, b) => sum.add(toMoney(b.coinAmount).mul(b.price)), toMoney(0));
    return { totalBalance: usdNumber(total), balances: list.sort((a, b) => b.balance - a.balance) };
  }

  /** Balances per user (for the customer and the admin user list). */
  async balancesOf(userIds: string[]): Promise<Map<string, TokenBalanceDto[]>> {
    const [supported, held] = await Promise.all([this.tokens.listSupported(), this.ledger.customerBalances(userIds)]);
    const extraIds = [...new Set(held.filter((h) => !toMoney(h.balance).isZero() && !supported.some((s) => s.id === h.token)).map((h) => h.token))];
    const extra = await this.tokens.coinsByIds(extraIds);
    const out = new Map<string, TokenBalanceDto[]>();
    for (const userId of userIds) {
      const mine = new Map(held.filter((h) => h.userId === userId).map((h) => [h.token, h.balance]));
      const list = supported.map((token) => tokenBalance(token, mine.get(token.id) ?? '0'));
      for (const [tokenId, quantity] of mine) {
        if (supported.some((s) => s.id === tokenId) || toMoney(quantity).isZero()) continue;
        const coin = extra.get(tokenId) ?? { id: tokenId, symbol: tokenId, name: tokenId, currentPrice: '0' };
        list.push(tokenBalance(coin, quantity));
      }
      out.set(userId, list);
    }
    return out;
  }

  async send(
    principal: Principal,
    requestId: string | undefined,
    tokenId: string,
    input: SendCryptoDto,
    idem?: IdempotencyContext,
  ): Promise<SendCryptoResponseDto> {
    // Executed only at the price it was quoted at: when it moved meanwhile (a stale cache), quoted again once.
    try {
      return await this.sendOnce(principal, requestId, tokenId, input, idem);
    } catch (error) {
      if (!(error instanceof PriceMovedError)) throw error;
      return this.sendOnce(principal, requestId, tokenId, input, idem);
    }
  }

  private async sendOnce(
    principal: Principal,
    requestId: string | undefined,
    tokenId: string,
    input: SendCryptoDto,
    idem?: IdempotencyContext,
  ): Promise<SendCryptoResponseDto> {
    const actor: Actor = { id: principal.id, role: principal.role, requestId };
    const token = await this.tokens.findSupported(tokenId);
    if (!token) throw new InvalidInputError(`"${tokenId.slice(0, 60)}" is not a supported token.`);
    const { address } = input.transferData;
    // The network: the token's only one, the one asked for, or the one network whose format takes the address.
    const networks = await this.tokenNetworks.listForCoin(token.id);
    const target = chooseTransferNetwork(
      token,
      networks.map((n) => n.network),
      input.transferData,
    );
    const network = target.network.id;
    const memo = target.memo ?? null;
    const usd = parseAmount(input.transferData.amount);
    const symbol = token.symbol.toUpperCase();

    // The price at the time of the request; the movement itself is exact whatever the price does meanwhile.
    const quote = await this.prices.quote(token.id);
    const quantity = usdToQuantity(usd, quote.price, token.id);
    if (quantity.isZero()) throw new InvalidInputError(`The amount is below the smallest ${symbol} unit that can be sent.`);
    const usdAt = usdValue(quantity, quote.price);
    const id = randomUUID();
    const { statement, record: row } = this.transactions.insertStatement({
      id,
      userId: principal.id,
      type: 'withdrawal',
      token: token.id,
      network,
      address,
      coinAmount: plain(quantity),
      usdAmount: plain(usdAt),
      price: plain(quote.price),
      status: 'pending',
      direction: 'out',
      note: null,
      details: memo ? { priceSource: quote.source, memo } : { priceSource: quote.source },
      createdBy: principal.id,
    });
    const notification = {
      userId: principal.id,
      title: 'Withdrawal pending',
      message: `Your withdrawal of ${describe(plain(quantity), token.id, symbol)} (${usdText(plain(usdAt))}) to ${address} on ${target.network.name} is pending.`,
      status: 'pending' as const,
    };
    const auditEntry = {
      action: 'wallet.send',
      targetType: 'transaction',
      targetId: id,
      after: { token: token.id, coinAmount: plain(quantity), usd: plain(usdAt), network, address, memo, price: plain(quote.price) },
    };
    const entry = {
      kind: 'withdrawal_hold',
      transactionId: id,
      reason: 'withdrawal requested',
      createdBy: principal.id,
      legs: transfer(customer(principal.id, token.id), platform('withdrawals_pending', token.id, LEASED_SHARD), quantity),
    };
    const onShort = () => new InvalidInputError(`Insufficient ${symbol} balance`);
    const body: SendCryptoResponseDto = {
      message: SEND_SUCCESS,
      transaction: toTransactionDto({ ...row, userName: principal.name, userEmail: principal.email, symbol: token.symbol }),
    };
    const mail = {
      amount: `${describe(plain(quantity), token.id, symbol)} (${usdText(plain(usdAt))})`,
      address,
      network: target.network.name,
    };
    const sendTarget = { token: token.id, network, address, memo };

    // A withdrawal is a step-up action: with two-factor sign-in on, nothing moves without a fresh code.
    let stepUpChecked = false;
    if (!idem || this.idempotency.claimsInStatement) {
      // A code given is checked now; without one, the statement refuses when two-factor sign-in is on.
      const secondFactor = await this.stepUp.verifyOrGuard(principal, input.code);
      stepUpChecked = !secondFactor;
      // ONE statement, one round trip: the idempotency claim (stored done with this response), the step-up check, the
      // token's share lock, the address-book allowlist, the price still as quoted, then the customer account (the CHECK
      // refuses an overdraft), the pending-withdrawals account, the transaction, notification, audit and mail outbox
      // rows, the entry and its lines. The live events and the mail job's wake-up are announced after the commit.
      const notified = this.notifications.notifyStatements(notification);
      const mailed = this.securityMails.withdrawalRequestedStatements(principal, mail);
      try {
        await this.ledger.postInOneRoundTrip(entry, onShort, {
          extra: [statement, ...notified.extra, auditStatement(actor, auditEntry), ...mailed.extra],
          announce: [notified.announce, mailed.announce],
          guards: [
            ...(idem ? [this.idempotency.claimGuard(idem, idem.status ?? 201, body)] : []),
            ...(secondFactor ? [secondFactor] : []),
            this.tokens.liveGuard([token.id]),
            this.addressBook.sendAllowedGuard(principal.id, sendTarget),
            this.tokens.priceGuard([{ coinId: token.id, price: plain(quote.price) }]),
          ],
          onGuard: (code, detail) =>
            this.stepUp.refusalOf(code) ?? this.addressBook.sendRefusal(code, detail, network) ?? moneyGuardError(code, detail, [token]),
        });
        return body;
      } catch (error) {
        // The key is taken (a concurrent duplicate committed first): the claim below replays or refuses as usual.
        if (!IdempotencyService.isKeyTaken(error)) throw error;
      }
    }
    if (!stepUpChecked) await this.stepUp.verify(principal, input.code);

    // The multi-statement way (a taken key, or the claim test hook).
    const sent = await inTransaction(this.db, async (tx) => {
      // First in the transaction: a duplicate waits here, and a crash rolls the claim back with the effect.
      await this.idempotency.claim(idem, tx);
      await requireLiveTokens(this.tokens, [token], tx);
      await this.addressBook.assertSendAllowed(principal.id, sendTarget, tx);
      await this.notifications.notify(notification, tx);
      await this.audit.record(actor, auditEntry, tx);
      await this.ledger.post(entry, tx, onShort, [statement]);
      await this.idempotency.complete(idem, idem?.status ?? 201, body, tx);
      return body;
    });
    await this.securityMails.withdrawalRequested(principal, mail);
    return sent;
  }

  async swap(principal: Principal, requestId: string | undefined, input: SwapDto, idem?: IdempotencyContext): Promise<SwapResponseDto> {
    // Executed only at the prices it was quoted at: when one moved meanwhile (a stale cache), quoted again once.
    try {
      return await this.swapOnce(principal, requestId, input, idem);
    } catch (error) {
      if (!(error instanceof PriceMovedError)) throw error;
      return this.swapOnce(principal, requestId, input, idem);
    }
  }

  private async swapOnce(principal: Principal, requestId: string | undefined, input: SwapDto, idem?: IdempotencyContext): Promise<SwapResponseDto> {
    const actor: Actor = { id: principal.id, role: principal.role, requestId };
    if (input.from === input.to) throw new InvalidInputError('Choose two different tokens to swap.');
    // Supported tokens and both prices at the time of the request, read in parallel before the transaction.
    // Both prices come from one query; a refused or failed read is re-read below to surface its own error.
    const [supported, quotes] = await Promise.all([
      this.tokens.findSupportedMany([input.from, input.to]),
      this.prices.quoteMany([input.from, input.to]).catch(() => new Map<string, Quote>()),
    ]);
    const fromRead = quotes.get(input.from);
    const toRead = quotes.get(input.to);
    const from = supported.get(input.from);
    const to = supported.get(input.to);
    if (!from) throw new InvalidInputError(`"${input.from.slice(0, 60)}" is not a supported token.`);
    if (!to) throw new InvalidInputError(`"${input.to.slice(0, 60)}" is not a supported token.`);
    // A refused price (stale in production) is re-read to surface its own error.
    const fromPrice = fromRead ?? (await this.prices.quote(from.id));
    const toPrice = toRead ?? (await this.prices.quote(to.id));
    const usd = parseAmount(input.amount);
    const fromSymbol = from.symbol.toUpperCase();
    const toSymbol = to.symbol.toUpperCase();
    const fromQty = usdToQuantity(usd, fromPrice.price, from.id);
    if (fromQty.isZero()) throw new InvalidInputError(`The amount is below the smallest ${fromSymbol} unit.`);
    const usdAt = usdValue(fromQty, fromPrice.price);
    const toQty = fromQty.mul(fromPrice.price).div(toPrice.price).toDecimalPlaces(tokenDecimals(to.id), Decimal.ROUND_DOWN);
    if (toQty.isZero()) throw new InvalidInputError(`The amount is too small to receive any ${toSymbol}.`);

    const fromQuote = fromPrice;
    const toQuote = toPrice;
    const id = randomUUID();
    const details = {
      toToken: to.id,
      toCoinAmount: plain(toQty),
      toPrice: plain(toQuote.price),
      fromPrice: plain(fromQuote.price),
      priceSource: fromQuote.source,
    };
    const { statement, record: row } = this.transactions.insertPiece({
      id,
      userId: principal.id,
      type: 'swap',
      token: from.id,
      network: null,
      address: null,
      coinAmount: plain(fromQty),
      usdAmount: plain(usdAt),
      price: plain(fromQuote.price),
      status: 'approved',
      direction: 'out',
      note: `${fromSymbol} → ${toSymbol}`,
      details,
      createdBy: principal.id,
    });
    const body: SwapResponseDto = {
      message: SWAP_SUCCESS,
      amount: usdNumber(usdAt),
      from: { token: from.id, symbol: from.symbol, coinAmount: formatQuantity(fromQty, from.id), price: plain(fromQuote.price) },
      to: { token: to.id, symbol: to.symbol, coinAmount: formatQuantity(toQty, to.id), price: plain(toQuote.price) },
      transaction: toTransactionDto({ ...row, userName: principal.name, userEmail: principal.email, symbol: from.symbol }),
    };
    const audit = auditPiece(actor, {
      action: 'wallet.swap',
      targetType: 'transaction',
      targetId: id,
      after: { from: from.id, fromCoinAmount: plain(fromQty), to: to.id, toCoinAmount: plain(toQty), usd: plain(usdAt) },
    });
    const entry = {
      kind: 'swap',
      transactionId: id,
      reason: `swap ${from.id} to ${to.id}`,
      createdBy: principal.id,
      legs: [
        ...transfer(customer(principal.id, from.id), platform('swap_pool', from.id, LEASED_SHARD), fromQty),
        ...transfer(platform('swap_pool', to.id, LEASED_SHARD), customer(principal.id, to.id), toQty),
      ],
    };
    const onShort = () => new InvalidInputError(`Insufficient ${fromSymbol} balance`);
    if (!idem || this.idempotency.claimsInStatement) {
      // ONE statement, one round trip: the idempotency claim (stored done with this response), the share locks on both
      // tokens' supported rows (a concurrent token delete cannot slip in), both prices still as quoted, then both
      // customer accounts, both pool shards, the transaction and audit rows, the entry and its lines.
      try {
        await this.ledger.postInOneRoundTrip(entry, onShort, {
          extra: [statement, audit],
          guards: [
            ...(idem ? [this.idempotency.claimGuard(idem, idem.status ?? 201, body)] : []),
            this.tokens.liveGuard([from.id, to.id]),
            this.tokens.priceGuard([
              { coinId: from.id, price: plain(fromQuote.price) },
              { coinId: to.id, price: plain(toQuote.price) },
            ]),
          ],
          onGuard: (code, detail) => moneyGuardError(code, detail, [from, to]),
        });
        return body;
      } catch (error) {
        // The key is taken (a concurrent duplicate committed first): the claim below replays or refuses as usual.
        if (!IdempotencyService.isKeyTaken(error)) throw error;
      }
    }
    const stored = this.idempotency.completeStatement(idem, idem?.status ?? 201, body);
    // The multi-statement way (a taken key, or the claim test hook): claim, share locks, then one write statement.
    await this.ledger.postAtomically(entry, onShort, stored ? [statement, audit, stored] : [statement, audit], async (tx) => {
      // A duplicate waits on the claim; a crash rolls it back with the movement.
      await this.idempotency.claim(idem, tx);
      await requireLiveTokens(this.tokens, [from, to], tx);
    });
    return body;
  }

  /** Own history, newest first; `nextCursor` goes to the response header. */
  async history(
    userId: string | undefined,
    query: TransactionQueryDto & { userId?: string; search?: string },
  ): Promise<{ items: TransactionDto[]; nextCursor?: string }> {
    const limit = parseLimit(query.limit);
    const beforeSeq = parseSeqCursor(query.cursor);
    if (query.userId !== undefined && !/^[0-9a-f-]{36}$/i.test(query.userId)) throw new NotFoundError('User not found.');
    const rows = await this.transactions.list({
      userId: userId ?? query.userId,
      token: query.token,
      type: query.type,
      status: query.status,
      // Search is the admins' (the customer's own history has no `search`).
      search: userId ? undefined : query.search,
      beforeSeq,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    return { items: page.map(toTransactionDto), nextCursor: rows.length > limit ? String(page[page.length - 1].seq) : undefined };
  }

  /** The customer's whole visible history as CSV, oldest first, with the USD value at the time. */
  async exportCsv(userId: string): Promise<string> {
    const header = [
      'Date',
      'Type',
      'Direction',
      'Token',
      'Symbol',
      'Coin amount',
      'USD amount at the time',
      'USD price at the time',
      'Status',
      'Network',
      'Address',
      'Received token',
      'Received amount',
      'Note',
      'Transaction id',
    ];
    const lines = [header.map(csvCell).join(',')];
    let afterSeq: number | undefined;
    for (;;) {
      const rows = await this.transactions.list({ userId, ascending: true, afterSeq, limit: 500 });
      for (const row of rows) {
        const dto = toTransactionDto(row);
        lines.push(
          [
            dto.createdAt,
            dto.type,
            dto.direction,
            dto.token,
            dto.symbol.toUpperCase(),
            dto.coinAmount,
            toMoney(row.usdAmount).toFixed(2),
            dto.price ?? '',
            dto.status,
            dto.network ?? '',
            dto.address ?? '',
            dto.swap?.toToken ?? '',
            dto.swap?.toCoinAmount ?? '',
            dto.note ?? '',
            dto._id,
          ]
            .map(csvCell)
            .join(','),
        );
      }
      if (rows.length < 500) break;
      afterSeq = rows[rows.length - 1].seq;
    }
    return `${lines.join('\r\n')}\r\n`;
  }
}
