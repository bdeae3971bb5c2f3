/**
 * Amounts on a chain, written once: base units (satoshis, wei, token units; a bigint) and the decimal text people, the
 * ledger and the nodes read, converted exactly — integer arithmetic on the digits only, never a float.
 */

/** Text that is not an amount the unit can hold (not a decimal, or more non-zero decimals than the unit has). */
export class AmountError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AmountError';
  }
}

/**
 * Base units as the exact decimal of the coin, without trailing zeros ("0.01"): how the ledger and the screens write an
 * amount. A chain amount is never negative.
 */
export function baseToDecimal(amountBase: bigint, decimals: number): string {
  if (amountBase < 0n) throw new AmountError('A chain amount is never negative');
  if (decimals === 0) return amountBase.toString();
  const digits = amountBase.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, -decimals);
  const fraction = digits.slice(-decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** Base units with every decimal written ("0.01000000"): how a node takes an amount, and how a payout shows its figures. */
export function baseToFixed(amountBase: bigint, decimals: number): string {
  if (amountBase < 0n) return `-${baseToFixed(-amountBase, decimals)}`;
  if (decimals === 0) return amountBase.toString();
  const digits = amountBase.toString().padStart(decimals + 1, '0');
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/**
 * A decimal amount in base units, exactly: text ("0.5"), or the JSON number a node answered (written with the unit's
 * decimals first, so 0.1 is 10,000,000 satoshis, not the float's digits). AmountError for anything else, and for more
 * non-zero decimals than the unit has.
 */
export function decimalToBase(value: unknown, decimals: number): bigint {
  const text = typeof value === 'number' ? value.toFixed(decimals) : String(value);
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new AmountError(`Not an amount: ${text.slice(0, 40)}`);
  const fraction = (match[2] ?? '').padEnd(decimals, '0');
  if (fraction.length > decimals && /[1-9]/.test(fraction.slice(decimals))) throw new AmountError(`Amount with too many decimals: ${text}`);
  return BigInt(match[1]) * 10n ** BigInt(decimals) + BigInt(fraction.slice(0, decimals) || '0');
}

/**
 * What a withdrawal of `coinAmount` (the ledger's exact decimal) pays on the chain, in base units: truncated to the
 * unit's decimals and at least 1. The payout row is created with it (PayoutsRepository.createDue), and the Send step
 * quotes the fee on it.
 */
export function payoutAmountBase(coinAmount: string, decimals: number): bigint {
  const match = /^(\d+)(?:\.(\d*))?$/.exec(coinAmount.trim());
  if (!match) throw new AmountError(`Not an amount: ${coinAmount.slice(0, 40)}`);
  const base = decimalToBase(`${match[1]}.${(match[2] ?? '').slice(0, decimals) || '0'}`, decimals);
  return base > 0n ? base : 1n;
}
