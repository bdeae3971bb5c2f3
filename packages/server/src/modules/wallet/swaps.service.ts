import { Inject, Injectable, Optional } from '@nestjs/common';
import type { SwapDto, SwapQuoteDto, SwapQuoteRequestDto, SwapResponseDto } from '@coinpurse/contract';
import { randomUUID } from 'node:crypto';
import { ConflictError, InvalidInputError, NotFoundError } from '../../common/errors';
import { actorOf, type Principal } from '../../common/principal';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { DATABASE, type Database } from '../../db/database';
import { GroupedReads } from '../../db/grouped-reads';
import { AuditService } from '../audit/audit.service';
import { type IdempotencyContext, IdempotencyService } from '../ledger/idempotency';
import type { GroupCommit } from '../ledger/group-commit';
import { LedgerService } from '../ledger/ledger.service';
import { formatQuantity, type Money, parseAmount, plain, toMoney, usdNumber, usdToQuantity, usdValue } from '../ledger/money';
import { MONEY_CODES, moneyRefusalOf } from '../ledger/money-errors';
import { PriceService, type Quote } from '../market/price.service';
import { HouseExposureAlerts } from './house-exposure-alerts';
import { SwapQuotesRepository } from './swap-quotes.repository';
import { marketTerms, readSwapTerms, requireSomethingReceived, type SwapTerms, termsAnswer, termsOf } from './swap-terms';
import type { TransactionRecord } from './transactions.repository';
import { toTransactionDto } from './wallet-common';
import { QUOTE_SWAP, SWAP, SWAP_BATCH, SWAP_TERMS_BATCH } from './wallet-functions';
import { atCurrentPrice, feeRefusalOf, QUOTE_EXPIRED, refusalOf } from './wallet-money';
import { PRICE_CHANGE_GRACE_MS, type WalletToken, WalletTokensRepository } from './wallet-tokens.repository';

export const SWAP_SUCCESS = 'Swap successful';

/** A swap's two tokens, their prices now and the quantity given. */
interface Priced {
  from: WalletToken;
  to: WalletToken;
  fromPrice: Quote;
  toPrice: Quote;
  fromQuantity: Money;
}

/**
 * A customer's swap with the swap pool (`cp_swap`), at a quote (`POST /api/crypto/swap-quote`: its numbers, once,
 * before it expires) or priced now; the terms — spread and fee — are the fee schedule's (`cp_swap_terms`).
 */
@Injectable()
export class SwapsService {
  private readonly quoteMs: number;
  /** Concurrent swaps go to PostgreSQL in batches (group commit): one round trip and one commit for many. */
  private readonly batches: GroupCommit;
  /** The terms of concurrent swaps priced now under a charging schedule, read together. */
  private readonly termsReads: GroupedReads;

  constructor(
    private readonly ledger: LedgerService,
    private readonly prices: PriceService,
    private readonly tokens: WalletTokensRepository,
    private readonly audit: AuditService,
    private readonly idempotency: IdempotencyService,
    private readonly quotes: SwapQuotesRepository,
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) config: AppConfig,
    @Optional() private readonly exposure?: HouseExposureAlerts,
  ) {
    this.quoteMs = config.fees.swapQuoteSeconds * 1000;
    this.batches = ledger.groupCommit(SWAP_BATCH, SWAP);
    this.termsReads = new GroupedReads(db, SWAP_TERMS_BATCH);
  }

  async swap(principal: Principal, requestId: string | undefined, input: SwapDto, idem?: IdempotencyContext): Promise<SwapResponseDto> {
    if (input.quoteId) return this.swapQuoted(principal, requestId, input, input.quoteId, idem);
    // Executed only at the prices it was quoted at: when one moved meanwhile (a stale cache), quoted again once.
    return atCurrentPrice(async () => {
      const priced = await this.price(input);
      const { from, to } = priced;
      // Nothing charged (the schedule's copy in memory): the market conversion, no extra statement; else the schedule's terms.
      const terms = (await this.tokens.charges(to.id)).swapCharged
        ? await readSwapTerms(this.termsReads, from.id, to.id, priced.fromQuantity, priced.fromPrice.price, priced.toPrice.price)
        : marketTerms(to.id, priced.fromQuantity, priced.fromPrice.price, priced.toPrice.price);
      requireSomethingReceived(terms, priced.to.symbol.toUpperCase());
      return this.execute(principal, requestId, { from, to, priceSource: priced.fromPrice.source }, terms, undefined, idem);
    });
  }

  /** A quote the customer may accept once within SWAP_QUOTE_SECONDS (409 when the house cannot sell the token now). */
  async quote(principal: Principal, input: SwapQuoteRequestDto): Promise<SwapQuoteDto> {
    return atCurrentPrice(async () => {
      const priced = await this.price(input);
      const { from, to } = priced;
      const id = randomUUID();
      const expiresAt = new Date(Date.now() + this.quoteMs);
      let value: unknown;
      try {
        value = await QUOTE_SWAP.call(this.db, [
          id,
          principal.id,
          from.id,
          to.id,
          plain(priced.fromQuantity),
          plain(priced.fromPrice.price),
          plain(priced.toPrice.price),
          PRICE_CHANGE_GRACE_MS,
          expiresAt,
        ]);
      } catch (error) {
        const refusal = moneyRefusalOf(error);
        if (!refusal) throw error;
        throw this.refusal(refusal.code, refusal.detail, [from, to]) ?? error;
      }
      const terms = termsOf(value, priced.fromQuantity, priced.fromPrice.price, priced.toPrice.price);
      requireSomethingReceived(terms, to.symbol.toUpperCase());
      return {
        quoteId: id,
        amount: usdNumber(usdValue(terms.fromQuantity, terms.fromPrice)),
        from: leg(from, terms.fromQuantity, terms.fromPrice),
        to: leg(to, terms.toQuantity, terms.toPrice),
        ...termsAnswer(terms, to),
        expiresAt: expiresAt.toISOString(),
      };
    });
  }

  /** A swap at a quote: exactly its numbers, once, before it expires, for its customer only. */
  private async swapQuoted(principal: Principal, requestId: string | undefined, input: SwapDto, quoteId: string, idem?: IdempotencyContext) {
    const quote = await this.quotes.find(quoteId);
    if (!quote || quote.userId !== principal.id) throw new NotFoundError('This quote was not found: ask for a new quote.');
    if (quote.usedAt) throw new ConflictError('This quote was already used: ask for a new quote.');
    if (quote.expiresAt.getTime() <= Date.now()) throw new ConflictError(QUOTE_EXPIRED);
    const supported = await this.tokens.findSupportedMany([quote.fromToken, quote.toToken]);
    const from = supported.get(quote.fromToken);
    const to = supported.get(quote.toToken);
    if (!from || !to) throw new InvalidInputError('A token of this quote is no longer supported: ask for a new quote.');
    const fromPrice = toMoney(quote.fromPrice);
    const asked = usdToQuantity(parseAmount(input.amount), fromPrice, from.id);
    if (input.from !== quote.fromToken || input.to !== quote.toToken || !asked.eq(quote.fromQuantity))
      throw new InvalidInputError('This swap is not the one quoted: give the same amount, from and to as the quote, or ask for a new quote.');
    const terms: SwapTerms = {
      fromQuantity: toMoney(quote.fromQuantity),
      toQuantity: toMoney(quote.toQuantity),
      spreadQuantity: toMoney(quote.spreadQuantity),
      feeQuantity: toMoney(quote.feeQuantity),
      feeUsd: toMoney(quote.feeUsd),
      spreadBps: quote.spreadBps,
      rate: plain(quote.rate),
      fromPrice,
      toPrice: toMoney(quote.toPrice),
    };
    return this.execute(principal, requestId, { from, to, priceSource: 'quote' }, terms, quoteId, idem);
  }

  /** The tokens, both prices at the time of the request (read in parallel) and the quantity given. */
  private async price(input: SwapQuoteRequestDto): Promise<Priced> {
    if (input.from === input.to) throw new InvalidInputError('Choose two different tokens to swap.');
    const [supported, quotes] = await Promise.all([
      this.tokens.findSupportedMany([input.from, input.to]),
      this.prices.quoteMany([input.from, input.to]).catch(() => new Map<string, Quote>()),
    ]);
    const from = supported.get(input.from);
    const to = supported.get(input.to);
    if (!from) throw new InvalidInputError(`"${input.from.slice(0, 60)}" is not a supported token.`);
    if (!to) throw new InvalidInputError(`"${input.to.slice(0, 60)}" is not a supported token.`);
    // A refused price (stale in production) is re-read to surface its own error.
    const fromPrice = quotes.get(input.from) ?? (await this.prices.quote(from.id));
    const toPrice = quotes.get(input.to) ?? (await this.prices.quote(to.id));
    const fromQuantity = usdToQuantity(parseAmount(input.amount), fromPrice.price, from.id);
    if (fromQuantity.isZero()) throw new InvalidInputError(`The amount is below the smallest ${from.symbol.toUpperCase()} unit.`);
    return { from, to, fromPrice, toPrice, fromQuantity };
  }

  private refusal(code: string, detail: string, tokens: WalletToken[]): Error | undefined {
    const error = feeRefusalOf(code, detail, tokens, 'swap') ?? refusalOf(code, detail, tokens, tokens[0].symbol.toUpperCase());
    if (code === 'CPH01') this.exposure?.refused(detail, 'swap');
    if (code === MONEY_CODES.feesChanged) this.tokens.forgetFees();
    return error;
  }

  private async execute(
    principal: Principal,
    requestId: string | undefined,
    { from, to, priceSource }: { from: WalletToken; to: WalletToken; priceSource: string },
    terms: SwapTerms,
    quoteId: string | undefined,
    idem?: IdempotencyContext,
  ): Promise<SwapResponseDto> {
    const actor = actorOf(principal, requestId);
    const fromSymbol = from.symbol.toUpperCase();
    const toSymbol = to.symbol.toUpperCase();
    const { fromQuantity: fromQty, toQuantity: toQty } = terms;
    const usdAt = usdValue(fromQty, terms.fromPrice);
    const id = randomUUID();
    // A zero schedule writes the details it always wrote; the house's share and the quote are added when there is one.
    const charged = terms.spreadQuantity.gt(0) || terms.feeQuantity.gt(0);
    const details = {
      toToken: to.id,
      toCoinAmount: plain(toQty),
      toPrice: plain(terms.toPrice),
      fromPrice: plain(terms.fromPrice),
      priceSource,
      ...(charged
        ? { spreadBps: terms.spreadBps, spreadCoinAmount: plain(terms.spreadQuantity), feeCoinAmount: plain(terms.feeQuantity), feeUsd: plain(terms.feeUsd) }
        : {}),
      ...(quoteId ? { quoteId } : {}),
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
      price: plain(terms.fromPrice),
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
      from: leg(from, fromQty, terms.fromPrice),
      to: leg(to, toQty, terms.toPrice),
      transaction: toTransactionDto({ ...row, userName: principal.name, userEmail: principal.email, symbol: from.symbol }),
      ...termsAnswer(terms, to),
      ...(quoteId ? { quoteId } : {}),
    };
    const audit = this.audit.row(actor, {
      action: 'wallet.swap',
      targetType: 'transaction',
      targetId: id,
      after: {
        from: from.id,
        fromCoinAmount: plain(fromQty),
        to: to.id,
        toCoinAmount: plain(toQty),
        usd: plain(usdAt),
        ...(charged ? { spreadCoinAmount: plain(terms.spreadQuantity), feeCoinAmount: plain(terms.feeQuantity) } : {}),
        ...(quoteId ? { quoteId } : {}),
      },
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
          plain(terms.fromPrice),
          plain(terms.toPrice),
          note,
          details,
          at,
          PRICE_CHANGE_GRACE_MS,
          shard,
          this.idempotency.keyFor(idem, idem?.status ?? 201, body),
          { audit: [audit] },
          quoteId ?? null,
          plain(terms.spreadQuantity),
          plain(terms.feeQuantity),
        ],
        {
          changes: [
            { userId: principal.id, token: from.id },
            { userId: principal.id, token: to.id },
          ],
          refuse: ({ code, detail }) => this.refusal(code, detail, [from, to]),
          beforeCommit: this.idempotency.pauseAfterClaim(idem),
          // Sorted by the token paid out: the house position's lock of each (cp_require_house_position) in one order.
          groupCommit: { batches: this.batches, owner: principal.id, order: to.id },
        },
      ),
    );
    return body;
  }
}

function leg(token: WalletToken, quantity: Money, price: Money) {
  return { token: token.id, symbol: token.symbol, coinAmount: formatQuantity(quantity, token.id), price: plain(price) };
}
