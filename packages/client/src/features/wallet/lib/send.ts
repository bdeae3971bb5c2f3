import { coinAmount, formatCoinAmount } from '../../../lib/money';

/** Coin amount of a send: USD / price with the token decimals; for tether the USD amount itself (spec §2). */
export function sendCoinAmount(usd: number, price: number, tokenId: string): string {
  return formatCoinAmount(tokenId === 'tether' ? usd : coinAmount(usd, price), tokenId);
}

/** The Transfer confirm screen shows the coin amount as negative. */
export function confirmCoinAmount(usd: number, price: number, tokenId: string): string {
  return `-${sendCoinAmount(usd, price, tokenId)}`;
}
