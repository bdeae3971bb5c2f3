import { describe, expect, it } from 'vitest';
import Decimal from 'decimal.js';
import { AmountError, baseToDecimal, baseToFixed, decimalToBase, payoutAmountBase } from './amounts';

describe('chain amounts', () => {
  it('writes base units as the exact decimal of the token', () => {
    expect(baseToDecimal(1_000_000n, 8)).toBe('0.01');
    expect(baseToDecimal(123_456_789n, 8)).toBe('1.23456789');
    expect(baseToDecimal(100_000_000n, 8)).toBe('1');
    expect(baseToDecimal(0n, 8)).toBe('0');
    expect(baseToDecimal(1n, 18)).toBe('0.000000000000000001');
    expect(baseToDecimal(10n ** 30n + 5n, 18)).toBe('1000000000000.000000000000000005');
    expect(baseToDecimal(42n, 0)).toBe('42');
    expect(() => baseToDecimal(-1n, 8)).toThrow(AmountError);
  });

  it('agrees with decimal arithmetic', () => {
    const Exact = Decimal.clone({ precision: 80, toExpNeg: -80, toExpPos: 80 });
    for (const [base, decimals] of [
      [1n, 8],
      [999n, 6],
      [123_000n, 18],
      [2n ** 100n, 18],
      [700_000_000_000n, 8],
    ] as const) {
      expect(baseToDecimal(base, decimals)).toBe(new Exact(base.toString()).div(new Exact(10).pow(decimals)).toFixed());
    }
  });

  it('writes every decimal for the nodes and the payout figures', () => {
    expect(baseToFixed(1_000_000n, 8)).toBe('0.01000000');
    expect(baseToFixed(0n, 8)).toBe('0.00000000');
    expect(baseToFixed(123_456_789_012n, 8)).toBe('1234.56789012');
    expect(baseToFixed(1n, 18)).toBe('0.000000000000000001');
    expect(baseToFixed(42n, 0)).toBe('42');
    expect(baseToFixed(-5n, 2)).toBe('-0.05');
  });

  it('reads decimal text and the numbers nodes answer, exactly', () => {
    expect(decimalToBase('0.01', 8)).toBe(1_000_000n);
    expect(decimalToBase('1', 8)).toBe(100_000_000n);
    expect(decimalToBase('0.10000000000', 8)).toBe(10_000_000n);
    // A JSON number is written with the unit's decimals first: 0.1 is not read from the float's binary digits.
    expect(decimalToBase(0.1, 8)).toBe(10_000_000n);
    expect(decimalToBase(0.00001, 8)).toBe(1_000n);
    expect(decimalToBase('1.000000000000000001', 18)).toBe(10n ** 18n + 1n);
    expect(() => decimalToBase('0.000000001', 8)).toThrow(AmountError);
    expect(() => decimalToBase('-1', 8)).toThrow('Not an amount');
    expect(() => decimalToBase('1e-8', 8)).toThrow('Not an amount');
    expect(() => decimalToBase(undefined, 8)).toThrow('Not an amount');
    // Round trips.
    for (const [base, decimals] of [
      [1n, 8],
      [2n ** 100n, 18],
      [0n, 6],
    ] as const) {
      expect(decimalToBase(baseToDecimal(base, decimals), decimals)).toBe(base);
      expect(decimalToBase(baseToFixed(base, decimals), decimals)).toBe(base);
    }
  });

  it("a withdrawal's payout amount is truncated to the chain's decimals and at least 1", () => {
    expect(payoutAmountBase('0.001', 8)).toBe(100_000n);
    expect(payoutAmountBase('0.123456789', 8)).toBe(12_345_678n);
    expect(payoutAmountBase('0.000000001', 8)).toBe(1n);
    expect(payoutAmountBase(' 2 ', 8)).toBe(200_000_000n);
    expect(payoutAmountBase('7.9', 0)).toBe(7n);
    expect(() => payoutAmountBase('abc', 8)).toThrow(AmountError);
  });
});
