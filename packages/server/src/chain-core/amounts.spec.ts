import { describe, expect, it } from 'vitest';
import { plain, tokenDecimals, toMoney } from '../modules/ledger/money';
import { baseToDecimal, belowLedgerMinimum } from './amounts';

describe('chain amounts', () => {
  it('writes base units as the exact decimal of the token', () => {
    expect(baseToDecimal(1_000_000n, 8)).toBe('0.01');
    expect(baseToDecimal(123_456_789n, 8)).toBe('1.23456789');
    expect(baseToDecimal(100_000_000n, 8)).toBe('1');
    expect(baseToDecimal(1n, 18)).toBe('0.000000000000000001');
    expect(baseToDecimal(10n ** 30n + 5n, 18)).toBe('1000000000000.000000000000000005');
    expect(baseToDecimal(42n, 0)).toBe('42');
    expect(() => baseToDecimal(-1n, 8)).toThrow();
  });

  it('agrees with the decimal arithmetic it replaces', () => {
    for (const [base, decimals] of [
      [1n, 8],
      [999n, 6],
      [123_000n, 18],
      [2n ** 100n, 18],
      [700_000_000_000n, 8],
    ] as const) {
      expect(baseToDecimal(base, decimals)).toBe(plain(toMoney(base.toString()).div(toMoney(10).pow(decimals))));
    }
  });

  it('tells a payment below the ledger minimum of its token', () => {
    // litecoin keeps 3 decimals here: 0.001 LTC = 100,000 satoshis.
    expect(tokenDecimals('litecoin')).toBe(3);
    expect(belowLedgerMinimum(99_999n, 8, 'litecoin')).toBe(true);
    expect(belowLedgerMinimum(100_000n, 8, 'litecoin')).toBe(false);
    // bitcoin keeps 8: one satoshi is enough.
    expect(belowLedgerMinimum(1n, 8, 'bitcoin')).toBe(false);
    // A token with fewer decimals on chain than the ledger keeps: every payment reaches the minimum.
    expect(belowLedgerMinimum(1n, 2, 'some-token')).toBe(false);
  });
});
