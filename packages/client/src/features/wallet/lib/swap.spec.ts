import { describe, expect, it } from 'vitest';
import { isWholeBalance, swapPreview, swapRate, usdForWholeQuantity } from './swap';

/** What the server does with a USD amount: quantity = USD / price, rounded down to the token's decimals. */
const serverQuantity = (usd: string, price: number, decimals: number) => Math.floor((Number(usd) / price) * 10 ** decimals + 1e-6) / 10 ** decimals;

describe('Max: the USD amount that moves the whole balance', () => {
  it('is quantity × price rounded up to 8 decimals', () => {
    expect(usdForWholeQuantity(0.02, 50000, 'bitcoin')).toBe('1000');
    expect(usdForWholeQuantity(0.12345678, 1.23456789, 'bitcoin')).toBe('0.15241578');
    expect(usdForWholeQuantity(1234320.63, 1.0001, 'tether')).toBe('1234444.062063');
    expect(usdForWholeQuantity(23674242.424, 0.00001234, 'shiba-inu')).toBe('292.14015152');
  });
  it('converts back to exactly the balance at the server rule', () => {
    expect(serverQuantity(usdForWholeQuantity(0.12345678, 1.23456789, 'bitcoin'), 1.23456789, 8)).toBe(0.12345678);
    expect(serverQuantity(usdForWholeQuantity(23674242.424, 0.00001234, 'shiba-inu'), 0.00001234, 3)).toBe(23674242.424);
    expect(serverQuantity(usdForWholeQuantity(1.234567, 3123.45, 'ethereum'), 3123.45, 6)).toBe(1.234567);
  });
  it('the preview sends it when the amount is the whole holding, and shows no balance error', () => {
    const btc = { token: { id: 'bitcoin', symbol: 'btc' }, price: 1.23456789, usd: 0.15241577, amount: 0.12345678 };
    const eth = { token: { id: 'ethereum', symbol: 'eth' }, price: 2500, usd: 0 };
    expect(isWholeBalance(0.12345678, btc)).toBe(true);
    expect(isWholeBalance(0.1234567, btc)).toBe(false);
    const preview = swapPreview(0.12345678, btc, eth);
    expect(preview.usdPayload).toBe('0.15241578');
    expect(preview.error).toBeUndefined();
    expect(swapRate({ ...btc, price: 50000 }, eth)).toBe(20);
  });
});
