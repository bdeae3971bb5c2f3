import { describe, expect, it } from 'vitest';
import { tokenDecimals } from '../ledger/money';
import { belowLedgerMinimum } from './ledger-minimum';

describe('the ledger minimum of a chain payment', () => {
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
