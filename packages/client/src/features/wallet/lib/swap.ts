import { swapOutput, usdValue } from '../../../lib/money';

interface Side {
  token: { id: string; symbol: string };
  price: number;
  usd: number;
}

/** Swap preview (display only; the server recomputes): output, USD value, the payload amount and the balance error. */
export function swapPreview(fromAmount: number, from: Side | undefined, to: Side | undefined) {
  const usd = from ? usdValue(fromAmount, from.price) : 0;
  const output = from && to ? swapOutput(fromAmount, from.price, to.price) : 0;
  // The server takes at most 8 decimals of USD.
  const usdPayload = Math.floor(usd * 1e8) / 1e8;
  const error = from && fromAmount > 0 && usd > from.usd + 1e-9 ? `Insufficient ${from.token.symbol.toUpperCase()} balance` : undefined;
  return { fromAmount, usd, output, usdPayload, error };
}
