// Price history (issue 13): ranges, downsampling with age, offline history from the snapshot, backfill from the
// provider on first demand (including 429), manual prices of custom tokens, ETag; and the lean market list.
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { AppStateKeys, AppStateRepository } from '../../src/modules/market/app-state.repository';
import { CoinsRepository } from '../../src/modules/market/coins.repository';
import { snapshotPath } from '../../src/modules/market/market-snapshot';
import { PriceHistoryRepository } from '../../src/modules/market/price-history.repository';
import { PriceHistoryService } from '../../src/modules/market/price-history.service';
import { DATABASE_KINDS } from '../support/databases';
import { startTestApp, type TestApp } from '../support/test-app';
import { type FakeCoinGecko, type FakeReply, startFakeCoinGecko } from './market-support/fake-coingecko';

const snapshot = JSON.parse(readFileSync(snapshotPath(), 'utf8')) as {
  as_of: string;
  coins: Array<{ id: string; current_price: number; sparkline_in_7d: { price: number[] } }>;
};
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
type History = { coinId: string; range: string; points: Array<[number, number]> };

describe.each(DATABASE_KINDS)('price history on %s', (kind) => {
  let t: TestApp;
  const history = async (coinId: string, range?: string) =>
    (await t.http.get(`/api/crypto/price-history/${coinId}${range ? `?range=${range}` : ''}`).expect(200)).body as History;

  beforeAll(async () => {
    // The provider is unreachable (COINGECKO_BASE_URL points at a closed port): the offline machine.
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('offline: draws the snapshot coins from the committed 7-day hourly history, ending at the snapshot time', async () => {
    const bitcoin = snapshot.coins[0];
    const week = await history('bitcoin', '7d');
    expect(week.coinId).toBe('bitcoin');
    expect(week.range).toBe('7d');
    expect(week.points).toHaveLength(168);
    const asOf = Date.parse(snapshot.as_of);
    expect(week.points.at(-1)).toEqual([asOf, bitcoin.current_price]);
    expect(week.points[0][0]).toBe(asOf - 167 * HOUR);
    expect(week.points.slice(0, -1).map((p) => p[1])).toEqual(bitcoin.sparkline_in_7d.price.slice(0, -1));
    const day = await history('bitcoin', '1d');
    expect(day.points.length).toBeGreaterThanOrEqual(24);
    expect(day.points.length).toBeLessThanOrEqual(25);
    expect(day.points[0][0]).toBeGreaterThanOrEqual(asOf - DAY);
    // The default range is 7d.
    expect((await history('bitcoin')).points).toEqual(week.points);
  });

  it('offline: longer ranges draw the same committed week (nothing older is stored), so the chart can say where it starts', async () => {
    const status = (await t.http.get('/api/crypto/market-status').expect(200)).body as { source: string };
    expect(status.source).toBe('snapshot');
    const asOf = Date.parse(snapshot.as_of);
    const week = await history('solana', '7d');
    const month = await history('solana', '30d');
    // Hourly as the week, the same points.
    expect(month.points).toEqual(week.points);
    for (const range of ['1y', 'all']) {
      const long = await history('solana', range);
      // Daily: one point per day the week touches, the first within its first day, the last at the snapshot time.
      expect(long.points.length).toBeGreaterThanOrEqual(7);
      expect(long.points.length).toBeLessThanOrEqual(9);
      expect(long.points[0][0]).toBeGreaterThanOrEqual(asOf - 167 * HOUR);
      expect(long.points[0][0]).toBeLessThan(asOf - 167 * HOUR + DAY);
      expect(long.points.at(-1)![0]).toBe(asOf);
    }
  });

  it('refuses unknown coins and ranges with a message', async () => {
    const missing = await t.http.get('/api/crypto/price-history/no-such-coin?range=7d').expect(404);
    expect(missing.body).toEqual({ statusCode: 404, error: 'Coin not found.' });
    const badRange = await t.http.get('/api/crypto/price-history/bitcoin?range=2w').expect(400);
    expect(badRange.body.error).toBe('Range must be one of 1d, 7d, 30d, 1y or all.');
  });

  it('answers with an ETag and 304 for a copy the client already holds', async () => {
    const first = await t.http.get('/api/crypto/price-history/ethereum?range=7d').expect(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    const again = await t.http.get('/api/crypto/price-history/ethereum?range=7d').set('If-None-Match', etag).expect(304);
    expect(again.text).toBe('');
    const otherRange = await t.http.get('/api/crypto/price-history/ethereum?range=1d').set('If-None-Match', etag).expect(200);
    expect(otherRange.headers.etag).not.toBe(etag);
  });

  it('thins stored points with age: 5-minute for a day, hourly for a month, daily beyond; ranges cut by time', async () => {
    const repository = t.app.get(PriceHistoryRepository);
    const now = new Date();
    const base = Math.floor(now.getTime() / DAY) * DAY;
    const points: Array<[number, number]> = [];
    // Every minute over the last two hours, every 10 minutes on day 2–3, every 30 minutes on days 32–34.
    for (let at = now.getTime() - 2 * HOUR; at < now.getTime(); at += MINUTE) points.push([at, 100 + points.length]);
    for (let at = base - 3 * DAY; at < base - 2 * DAY; at += 10 * MINUTE) points.push([at, 200]);
    for (let at = base - 34 * DAY; at < base - 32 * DAY; at += 30 * MINUTE) points.push([at, 300]);
    await repository.insertMany('cardano', points);
    const before = (await repository.list('cardano', new Date(now.getTime() - 40 * DAY))).length;
    expect(before).toBe(120 + 144 + 96);
    const removed = await repository.compact(now);
    const after = await repository.list('cardano', new Date(now.getTime() - 40 * DAY));
    expect(removed).toBe(before - after.length);
    const count = (from: number, to: number) => after.filter((p) => p.at.getTime() >= from && p.at.getTime() < to).length;
    expect(count(now.getTime() - 2 * HOUR, now.getTime())).toBeGreaterThanOrEqual(24);
    expect(count(now.getTime() - 2 * HOUR, now.getTime())).toBeLessThanOrEqual(25);
    expect(count(base - 3 * DAY, base - 2 * DAY)).toBe(24);
    expect(count(base - 34 * DAY, base - 32 * DAY)).toBe(2);
    // The newest point of each bucket stays: the last minute's price survives.
    expect(Number(after.at(-1)!.price)).toBe(points[119][1]);
    // Compacting again changes nothing.
    expect(await repository.compact(now)).toBe(0);

    t.app.get(PriceHistoryService).invalidate();
    const day = await history('cardano', '1d');
    expect(day.points.every(([at]) => at >= now.getTime() - DAY - MINUTE)).toBe(true);
    expect(day.points.length).toBeGreaterThanOrEqual(24);
    const month = await history('cardano', '30d');
    expect(month.points.some(([, price]) => price === 200)).toBe(true);
    expect(month.points.some(([, price]) => price === 300)).toBe(false);
    const year = await history('cardano', '1y');
    expect(year.points.filter(([, price]) => price === 300)).toHaveLength(2);
    // Daily spacing on the year: never two points in one day.
    const days = year.points.map(([at]) => Math.floor(at / DAY));
    expect(new Set(days).size).toBe(days.length);
  });

  it('custom tokens draw their manual price changes, the last one holding until now', async () => {
    const coins = t.app.get(CoinsRepository);
    const db = t.app.get<Database>(DATABASE);
    const threeDaysAgo = new Date(Date.now() - 3 * DAY);
    const anHourAgo = new Date(Date.now() - HOUR);
    await db.transaction(async (tx) => {
      await coins.insertManual({ id: 'house-coin', symbol: 'hse', name: 'House Coin', image: 'generic.png', currentPrice: '2', lastUpdated: threeDaysAgo }, tx);
    });
    await db.transaction(async (tx) => coins.updateManual('house-coin', { currentPrice: '3.5', lastUpdated: anHourAgo }, tx));
    const week = await history('house-coin', '7d');
    expect(week.points.map((p) => p[1])).toEqual([2, 3.5, 3.5]);
    expect(week.points[0][0]).toBe(threeDaysAgo.getTime());
    expect(week.points[1][0]).toBe(anHourAgo.getTime());
    expect(week.points[2][0]).toBeGreaterThan(anHourAgo.getTime());
    const day = await history('house-coin', '1d');
    // The price in force when the day began, then the change.
    expect(day.points.map((p) => p[1])).toEqual([2, 3.5, 3.5]);
    expect(day.points[0][0]).toBeGreaterThan(threeDaysAgo.getTime());
  });

  it('get-crypto is lean: spec fields plus market data, no sparklines, 100 coins under 40 KB; limit keeps the first', async () => {
    const response = await t.http.get('/api/crypto/get-crypto').set('Accept-Encoding', 'identity').expect(200);
    const coins = response.body as Array<Record<string, unknown>>;
    expect(coins).toHaveLength(100);
    expect(Number(response.headers['content-length'])).toBeLessThan(40 * 1024);
    expect(Object.keys(coins[0]).sort()).toEqual(
      [
        'current_price',
        'high_24h',
        'id',
        'image',
        'last_updated',
        'low_24h',
        'manual_price',
        'market_cap',
        'market_cap_rank',
        'name',
        'price_change_percentage_24h',
        'symbol',
      ].sort(),
    );
    const top = await t.http.get('/api/crypto/get-crypto?limit=8').expect(200);
    expect(top.body).toEqual(coins.slice(0, 8));
    expect(top.headers.etag).not.toBe(response.headers.etag);
    await t.http
      .get('/api/crypto/get-crypto?limit=8')
      .set('If-None-Match', top.headers.etag as string)
      .expect(304);
    const bad = await t.http.get('/api/crypto/get-crypto?limit=ten').expect(400);
    expect(bad.body.error).toBe('Limit must be a whole number from 1 to 1000.');
  });
});

describe.each(DATABASE_KINDS)('price history backfill from the provider on %s', (kind) => {
  let fake: FakeCoinGecko;
  let t: TestApp;
  const chart = new Map<string, (request: IncomingMessage) => FakeReply>();

  beforeAll(async () => {
    fake = await startFakeCoinGecko((request) => {
      const match = /\/coins\/([^/]+)\/market_chart\?vs_currency=usd&days=(\w+)$/.exec(request.url ?? '');
      const handler = match && chart.get(`${match[1]}|${match[2]}`);
      return handler ? handler(request) : { status: 404, body: { error: 'coin not found' } };
    });
    t = await startTestApp(kind, { COINGECKO_BASE_URL: fake.url, COINGECKO_API_KEY: 'demo-key-123' });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('fetches market_chart once on first demand, stores it, and serves it from then on', async () => {
    const now = Date.now();
    const hourly = Array.from({ length: 720 }, (_, i) => [now - (720 - i) * HOUR, 60000 + i]);
    chart.set('bitcoin|30', () => ({
      status: 200,
      body: { prices: [...hourly, [now, 'bad'], ['x', 1], [now - HOUR / 2, -5]], market_caps: [], total_volumes: [] },
    }));
    const month = (await t.http.get('/api/crypto/price-history/bitcoin?range=30d').expect(200)).body as History;
    const calls = fake.requests.filter((r) => r.path.includes('/market_chart'));
    expect(calls).toHaveLength(1);
    expect(calls[0].path).toBe('/api/v3/coins/bitcoin/market_chart?vs_currency=usd&days=30');
    expect(calls[0].headers['x-cg-demo-api-key']).toBe('demo-key-123');
    // The provider's hourly points (the malformed ones left out), the range ending at the newest of them.
    expect(month.points.length).toBeGreaterThanOrEqual(719);
    expect(month.points.at(-1)).toEqual([hourly.at(-1)![0], hourly.at(-1)![1]]);
    expect(month.points.every(([, price]) => price > 0)).toBe(true);
    expect(month.points.some(([, price]) => price === 60000 + 100)).toBe(true);

    t.app.get(PriceHistoryService).invalidate();
    await t.http.get('/api/crypto/price-history/bitcoin?range=30d').expect(200);
    expect(fake.requests.filter((r) => r.path.includes('/market_chart'))).toHaveLength(1);
  });

  it('a 429 keeps the offline history, backs off every provider call (Retry-After), and is not retried early', async () => {
    chart.set('ethereum|365', () => ({ status: 429, headers: { 'retry-after': '120' }, body: { error: 'rate limited' } }));
    chart.set('solana|7', () => ({ status: 200, body: { prices: [[Date.now() - HOUR, 150]] } }));
    const before = fake.requests.length;
    const year = (await t.http.get('/api/crypto/price-history/ethereum?range=1y').expect(200)).body as History;
    const ethereum = snapshot.coins.find((c) => c.id === 'ethereum')!;
    // The committed offline week is still drawn.
    expect(year.points.at(-1)).toEqual([Date.parse(snapshot.as_of), ethereum.current_price]);
    expect(year.points.length).toBeGreaterThan(1);
    expect(fake.requests.slice(before).map((r) => r.path)).toEqual(['/api/v3/coins/ethereum/market_chart?vs_currency=usd&days=365']);
    const state = await t.app.get(AppStateRepository).get<{ backoffUntil: string }>(AppStateKeys.marketRefresh);
    expect(Date.parse(state!.backoffUntil)).toBeGreaterThan(Date.now() + 100_000);
    const status = await t.http.get('/api/crypto/market-status').expect(200);
    expect(status.body.lastError).toBe('The price provider answered HTTP 429.');
    // During the back-off: no call at all, for this or any other coin.
    t.app.get(PriceHistoryService).invalidate();
    await t.http.get('/api/crypto/price-history/ethereum?range=1y').expect(200);
    await t.http.get('/api/crypto/price-history/solana?range=7d').expect(200);
    expect(fake.requests.length).toBe(before + 1);
    // Once it is over, the next demand fetches.
    await t.app.get(AppStateRepository).set(AppStateKeys.marketRefresh, {});
    t.app.get(PriceHistoryService).invalidate();
    const week = (await t.http.get('/api/crypto/price-history/solana?range=7d').expect(200)).body as History;
    expect(fake.requests.slice(before + 1).map((r) => r.path)).toEqual(['/api/v3/coins/solana/market_chart?vs_currency=usd&days=7']);
    expect(week.points.some(([, price]) => price === 150)).toBe(true);
  });
});
