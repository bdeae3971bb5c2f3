/** The fee schedule's defaults and the quotes' lifetime (issue 34; see `.env.example` and docs/operate/fees.md). */
export interface FeeSettings {
  /** How long a swap quote holds, in seconds (`SWAP_QUOTE_SECONDS`). */
  swapQuoteSeconds: number;
  /**
   * The default row of the fee schedule, written at boot until an administrator sets it on the Fees screen: the swap
   * spread and fee in basis points (`FEE_SWAP_SPREAD_BPS`, `FEE_SWAP_FEE_BPS`), the least swap fee in USD
   * (`FEE_SWAP_FEE_MIN_USD`) and the least house position of every token in USD (`HOUSE_MIN_POSITION_USD`).
   */
  defaults: { swapSpreadBps: number; swapFeeBps: number; swapFeeMinUsd: string; houseMinPositionUsd: string };
}

const USD = /^\d{1,15}(\.\d{1,8})?$/;

export function parseFeeSettings(
  env: NodeJS.ProcessEnv,
  problems: string[],
  int: (name: string, fallback: number, min: number, max: number) => number,
): FeeSettings {
  const usd = (name: string): string => {
    const raw = (env[name] ?? '').trim() || '0';
    if (USD.test(raw)) return raw;
    problems.push(`${name} must be a USD amount such as 0 or 1.50 (got "${env[name]}")`);
    return '0';
  };
  return {
    swapQuoteSeconds: int('SWAP_QUOTE_SECONDS', 15, 1, 3600),
    defaults: {
      swapSpreadBps: int('FEE_SWAP_SPREAD_BPS', 0, 0, 4999),
      swapFeeBps: int('FEE_SWAP_FEE_BPS', 0, 0, 4999),
      swapFeeMinUsd: usd('FEE_SWAP_FEE_MIN_USD'),
      houseMinPositionUsd: usd('HOUSE_MIN_POSITION_USD'),
    },
  };
}
