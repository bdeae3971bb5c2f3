import { Injectable } from '@nestjs/common';
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
import { AuditService } from '../audit/audit.service';
import { type IdempotencyContext, IdempotencyService } from '../ledger/idempotency';
import { LedgerService } from '../ledger/ledger.service';
import { MONEY_CODES } from '../ledger/money-errors';
import { formatQuantity, parseAmount, plain, toMoney, tokenDecimals, usdNumber, usdToQuantity, usdValue } from '../ledger/money';
import { PriceService, type Quote } from '../market/price.service';
import { NotificationsService } from '../notifications/notifications.service';
import { SecurityMailService } from '../security/security-mail.service';
import { StepUpService } from '../security/step-up.service';
import { type TransactionRecord, TransactionsRepository } from './transactions.repository';
import { csvCell, describe, parseLimit, parseSeqCursor, tokenBalance, toTransactionDto, usdText } from './wallet-common';
import { SEND, SWAP } from './wallet-functions';
import { PRICE_CHANGE_GRACE_MS, WalletTokensRepository } from './wallet-tokens.repository';
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

/** The key was taken by a concurrent duplicate (CPK01): its answer is replayed. */
class KeyTakenError extends Error {}

/** The domain error of a refusal the customer's money functions raise (see drizzle/0013_wallet_functions.sql). */
function refusalOf(code: string, detail: string, tokens: Array<{ id: string; symbol: string }>, symbol: string): Error | undefined {
  switch (code) {
    case MONEY_CODES.insufficient:
      return new InvalidInputError(`Insufficient ${symbol} balance`);
    case MONEY_CODES.keyTaken:
      return new KeyTakenError();
    case MONEY_CODES.priceMoved:
      return new PriceMovedError();
    case MONEY_CODES.tokenGone: {
      const gone = tokens.find((token) => token.id === detail) ?? tokens[0];
      return new InvalidInputError(`${gone.symbol.toUpperCase()} is no longer a supported token: it was removed meanwhile. Reload and try again.`);
    }
    default:
      return undefined;
  }
}

export const SEND_SUCCESS = 'Sent and Pending Check Status in History';
export const SWAP_SUCCESS = 'Swap successful';

@Injectable()
export class WalletService {
  constructor(
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
    const at = new Date();
    const details = memo ? { priceSource: quote.source, memo } : { priceSource: quote.source };
    const row: Omit<TransactionRecord, 'seq'> = {
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
      details,
      createdAt: at,
      voidedAt: null,
    };
    const body: SendCryptoResponseDto = {
      message: SEND_SUCCESS,
      transaction: toTransactionDto({ ...row, userName: principal.name, userEmail: principal.email, symbol: token.symbol }),
    };
    const notice = this.notifications.notificationRecord({
      userId: principal.id,
      title: 'Withdrawal pending',
      message: `Your withdrawal of ${describe(plain(quantity), token.id, symbol)} (${usdText(plain(usdAt))}) to ${address} on ${target.network.name} is pending.`,
      status: 'pending',
    });
    const mail = this.securityMails.withdrawalRequestedRecord(principal, {
      amount: `${describe(plain(quantity), token.id, symbol)} (${usdText(plain(usdAt))})`,
      address,
      network: target.network.name,
    });
    const audit = this.audit.row(actor, {
      action: 'wallet.send',
      targetType: 'transaction',
      targetId: id,
      after: { token: token.id, coinAmount: plain(quantity), usd: plain(usdAt), network, address, memo, price: plain(quote.price) },
    });
    // A withdrawal is a step-up action: a code given is checked now; without one the function refuses when two-factor
    // sign-in is on.
    const codeChecked = await this.stepUp.verifyGiven(principal, input.code);
    await this.runWithKey(idem, () =>
      this.ledger.run(
        SEND,
        (shard) => [
          id,
          principal.id,
          token.id,
          network,
          address,
          memo,
          plain(quantity),
          plain(usdAt),
          plain(quote.price),
          details,
          at,
          codeChecked,
          PRICE_CHANGE_GRACE_MS,
          shard,
          this.idempotency.keyFor(idem, idem?.status ?? 201, body),
          { notifications: [notice.row], audit: [audit], mail: [mail.row] },
        ],
        {
          changes: [{ userId: principal.id, token: token.id }],
          announce: [notice.announce, mail.announce],
          refuse: ({ code, detail }) =>
            this.stepUp.refusalOf(code) ?? this.addressBook.sendRefusal(code, detail, network) ?? refusalOf(code, detail, [token], symbol),
          beforeCommit: this.idempotency.pauseAfterClaim(idem),
        },
      ),
    );
    return body;
  }

  /**
   * Runs a money call that claims `idem`: when a concurrent duplicate took the key first, its stored answer is replayed
   * (or a different request refused) by the interceptor; when that claim rolled back meanwhile, the call runs again.
   */
  private async runWithKey(idem: IdempotencyContext | undefined, call: () => Promise<unknown>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await call();
        return;
      } catch (error) {
        if (!idem || !(error instanceof KeyTakenError) || attempt >= 3) throw error;
        const taken = await this.idempotency.taken(idem);
        if (taken) throw taken;
      }
    }
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
    const at = new Date();
    const note = `${fromSymbol} → ${toSymbol}`;
    const row: Omit<TransactionRecord, 'seq'> = {
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
      note,
      details,
      createdAt: at,
      voidedAt: null,
    };
    const body: SwapResponseDto = {
      message: SWAP_SUCCESS,
      amount: usdNumber(usdAt),
      from: { token: from.id, symbol: from.symbol, coinAmount: formatQuantity(fromQty, from.id), price: plain(fromQuote.price) },
      to: { token: to.id, symbol: to.symbol, coinAmount: formatQuantity(toQty, to.id), price: plain(toQuote.price) },
      transaction: toTransactionDto({ ...row, userName: principal.name, userEmail: principal.email, symbol: from.symbol }),
    };
    const audit = this.audit.row(actor, {
      action: 'wallet.swap',
      targetType: 'transaction',
      targetId: id,
      after: { from: from.id, fromCoinAmount: plain(fromQty), to: to.id, toCoinAmount: plain(toQty), usd: plain(usdAt) },
    });
    await this.runWithKey(idem, () =>
      this.ledger.run(
        SWAP,
        (shard) => [
          id,
          principal.id,
          from.id,
          to.id,
          plain(fromQty),
          plain(toQty),
          plain(usdAt),
          plain(fromQuote.price),
          plain(toQuote.price),
          note,
          details,
          at,
          PRICE_CHANGE_GRACE_MS,
          shard,
          this.idempotency.keyFor(idem, idem?.status ?? 201, body),
          { audit: [audit] },
        ],
        {
          changes: [
            { userId: principal.id, token: from.id },
            { userId: principal.id, token: to.id },
          ],
          refuse: ({ code, detail }) => refusalOf(code, detail, [from, to], fromSymbol),
          beforeCommit: this.idempotency.pauseAfterClaim(idem),
        },
      ),
    );
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
