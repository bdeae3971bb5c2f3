import { describe, expect, it } from 'vitest';
import { evmPaymentFees, evmReplacementFees, FeeAboveCeiling, feeNotCoveredRefusal, recipientGetsBase, tenPercentMore, utxoReplacementFeeRate } from './fees';

const GWEI = 1_000_000_000n;

describe('the payout fee rules', () => {
  it('an amount the network fee takes entirely is refused, with the fee said for people; the recipient gets the rest', () => {
    expect(feeNotCoveredRefusal(100_000n, 141_000n, 8, 'LTC')).toBe('The amount does not cover the network fee of 0.00141 LTC.');
    expect(feeNotCoveredRefusal(141_000n, 141_000n, 8, 'LTC')).toBe('The amount does not cover the network fee of 0.00141 LTC.');
    expect(feeNotCoveredRefusal(141_001n, 141_000n, 8, 'LTC')).toBeUndefined();
    expect(feeNotCoveredRefusal(1n, 42_000_000_000_000n, 18, 'ETH')).toBe('The amount does not cover the network fee of 0.000042 ETH.');
    expect(recipientGetsBase(100_000n, 141_000n)).toBe(0n);
    expect(recipientGetsBase(200_000n, 141_000n)).toBe(59_000n);
  });

  it('an EVM payment offers the quoted tip and room for the base fee to double, within the ceiling', () => {
    const quote = { baseFeePerGas: 10n * GWEI, priorityFeePerGas: 2n * GWEI };
    expect(evmPaymentFees(quote, 21_000n, 10n ** 18n)).toEqual({ maxFeePerGas: 22n * GWEI, maxPriorityFeePerGas: 2n * GWEI });
    // A ceiling between the quote and the doubled base fee caps the fee cap.
    expect(evmPaymentFees(quote, 21_000n, 21_000n * 15n * GWEI)).toEqual({ maxFeePerGas: 15n * GWEI, maxPriorityFeePerGas: 2n * GWEI });
    expect(() => evmPaymentFees(quote, 21_000n, 21_000n * 11n * GWEI)).toThrow(FeeAboveCeiling);
  });

  it('an EVM replacement raises tip and fee cap by 10 % at least (1 wei from zero), to what the quote asks, never past the ceiling', () => {
    expect(tenPercentMore(0n)).toBe(1n);
    expect(tenPercentMore(1000n)).toBe(1100n);
    expect(tenPercentMore(1001n)).toBe(1102n);
    const old = { maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: 1n * GWEI };
    const calm = { baseFeePerGas: 5n * GWEI, priorityFeePerGas: 1n * GWEI };
    expect(evmReplacementFees(old, calm, 21_000n, 10n ** 18n)).toEqual({ maxFeePerGas: 22n * GWEI, maxPriorityFeePerGas: (11n * GWEI) / 10n });
    const busy = { baseFeePerGas: 30n * GWEI, priorityFeePerGas: 3n * GWEI };
    expect(evmReplacementFees(old, busy, 21_000n, 10n ** 18n)).toEqual({ maxFeePerGas: 63n * GWEI, maxPriorityFeePerGas: 3n * GWEI });
    expect(evmReplacementFees(old, busy, 21_000n, 21_000n * 40n * GWEI)).toEqual({ maxFeePerGas: 40n * GWEI, maxPriorityFeePerGas: 3n * GWEI });
    // No room for +10 % under the ceiling: no replacement.
    expect(evmReplacementFees(old, calm, 21_000n, 21_000n * 21n * GWEI)).toBeUndefined();
  });

  it('a UTXO replacement pays half again the rate, at least the incremental relay fee more, within the ceiling', () => {
    const node = { incrementalPerKvB: 1000n };
    // 1,410 sat for 141 vB: 10 sat/vB → 15.
    expect(utxoReplacementFeeRate({ feeBase: 1410n, vsize: 141 }, 100_000n, node)).toBe('15.000');
    // A node estimate above that wins.
    expect(utxoReplacementFeeRate({ feeBase: 1410n, vsize: 141 }, 100_000n, { ...node, estimatePerKvB: 40_000n })).toBe('40.000');
    // At 1 sat/vB the incremental relay fee is more than half again.
    expect(utxoReplacementFeeRate({ feeBase: 141n, vsize: 141 }, 100_000n, node)).toBe('2.000');
    // Capped by the ceiling (4,000 sat / 141 vB), and nothing when even the least raise passes it.
    expect(utxoReplacementFeeRate({ feeBase: 3173n, vsize: 141 }, 4000n, node)).toBe('28.368');
    expect(utxoReplacementFeeRate({ feeBase: 4000n, vsize: 141 }, 4000n, node)).toBeUndefined();
  });
});
