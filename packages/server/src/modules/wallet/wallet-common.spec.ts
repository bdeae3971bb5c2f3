import { describe as suite, expect, it } from 'vitest';
import { describe, groupThousands, usdText } from './wallet-common';

suite('amounts in texts people read (notifications, mails)', () => {
  it('groups thousands and keeps every decimal', () => {
    expect(groupThousands('1234567.494126')).toBe('1,234,567.494126');
    expect(groupThousands('999')).toBe('999');
    expect(groupThousands('-1000.5')).toBe('-1,000.5');
  });
  it("prints coin amounts at the token's decimals with the symbol", () => {
    expect(describe('1234320.63', 'tether', 'usdt')).toBe('1,234,320.63 USDT');
    expect(describe('0.0002', 'bitcoin', 'btc')).toBe('0.00020000 BTC');
    expect(describe('23674242.424', 'shiba-inu', 'shib')).toBe('23,674,242.424 SHIB');
  });
  it('prints USD with a dollar sign, grouping and cents', () => {
    expect(usdText('1234567.494126')).toBe('$1,234,567.49');
    expect(usdText('10')).toBe('$10.00');
    expect(usdText('-5')).toBe('-$5.00');
  });
});
