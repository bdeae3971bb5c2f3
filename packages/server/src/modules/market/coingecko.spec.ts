import { describe, expect, it } from 'vitest';
import { marketsRequest, parseMarketRows, parseRetryAfter } from './coingecko';
import { etagMatches } from './market.controller';

describe('parseMarketRows', () => {
  const now = new Date('2026-01-01T12:00:00Z');
  const row = (extra: Record<string, unknown> = {}) => ({ id: 'bitcoin', symbol: 'BTC', name: 'Bitcoin', current_price: 64000.5, ...extra });

  it('turns provider numbers into exact decimal strings and keeps only finite positive prices', () => {
    const { rows, skipped } = parseMarketRows(
      [
        row({
          market_cap: 1.23e12,
          market_cap_rank: 1,
          low_24h: 0.1,
          high_24h: 1e-7,
          price_change_percentage_24h: -1.23456789123,
          last_updated: '2026-01-01T11:59:00Z',
        }),
        row({ id: 'a', current_price: -1 }),
        row({ id: 'b', current_price: 0 }),
        row({ id: 'c', current_price: 'NaN' }),
        row({ id: 'd', current_price: '1e400' }),
        row({ id: 'e', current_price: null }),
        row({ id: 'UPPER case' }),
        row({ id: 'f', name: 'bad\u0000name' }),
      ],
      'live',
      now,
    );
    expect(skipped).toBe(7);
    expect(rows).toEqual([
      {
        id: 'bitcoin',
        symbol: 'btc',
        name: 'Bitcoin',
        image: 'generic.png',
        currentPrice: '64000.5',
        marketCap: '1230000000000',
        marketCapRank: 1,
        low24h: '0.1',
        high24h: '0.0000001',
        priceChangePercentage24h: '-1.23456789',
        sparkline7d: [],
        lastUpdated: new Date('2026-01-01T11:59:00Z'),
        source: 'live',
      },
    ]);
  });

  it('refuses non-arrays, keeps the first of duplicate ids, and distrusts future timestamps and odd images', () => {
    expect(parseMarketRows({ error: 'rate limited' }, 'live')).toEqual({ rows: [], skipped: 0 });
    const { rows, skipped } = parseMarketRows(
      [row({ current_price: 1, last_updated: '2099-01-01T00:00:00Z', image: 'http://evil.example/x.png' }), row({ current_price: 2 })],
      'live',
      now,
    );
    expect(skipped).toBe(1);
    expect(rows[0]).toMatchObject({ currentPrice: '1', lastUpdated: now, image: 'generic.png' });
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, caps at 6 hours, ignores garbage', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:30 GMT', now)).toBe(90);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('999999', now)).toBe(6 * 3600);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('marketsRequest', () => {
  it('uses the demo header for the public API and the pro header for pro-api', () => {
    expect(marketsRequest('https://api.coingecko.com/api/v3', 'k').headers['x-cg-demo-api-key']).toBe('k');
    expect(marketsRequest('https://pro-api.coingecko.com/api/v3', 'k').headers['x-cg-pro-api-key']).toBe('k');
    expect(Object.keys(marketsRequest('https://api.coingecko.com/api/v3', undefined).headers).some((h) => h.startsWith('x-cg'))).toBe(false);
  });
});

describe('etagMatches', () => {
  it('matches strong, weak, listed and * tags only', () => {
    expect(etagMatches('"abc"', '"abc"')).toBe(true);
    expect(etagMatches('W/"abc"', '"abc"')).toBe(true);
    expect(etagMatches('"x", "abc"', '"abc"')).toBe(true);
    expect(etagMatches('*', '"abc"')).toBe(true);
    expect(etagMatches('"abcd"', '"abc"')).toBe(false);
    expect(etagMatches(undefined, '"abc"')).toBe(false);
  });
});
