import { tokenDecimals } from '../modules/ledger/money';

/**
 * A chain amount in base units (satoshis, wei, token units) as a plain decimal of the token, exactly: integer
 * arithmetic only, no trailing zeros (a block may pay thousands of customers; this runs for each payment).
 */
export function baseToDecimal(amountBase: bigint, decimals: number): string {
  if (amountBase < 0n) throw new Error('A chain amount is never negative');
  if (decimals === 0) return amountBase.toString();
  const digits = amountBase.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, -decimals);
  const fraction = digits.slice(-decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** Whether a payment is below the smallest amount the ledger keeps of the token (recorded, never credited). */
export function belowLedgerMinimum(amountBase: bigint, decimals: number, coinId: string): boolean {
  const kept = tokenDecimals(coinId);
  // The minimum is 10^-kept of the token: 10^(decimals - kept) base units (below one base unit: every payment reaches it).
  return decimals > kept && amountBase < 10n ** BigInt(decimals - kept);
}
