// Display and preview arithmetic only: the server recomputes every amount it books.

/** Spec §9: coin amount decimals — ethereum 6, bitcoin 8, tether 2, others 3. */
export function coinDecimals(tokenId: string): number {
  switch (tokenId) {
    case 'ethereum':
      return 6;
    case 'bitcoin':
      return 8;
    case 'tether':
      return 2;
    default:
      return 3;
  }
}

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

/** A coin amount with the token's decimals (string, as sent in `coinAmount`). */
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

const usdFormat = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** USD with 2 decimals: $1,234.50 */
export function formatUsd(value: unknown): string {
  return usdFormat.format(toNumber(value));
}

/** Coin price: 2 decimals, more for prices below one dollar. */
export function formatPrice(value: unknown): string {
  const n = toNumber(value);
  if (n > 0 && n < 1) return `$${n.toPrecision(4)}`;
  return formatUsd(n);
}

/** 24h change with 2 decimals: '+1.23%' when positive, '-1.23%' when negative. */
export function formatChange(percent: unknown): string {
  const n = toNumber(percent);
  return `${n > 0 ? '+' : ''}${n.toFixed(2)}%`;
}

/** 'up' (green) for positive change, 'down' (red) for negative, 'flat' otherwise. */
export function changeDirection(percent: unknown): 'up' | 'down' | 'flat' {
  const n = toNumber(percent);
  return n > 0 ? 'up' : n < 0 ? 'down' : 'flat';
}

/** Parses a user-typed amount; NaN-free (invalid or negative → 0). */
export function parseAmount(text: string): number {
  const n = Number(text);
  return Number.isFinite(n) && n > 0 ? n : 0;
}
