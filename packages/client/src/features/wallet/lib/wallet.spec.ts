import { describe, expect, it } from 'vitest';
import type { WalletToken } from '../../../api/endpoints';
import { chartPath } from './chart';
import { buildWalletRows, exactDiffers } from './rows';
import { confirmCoinAmount, sendCoinAmount } from './send';
import { swapPreview } from './swap';

const token = (id: string, symbol: string, price: number): WalletToken =>
  ({ id, symbol, name: id, image: `${symbol}.png`, current_price: price, address: `addr-${id}` }) as unknown as WalletToken;

describe('wallet rows', () => {
  it('joins tokens with balances and sorts by USD value, highest first', () => {
    const rows = buildWalletRows([token('bitcoin', 'btc', 50000), token('ethereum', 'eth', 2500), token('tether', 'usdt', 1)], {
      totalBalance: 300,
      balances: [
        { token: 'ethereum', balance: 250, symbol: 'eth', name: 'Ethereum', coinAmount: '0.100000', coinAmountExact: '0.1000004', price: '2500' },
        { token: 'tether', balance: 50, symbol: 'usdt', name: 'Tether', coinAmount: '50.00', coinAmountExact: '50', price: '1' },
      ],
    });
    expect(rows.map((r) => r.token.id)).toEqual(['ethereum', 'tether', 'bitcoin']);
    expect(rows[0]).toMatchObject({ usd: 250, amount: 0.1, price: 2500, exact: '0.1000004', exactDiffers: true });
    // Trailing zeros are no difference: 50.00 is exactly 50.
    expect(rows[1]).toMatchObject({ exact: '50', exactDiffers: false });
    expect(rows[2]).toMatchObject({ usd: 0, amount: 0, price: 50000 });
  });
});

describe('exact amounts', () => {
  it('differ from the display only by a non-zero digit beyond it', () => {
    expect(exactDiffers('0.001', '0.00140001')).toBe(true);
    expect(exactDiffers('1.234567', '1.234567891234567891')).toBe(true);
    expect(exactDiffers('1.234567', '1.234567000')).toBe(false);
    expect(exactDiffers('0.000', '0')).toBe(false);
    expect(exactDiffers('2.000', undefined)).toBe(false);
  });
});

describe('swap preview', () => {
  const btc = { token: { id: 'bitcoin', symbol: 'btc' }, price: 50000, usd: 1000 };
  const eth = { token: { id: 'ethereum', symbol: 'eth' }, price: 2500, usd: 0 };
  it('computes the output, its USD value and the payload amount', () => {
    const p = swapPreview(0.01, btc, eth);
    expect(p.output).toBeCloseTo(0.2, 12);
    expect(p.usd).toBe(500);
    expect(p.usdPayload).toBe(500);
    expect(p.error).toBeUndefined();
  });
  it("says 'Insufficient {symbol} balance' when the USD value exceeds the balance held", () => {
    expect(swapPreview(0.03, btc, eth).error).toBe('Insufficient BTC balance');
    expect(swapPreview(0.02, btc, eth).error).toBeUndefined();
  });
  it('keeps at most 8 decimals of USD in the payload', () => {
    expect(
      swapPreview(0.123456789, { ...btc, price: 1.23456789, usd: 10 }, eth)
        .usdPayload.toString()
        .split('.')[1]?.length ?? 0,
    ).toBeLessThanOrEqual(8);
  });
});

describe('chart path', () => {
  it('scales the series into the box (highest price at the top)', () => {
    const path = chartPath([1, 3, 2], 100, 50, 0)!;
    expect(path.line).toBe('M0.0,50.0 L50.0,0.0 L100.0,25.0');
  });
  it('needs two points', () => {
    expect(chartPath([5], 100, 50)).toBeUndefined();
    expect(chartPath([], 100, 50)).toBeUndefined();
  });
});

describe('send confirm amount', () => {
  it('is negative USD / price with the token decimals', () => {
    expect(confirmCoinAmount(100, 50000, 'bitcoin')).toBe('-0.00200000');
    expect(confirmCoinAmount(10, 3, 'solana')).toBe('-3.333');
    expect(sendCoinAmount(10, 2500, 'ethereum')).toBe('0.004000');
  });
  it('for tether shows the USD amount itself', () => {
    expect(confirmCoinAmount(25, 0.998, 'tether')).toBe('-25.00');
  });
});
