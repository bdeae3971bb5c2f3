import { Injectable } from '@nestjs/common';
import type { SwapDto, SwapResponseDto } from '@coinpurse/contract';
import Decimal from 'decimal.js';
import { randomUUID } from 'node:crypto';
import { InvalidInputError } from '../../common/errors';
import { actorOf, type Principal } from '../../common/principal';
import { AuditService } from '../audit/audit.service';
import { type IdempotencyContext, IdempotencyService } from '../ledger/idempotency';
import { LedgerService } from '../ledger/ledger.service';
import { formatQuantity, parseAmount, plain, tokenDecimals, usdNumber, usdToQuantity, usdValue } from '../ledger/money';
import { PriceService, type Quote } from '../market/price.service';
import type { TransactionRecord } from './transactions.repository';
import { toTransactionDto } from './wallet-common';
import { SWAP } from './wallet-functions';
import { atCurrentPrice, refusalOf } from './wallet-money';
import { PRICE_CHANGE_GRACE_MS, WalletTokensRepository } from './wallet-tokens.repository';

export const SWAP_SUCCESS = 'Swap successful';

/** A customer's swap at the quoted prices, with the swap pool (`cp_swap`). */
@Injectable()
export class SwapsService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly prices: PriceService,
    private readonly tokens: WalletTokensRepository,
    private readonly audit: AuditService,
    private readonly idempotency: IdempotencyService,
  ) {}

  async swap(principal: Principal, requestId: string | undefined, input: SwapDto, idem?: IdempotencyContext): Promise<SwapResponseDto> {
    // Executed only at the prices it was quoted at: when one moved meanwhile (a stale cache), quoted again once.
    return atCurrentPrice(() => this.swapOnce(principal, requestId, input, idem));
  }

  private async swapOnce(principal: Principal, requestId: string | undefined, input: SwapDto, idem?: IdempotencyContext): Promise<SwapResponseDto> {
    const actor = actorOf(principal, requestId);
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
    await this.idempotency.runClaiming(idem, () =>
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
}
