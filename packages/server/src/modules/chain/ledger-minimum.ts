import { tokenDecimals } from '../ledger/money';

/** Whether a payment is below the smallest amount the ledger keeps of the token (recorded, never credited). */
export function belowLedgerMinimum(amountBase: bigint, decimals: number, coinId: string): boolean {
  const kept = tokenDecimals(coinId);
  // The minimum is 10^-kept of the token: 10^(decimals - kept) base units (below one base unit: every payment reaches it).
  return decimals > kept && amountBase < 10n ** BigInt(decimals - kept);
}
