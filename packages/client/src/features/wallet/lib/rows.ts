import type { WalletToken } from '../../../api/endpoints';
import type { UserBalanceDto } from '../../../api/generated/walletApi.generated';
import { coinAmount } from '../../../lib/money';

export interface WalletRow {
  token: WalletToken;
  /** Current USD price (the balance's price when given, else the token list's). */
  price: number;
  /** USD value held. */
  usd: number;
  /** Quantity held. */
  amount: number;
  /** Quantity held exactly (every decimal the chain gave), as the server wrote it: what Max sends. */
  exact: string;
  /** The exact quantity has more decimals than the display shows (then shown beside it). */
  exactDiffers: boolean;
}

/** Whether an exact quantity has more digits than its display (`coinAmount` at the token's decimals). */
export function exactDiffers(display: string | number, exact: string | undefined): boolean {
  if (exact === undefined) return false;
  const trim = (text: string) => (text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text);
  return trim(String(display)) !== trim(exact);
}

/** Every wallet token with its holding, sorted by USD value, highest first (ties by market order). */
export function buildWalletRows(tokens: WalletToken[], balance: UserBalanceDto): WalletRow[] {
  const byToken = new Map(balance.balances.map((b) => [b.token, b]));
  const rows = tokens.map((token, index) => {
    const held = byToken.get(token.id);
    const price = Number(held?.price ?? token.current_price) || 0;
    const usd = Number(held?.balance ?? 0) || 0;
    const amount = held?.coinAmount !== undefined ? Number(held.coinAmount) || 0 : coinAmount(usd, price);
    const exact = held?.coinAmountExact ?? String(amount);
    return { token, price, usd, amount, exact, exactDiffers: held ? exactDiffers(held.coinAmount, held.coinAmountExact) : false, index };
  });
  rows.sort((a, b) => b.usd - a.usd || a.index - b.index);
  return rows.map(({ index: _index, ...row }) => row);
}
