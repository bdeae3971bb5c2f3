import { InvalidInputError } from '../../common/errors';
import type { GroupedReads } from '../../db/grouped-reads';
import Decimal from 'decimal.js';
import { formatQuantity, plain, tokenDecimals, toMoney, type Money } from '../ledger/money';

/** What a swap pays the customer and the house, as the fee schedule decides it (cp_swap_terms, drizzle/0050_fees.sql). */
export interface SwapTerms {
  fromQuantity: Money;
  toQuantity: Money;
  spreadQuantity: Money;
  feeQuantity: Money;
  feeUsd: Money;
  spreadBps: number;
  rate: string;
  fromPrice: Money;
  toPrice: Money;
}

interface TermsRow {
  toQuantity: string | number;
  grossQuantity: string | number;
  spreadQuantity: string | number;
  feeQuantity: string | number;
  feeUsd: string | number;
  spreadBps: number;
  rate: string | number;
}

function jsonOf(value: unknown): TermsRow {
  return (typeof value === 'string' ? JSON.parse(value) : value) as TermsRow;
}

/** The terms of `cp_swap_terms` / `cp_quote_swap`'s answer. */
export function termsOf(value: unknown, fromQuantity: Money, fromPrice: Money, toPrice: Money): SwapTerms & { grossQuantity: Money } {
  const row = jsonOf(value);
  return {
    fromQuantity,
    toQuantity: toMoney(String(row.toQuantity)),
    grossQuantity: toMoney(String(row.grossQuantity)),
    spreadQuantity: toMoney(String(row.spreadQuantity)),
    feeQuantity: toMoney(String(row.feeQuantity)),
    feeUsd: toMoney(String(row.feeUsd)),
    spreadBps: Number(row.spreadBps),
    rate: plain(String(row.rate)),
    fromPrice,
    toPrice,
  };
}

/**
 * Reads the terms of a swap priced now (cp_swap_terms, read with the concurrent swaps' in one statement; cp_swap checks
 * them again under its locks).
 */
export async function readSwapTerms(reads: GroupedReads, from: string, to: string, fromQuantity: Money, fromPrice: Money, toPrice: Money) {
  const value = await reads.read([from, to, plain(fromQuantity), plain(fromPrice), plain(toPrice)]);
  return termsOf(value, fromQuantity, fromPrice, toPrice);
}

/**
 * The terms of a swap the schedule charges nothing for: the market conversion, as swaps always were (cp_swap checks
 * them against cp_swap_terms under its locks).
 */
export function marketTerms(to: string, fromQuantity: Money, fromPrice: Money, toPrice: Money): SwapTerms & { grossQuantity: Money } {
  const gross = fromQuantity.mul(fromPrice).div(toPrice).toDecimalPlaces(tokenDecimals(to), Decimal.ROUND_DOWN);
  const zero = toMoney(0);
  return {
    fromQuantity,
    toQuantity: gross,
    grossQuantity: gross,
    spreadQuantity: zero,
    feeQuantity: zero,
    feeUsd: zero,
    spreadBps: 0,
    rate: plain(fromPrice.div(toPrice).toDecimalPlaces(12, Decimal.ROUND_HALF_UP)),
    fromPrice,
    toPrice,
  };
}

/** A swap whose customer would get nothing: too small for a unit, or for the spread and fee. */
export function requireSomethingReceived(terms: { toQuantity: Money; grossQuantity: Money }, toSymbol: string): void {
  if (terms.grossQuantity.isZero()) throw new InvalidInputError(`The amount is too small to receive any ${toSymbol}.`);
  if (terms.toQuantity.lte(0)) throw new InvalidInputError(`The amount is too small to cover the swap fee: you would receive no ${toSymbol}.`);
}

/** The answer's terms: the rate with the spread in it, the spread, and the fee in the token received. */
export function termsAnswer(terms: SwapTerms, to: { id: string }) {
  return {
    rate: terms.rate,
    spreadBps: terms.spreadBps,
    fee: { usd: plain(terms.feeUsd.toDecimalPlaces(8)), token: to.id, coinAmount: formatQuantity(terms.feeQuantity, to.id) },
  };
}
