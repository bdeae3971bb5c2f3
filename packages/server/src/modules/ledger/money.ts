import Decimal from 'decimal.js';

/** Exact decimal arithmetic for money: 60 significant digits, never floating point. */
export const Money = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_DOWN, toExpNeg: -60, toExpPos: 60 });
export type Money = Decimal;

/** Coin quantity decimals (spec §9): ethereum 6, bitcoin 8, tether 2, every other token 3. */
export function tokenDecimals(tokenId: string): number {
  switch (tokenId) {
    case 'bitcoin':
      return 8;
    case 'ethereum':
      return 6;
    case 'tether':
      return 2;
    default:
      return 3;
  }
}

export function toMoney(value: Decimal.Value): Money {
  return new Money(typeof value === 'number' ? String(value) : value);
}

/** USD → coin quantity at `price`, rounded DOWN to the token's decimals. */
export function usdToQuantity(usd: Decimal.Value, price: Decimal.Value, tokenId: string): Money {
  return toMoney(usd).div(toMoney(price)).toDecimalPlaces(tokenDecimals(tokenId), Decimal.ROUND_DOWN);
}

/** Quantity × price, kept to 8 decimals (USD is rounded to cents only for display). */
export function usdValue(quantity: Decimal.Value, price: Decimal.Value): Money {
  return toMoney(quantity).mul(toMoney(price)).toDecimalPlaces(8, Decimal.ROUND_HALF_EVEN);
}

/** A quantity as the fixed-point string of the token's decimals, e.g. 0.00020000 for bitcoin. */
export function formatQuantity(quantity: Decimal.Value, tokenId: string): string {
  return toMoney(quantity).toFixed(tokenDecimals(tokenId), Decimal.ROUND_DOWN);
}

/** A decimal as a plain string without trailing zeros. */
export function plain(value: Decimal.Value): string {
  const d = toMoney(value);
  return d.isZero() ? '0' : d.toFixed();
}

/** USD as a JSON number (the spec's `amount` and `balance` are numbers); exact to 8 decimals. */
export function usdNumber(value: Decimal.Value): number {
  return Number(toMoney(value).toDecimalPlaces(8, Decimal.ROUND_HALF_EVEN).toFixed());
}

/** A validated request amount (JSON number or decimal string) as an exact decimal. */
export function parseAmount(value: number | string): Money {
  return toMoney(typeof value === 'number' ? String(value) : value.trim());
}
