// Display and preview arithmetic only: the server recomputes every amount it books.

import { coinDecimals } from './format';

// Display formatting lives in lib/format.ts (one Intl formatter); re-exported here for existing imports.
export { changeDirection, coinDecimals, formatChange, formatPrice, formatUsd } from './format';

const toNumber = (value: unknown): number => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : 0;
};

/** Spec §5: coin amount = USD amount / current price; 0 when amount or price is not positive. */
export function coinAmount(usdAmount: unknown, price: unknown): number {
  const usd = toNumber(usdAmount);
  const p = toNumber(price);
  if (usd <= 0 || p <= 0) return 0;
  return usd / p;
}

/** A coin amount with the token's decimals, no grouping (string, as sent in `coinAmount`); display uses format.ts. */
export function formatCoinAmount(amount: unknown, tokenId: string): string {
  return toNumber(amount).toFixed(coinDecimals(tokenId));
}

/** Spec §9: swap output = from-amount × from price / to price (0 when a price is missing). */
export function swapOutput(fromAmount: unknown, fromPrice: unknown, toPrice: unknown): number {
  const amount = toNumber(fromAmount);
  const from = toNumber(fromPrice);
  const to = toNumber(toPrice);
  if (amount <= 0 || from <= 0 || to <= 0) return 0;
  return (amount * from) / to;
}

/** USD value of a coin amount. */
export function usdValue(amount: unknown, price: unknown): number {
  return toNumber(amount) * toNumber(price);
}

/** Parses a user-typed amount; NaN-free (invalid or negative → 0). */
export function parseAmount(text: string): number {
  const n = Number(text);
  return Number.isFinite(n) && n > 0 ? n : 0;
}
