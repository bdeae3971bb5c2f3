import { coinDecimals } from '../../../lib/format';
import { swapOutput, usdValue } from '../../../lib/money';

interface Side {
  token: { id: string; symbol: string };
  price: number;
  usd: number;
  amount?: number;
}

/** A decimal string as an integer and a scale (exact; numbers in exponent form too). */
function parseDecimal(text: string): { units: bigint; scale: number } {
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(text.trim());
  if (!match) return { units: 0n, scale: 0 };
  const [, whole, fraction = '', exponent = '0'] = match;
  let digits = whole + fraction;
  let scale = fraction.length - Number(exponent);
  if (scale < 0) {
    digits += '0'.repeat(-scale);
    scale = 0;
  }
  return { units: BigInt(digits), scale };
}

/**
 * The USD amount (8 decimals, rounded up) that the server turns back into exactly `quantity`: it converts USD to a
 * quantity rounding down to the token's decimals, so the smallest 8-decimal USD value at or above quantity × price
 * moves the whole balance and never more.
 */
export function usdForWholeQuantity(quantity: number, price: number, tokenId: string): string {
  const q = parseDecimal(quantity.toFixed(coinDecimals(tokenId)));
  const p = parseDecimal(String(price));
  const scale = q.scale + p.scale;
  const product = q.units * p.units;
  const divisor = scale > 8 ? 10n ** BigInt(scale - 8) : 1n;
  const cents8 = scale > 8 ? (product + divisor - 1n) / divisor : product * 10n ** BigInt(8 - scale);
  const text = cents8.toString().padStart(9, '0');
  return `${text.slice(0, -8)}.${text.slice(-8)}`.replace(/\.?0+$/, '');
}

/** Whether a typed amount is the whole holding (at the token's decimals). */
export function isWholeBalance(fromAmount: number, from: Side | undefined): boolean {
  if (!from || from.amount === undefined || from.amount <= 0) return false;
  const decimals = coinDecimals(from.token.id);
  return fromAmount.toFixed(decimals) === from.amount.toFixed(decimals);
}

/** Swap preview (display only; the server recomputes): output, USD value, the payload amount and the balance error. */
export function swapPreview(fromAmount: number, from: Side | undefined, to: Side | undefined) {
  const usd = from ? usdValue(fromAmount, from.price) : 0;
  const output = from && to ? swapOutput(fromAmount, from.price, to.price) : 0;
  // The server takes at most 8 decimals of USD; the whole balance goes as the amount that converts back to all of it.
  const usdPayload: number | string =
    from && isWholeBalance(fromAmount, from) ? usdForWholeQuantity(fromAmount, from.price, from.token.id) : Math.floor(usd * 1e8) / 1e8;
  const error =
    from && fromAmount > 0 && usd > from.usd + 1e-9 && !isWholeBalance(fromAmount, from)
      ? `Insufficient ${from.token.symbol.toUpperCase()} balance`
      : undefined;
  return { fromAmount, usd, output, usdPayload, error };
}

/** Units of `to` per one `from`, at the two prices (0 when a price is missing). */
export function swapRate(from: Side | undefined, to: Side | undefined): number {
  return from && to && from.price > 0 && to.price > 0 ? from.price / to.price : 0;
}
