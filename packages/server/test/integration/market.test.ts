import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppStateKeys, AppStateRepository } from '../../src/modules/market/app-state.repository';
import { CoinsRepository } from '../../src/modules/market/coins.repository';
import { MarketRefreshService } from '../../src/modules/market/market-refresh.service';
import { PriceHistoryRepository } from '../../src/modules/market/price-history.repository';
import { snapshotPath } from '../../src/modules/market/market-snapshot';
import { DATABASE_KINDS } from '../support/databases';
import { bearer, loginAdmin, signUp, startTestApp, type TestApp } from '../support/test-app';
import { type FakeCoinGecko, providerCoin, startFakeCoinGecko } from './market-support/fake-coingecko';

const snapshot = JSON.parse(readFileSync(snapshotPath(), 'utf8')) as { as_of: string; coins: Array<{ id: string; current_price: number; image: string }> };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function healthyMarket() {
  return [
    providerCoin('bitcoin', 'btc', 64000.5, 1, { sparkline_in_7d: { price: [61000, 62000.5, 63500.25, 64000.5] } }),
    providerCoin('ethereum', 'eth', 3100.25, 2),
    providerCoin('tether', 'usdt', 1.0001, 3),
    providerCoin('solana', 'sol', 150.5, 4),
  ];
}

describe.each(DATABASE_KINDS)('market data on %s', (kind) => {
  let fake: FakeCoinGecko;
  let t: TestApp;
  let refresher: MarketRefreshService;
  const resetRefreshState = () => t.app.get(AppStateRepository).set(AppStateKeys.marketRefresh, {});

  beforeAll(async () => {
    fake = await startFakeCoinGecko(() => ({ status: 503, body: { error: 'down' } }));
    t = await startTestApp(kind, { COINGECKO_BASE_URL: fake.url, COINGECKO_API_KEY: 'demo-key-123' });
    refresher = t.app.get(MarketRefreshService);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });
  afterEach(() => {
    fake.requests.length = 0;
  });

  it('serves the committed snapshot on a fresh database, complete and by market cap', async () => {
    const response = await t.http.get('/api/crypto/get-crypto').expect(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const coins = response.body as Array<Record<string, unknown>>;
    expect(coins).toHaveLength(100);
    expect(coins.map((c) => c.id)).toEqual(snapshot.coins.map((c) => c.id));
    expect(coins.map((c) => c.market_cap_rank)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    const bitcoin = coins[0];
    expect(Object.keys(bitcoin).sort()).toEqual(
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
    expect(bitcoin).toMatchObject({ id: 'bitcoin', symbol: 'btc', name: 'Bitcoin', image: 'btc.png', manual_price: false, last_updated: snapshot.as_of });
    expect(typeof bitcoin.current_price).toBe('number');
    expect(bitcoin.current_price).toBe(snapshot.coins[0].current_price);
    expect(typeof bitcoin.low_24h).toBe('number');
    // Sparklines are stored (the offline chart history) but no longer sent with the list.
    for (const stored of await t.app.get(CoinsRepository).listByMarketCap()) expect(stored.sparkline7d).toHaveLength(168);
    for (const coin of coins) expect(coin.current_price as number).toBeGreaterThan(0);
    // Every snapshot icon is served locally.
    for (const image of new Set(coins.map((c) => c.image as string))) {
      const icon = await t.http.get(`/images/${image}`).expect(200);
      expect(icon.headers['content-type']).toBe('image/png');
    }
  });

  it('creates the default supported tokens without addresses; wallet tokens are for customers only', async () => {
    const user = await signUp(t.http);
    const admin = await loginAdmin(t.http);
    await t.http.get('/api/crypto/get-wallet-tokens').expect(401);
    await t.http.get('/api/crypto/get-wallet-tokens').set(bearer(admin.token)).expect(403);
    const response = await t.http.get('/api/crypto/get-wallet-tokens').set(bearer(user.token)).expect(200);
    expect(response.body.map((token: { id: string }) => token.id)).toEqual(['bitcoin', 'ethereum', 'tether']);
    for (const token of response.body) {
      expect(token.address).toBeNull();
      expect(typeof token.current_price).toBe('number');
      expect(token).not.toHaveProperty('sparkline_in_7d');
      expect(token).toHaveProperty('price_change_percentage_24h');
    }
  });

  it('keeps serving the snapshot when the provider is unreachable, and says so', async () => {
    await resetRefreshState();
    fake.reply = () => ({ status: 503 });
    // A port nothing listens on (opened, then closed).
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const app = await startTestApp(kind, { COINGECKO_BASE_URL: `http://127.0.0.1:${closedPort}/api/v3` });
    try {
      const outcome = await app.app.get(MarketRefreshService).refresh({ force: true });
      expect(outcome.status).toBe('failed');
      expect(outcome).toMatchObject({ error: 'The price provider could not be reached (ECONNREFUSED).' });
      const list = await app.http.get('/api/crypto/get-crypto').expect(200);
      expect(list.body).toHaveLength(100);
      const status = await app.http.get('/api/crypto/market-status').expect(200);
      expect(status.body).toMatchObject({
        source: 'snapshot',
        asOf: snapshot.as_of,
        coins: 100,
        lastSuccessAt: null,
        refreshEnabled: false,
        stale: true,
        staleRefused: false,
      });
      expect(status.body.lastError).toMatch(/could not be reached/);
      expect(Date.parse(status.body.backoffUntil)).toBeGreaterThan(Date.now());
    } finally {
      await app.close();
    }
  });

  it('refreshes from the provider: stores prices and sparklines, skips malformed rows, sends the API key', async () => {
    await resetRefreshState();
    const before = await t.http.get('/api/crypto/get-crypto').expect(200);
    fake.reply = () => ({
      status: 200,
      body: [
        ...healthyMarket(),
        providerCoin('bad-nan', 'nan', 1, 5, { current_price: 'NaN' }),
        providerCoin('bad-negative', 'neg', -5, 6),
        providerCoin('bad-zero', 'zero', 0, 7),
        providerCoin('bad-null', 'null', 1, 8, { current_price: null }),
        providerCoin('bad-huge', 'huge', 1e25, 9),
        { symbol: 'noid', name: 'No id', current_price: 1 },
        providerCoin('bitcoin', 'btc', 1, 10), // duplicate id: the first row wins
        providerCoin('bad-name', 'x', 1, 11, { name: '' }),
        'not an object',
        null,
        providerCoin('weird-fields', 'wf', 2.5, 12, {
          image: 'javascript:alert(1)',
          market_cap_rank: -3,
          low_24h: 'abc',
          price_change_percentage_24h: Infinity,
          sparkline_in_7d: { price: [1, 'x', -2, null, 2.5] },
        }),
      ],
    });
    const outcome = await refresher.refresh({ force: true });
    expect(outcome).toEqual({ status: 'refreshed', stored: 5, skipped: 10 });
    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0];
    expect(request.path).toBe('/api/v3/coins/markets?vs_currency=usd&order=market_cap_desc&per_page=250&page=1&sparkline=true&price_change_percentage=24h');
    expect(request.headers['x-cg-demo-api-key']).toBe('demo-key-123');

    const response = await t.http.get('/api/crypto/get-crypto').expect(200);
    expect(response.headers.etag).not.toBe(before.headers.etag);
    const coins = response.body as Array<Record<string, any>>;
    // Live now: the snapshot-only coins leave the list.
    expect(coins.map((c) => c.id)).toEqual(['bitcoin', 'ethereum', 'tether', 'solana', 'weird-fields']);
    expect(coins[0]).toMatchObject({
      current_price: 64000.5,
      market_cap_rank: 1,
      image: 'https://coin-images.coingecko.com/coins/images/1/large/bitcoin.png',
      manual_price: false,
    });
    const stored = t.app.get(CoinsRepository);
    expect((await stored.findById('bitcoin'))!.sparkline7d).toEqual([61000, 62000.5, 63500.25, 64000.5]);
    expect(coins[4]).toMatchObject({ image: 'generic.png', market_cap_rank: null, low_24h: null, price_change_percentage_24h: null });
    expect((await stored.findById('weird-fields'))!.sparkline7d).toEqual([1, 2.5]);
    // Each refreshed price is appended to the coin's price history.
    const history = await t.app.get(PriceHistoryRepository).list('bitcoin', null);
    expect(history.map((p) => [p.at.toISOString(), Number(p.price)]).at(-1)).toEqual([coins[0].last_updated, 64000.5]);

    const status = await t.http.get('/api/crypto/market-status').expect(200);
    expect(status.body).toMatchObject({ source: 'live', coins: 5, lastError: null, backoffUntil: null, stale: false });
    expect(Date.parse(status.body.lastSuccessAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('answers 304 to a matching If-None-Match, and gzip when asked', async () => {
    const first = await t.http.get('/api/crypto/get-crypto').expect(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    const notModified = await t.http.get('/api/crypto/get-crypto').set('If-None-Match', etag).expect(304);
    expect(notModified.text ?? '').toBe('');
    expect(notModified.headers.etag).toBe(etag);
    await t.http.get('/api/crypto/get-crypto').set('If-None-Match', `"other", W/${etag}`).expect(304);
    await t.http.get('/api/crypto/get-crypto').set('If-None-Match', '"something-else"').expect(200);

    const zipped = await t.http
      .get('/api/crypto/get-crypto')
      .set('Accept-Encoding', 'gzip')
      .buffer(true)
      .parse((res, callback) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => callback(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    // supertest may already have inflated it; either way the JSON is the same list.
    const raw = zipped.body as Buffer;
    const text = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw).toString() : raw.toString();
    expect(JSON.parse(text)).toEqual(first.body);
  });

  it('answers the plain list through Fastify and the app hooks exactly as the controller does (headers, 304, HEAD, request id, metrics)', async () => {
    // `?limit=1000` (more than the list holds) goes on to Nest and MarketController; the plain path is answered by
    // its route's own hook once the list is built (market-list.route.ts), after the app-wide hooks.
    const viaController = await t.http.get('/api/crypto/get-crypto?limit=1000').expect(200);
    const metricsBefore = (await t.http.get('/api/metrics').expect(200)).text;
    const plain = await t.http.get('/api/crypto/get-crypto').set('X-Request-Id', 'market-list-check-1').expect(200);
    expect(plain.body).toEqual(viaController.body);
    expect(plain.headers['x-request-id']).toBe('market-list-check-1');
    const varying = new Set(['date', 'x-request-id']);
    const headers = (response: { headers: Record<string, string> }) => Object.entries(response.headers).filter(([name]) => !varying.has(name));
    expect(headers(plain).sort()).toEqual(headers(viaController).sort());
    // A JSON answer's security headers (common/security-headers.ts), not the client pages' CSP.
    expect(plain.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(plain.headers['x-content-type-options']).toBe('nosniff');
    expect(plain.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(plain.headers['strict-transport-security']).toContain('max-age=');
    expect(plain.headers).not.toHaveProperty('origin-agent-cluster');
    // Fastify's router matched it (case-insensitive, trailing slash allowed, as every route) and the request id hook
    // gave it a fresh id.
    const routed = await t.http.get('/API/Crypto/get-crypto/').expect(200);
    expect(routed.body).toEqual(plain.body);
    expect(routed.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);

    const notModified = await t.http
      .get('/api/crypto/get-crypto')
      .set('If-None-Match', plain.headers.etag as string)
      .expect(304);
    expect(notModified.text ?? '').toBe('');
    // A 304 has the request id and no security headers, from the route's hook as from the controller.
    expect(notModified.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(notModified.headers).not.toHaveProperty('content-security-policy');
    const notModifiedViaController = await t.http
      .get('/api/crypto/get-crypto?limit=1000')
      .set('If-None-Match', viaController.headers.etag as string)
      .expect(304);
    expect(headers(notModified).sort()).toEqual(headers(notModifiedViaController).sort());
    const head = await t.http.head('/api/crypto/get-crypto').set('Accept-Encoding', 'gzip').expect(200);
    expect(plain.headers['content-encoding']).toBe('gzip'); // supertest asks for gzip
    expect(head.headers['content-length']).toBe(plain.headers['content-length']);
    expect(head.text ?? '').toBe('');

    const count = (text: string, status: string) =>
      Number(
        new RegExp(`^http_request_duration_seconds_count\\{method="GET",route="/api/crypto/get-crypto",status="${status}"\\} (\\d+)$`, 'm').exec(text)?.[1] ??
          0,
      );
    const metricsAfter = (await t.http.get('/api/metrics').expect(200)).text;
    expect(count(metricsAfter, '200')).toBe(count(metricsBefore, '200') + 2);
    expect(count(metricsAfter, '304')).toBe(count(metricsBefore, '304') + 2);
  });

  it('keeps manual (custom token) prices through a refresh', async () => {
    await resetRefreshState();
    const admin = await loginAdmin(t.http);
    await t.http
      .post('/api/crypto/custom-token/')
      .set(bearer(admin.token))
      .field('coinId', 'house-coin')
      .field('symbol', 'HOU')
      .field('name', 'House Coin')
      .field('current_price', '1.25')
      .field('address', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')
      .then((r) => expect(r.status, JSON.stringify(r.body)).toBe(201));
    fake.reply = () => ({ status: 200, body: [...healthyMarket(), providerCoin('house-coin', 'hou', 999, 5)] });
    expect((await refresher.refresh({ force: true })).status).toBe('refreshed');
    const coins = (await t.http.get('/api/crypto/get-crypto').expect(200)).body as Array<Record<string, unknown>>;
    const house = coins.find((c) => c.id === 'house-coin');
    expect(house).toMatchObject({ current_price: 1.25, manual_price: true, name: 'House Coin', symbol: 'hou' });
    expect(coins.filter((c) => c.id === 'house-coin')).toHaveLength(1);
  });

  it('prices supported tokens outside the top 250 with a second call by id', async () => {
    await resetRefreshState();
    const admin = await loginAdmin(t.http);
    // chainlink is in the snapshot (so it can be supported) but not in the provider's first page.
    await t.http
      .post('/api/crypto/add-token/')
      .set(bearer(admin.token))
      .send({ name: 'chainlink', address: '0x514910771AF9Ca656af840dff83E8264EcF986CA', network: 'ethereum' })
      .expect(201);
    fake.reply = (request) =>
      request.url?.includes('&ids=')
        ? { status: 200, body: [providerCoin('chainlink', 'link', 14.25, 312), providerCoin('not-asked', 'na', 1, 400)] }
        : { status: 200, body: healthyMarket() };
    expect(await refresher.refresh({ force: true })).toEqual({ status: 'refreshed', stored: 5, skipped: 0 });
    expect(fake.requests.map((r) => r.path.split('&ids=')[1] ?? null)).toEqual([null, 'chainlink']);
    const coins = (await t.http.get('/api/crypto/get-crypto').expect(200)).body as Array<Record<string, unknown>>;
    expect(coins.find((c) => c.id === 'chainlink')).toMatchObject({ current_price: 14.25, market_cap_rank: 312 });
    expect(coins.some((c) => c.id === 'not-asked')).toBe(false);
    const user = await signUp(t.http);
    const wallet = (await t.http.get('/api/crypto/get-wallet-tokens').set(bearer(user.token)).expect(200)).body as Array<Record<string, unknown>>;
    expect(wallet.find((w) => w.id === 'chainlink')).toMatchObject({ current_price: 14.25, address: '0x514910771AF9Ca656af840dff83E8264EcF986CA' });

    // The second call failing is not a refresh failure: the first page is stored, chainlink keeps its last price.
    fake.requests.length = 0;
    fake.reply = (request) => (request.url?.includes('&ids=') ? { status: 500 } : { status: 200, body: healthyMarket() });
    expect((await refresher.refresh({ force: true })).status).toBe('refreshed');
    expect(fake.requests).toHaveLength(2);
    expect((await refresher.state()).failures).toBe(0);
  });

  it('backs off on 429: no provider call before the back-off ends, honouring a long Retry-After', async () => {
    await resetRefreshState();
    fake.reply = () => ({ status: 429, headers: { 'retry-after': '600' }, body: { status: { error_code: 429 } } });
    const started = Date.now();
    const outcome = await refresher.refresh({ force: true });
    expect(outcome.status).toBe('failed');
    const until = Date.parse((outcome as { backoffUntil: string }).backoffUntil);
    expect(until).toBeGreaterThanOrEqual(started + 600_000);
    expect(until).toBeLessThan(Date.now() + 601_000);
    for (let i = 0; i < 5; i++) expect(await refresher.refresh({ force: true })).toMatchObject({ status: 'skipped', reason: 'backoff' });
    expect(fake.requests).toHaveLength(1);
    const status = await t.http.get('/api/crypto/market-status').expect(200);
    expect(status.body.lastError).toMatch(/HTTP 429/);
    expect(Date.parse(status.body.backoffUntil)).toBe(until);
    // Prices stay as they were (live from the previous refresh).
    expect(status.body.source).toBe('live');
  });

  it('backs off exponentially on 5xx without Retry-After', async () => {
    await resetRefreshState();
    fake.reply = () => ({ status: 502 });
    const delays: number[] = [];
    for (let i = 0; i < 3; i++) {
      const at = Date.now();
      const outcome = await refresher.refresh({ force: true });
      expect(outcome.status).toBe('failed');
      delays.push(Math.round((Date.parse((outcome as { backoffUntil: string }).backoffUntil) - at) / 1000));
      // Let the back-off lapse without waiting: keep the failure count, clear the time.
      const state = (await t.app.get(AppStateRepository).get<Record<string, unknown>>(AppStateKeys.marketRefresh)) ?? {};
      await t.app.get(AppStateRepository).set(AppStateKeys.marketRefresh, { ...state, backoffUntil: null });
    }
    // MARKET_REFRESH_SECONDS defaults to 60: 2, 4 and 8 intervals.
    expect(delays).toEqual([120, 240, 480]);
    expect(fake.requests).toHaveLength(3);
    fake.reply = () => ({ status: 200, body: healthyMarket() });
    expect((await refresher.refresh({ force: true })).status).toBe('refreshed');
    const state = await refresher.state();
    expect(state).toMatchObject({ failures: 0, backoffUntil: null, lastError: null });
  });

  it('refuses a 200 answer that is not a market list, keeping the current prices', async () => {
    await resetRefreshState();
    const before = (await t.http.get('/api/crypto/get-crypto').expect(200)).body;
    for (const body of ['{"status":"ok"}', 'not json', '[]', '[{"id":"x"}]']) {
      fake.reply = () => ({ status: 200, body });
      await t.app.get(AppStateRepository).set(AppStateKeys.marketRefresh, {});
      const outcome = await refresher.refresh({ force: true });
      expect(outcome.status, body).toBe('failed');
    }
    expect((await t.http.get('/api/crypto/get-crypto').expect(200)).body).toEqual(before);
  });

  it('runs on schedule, waits out Retry-After, then refreshes', async () => {
    const scheduledFake = await startFakeCoinGecko();
    let calls = 0;
    scheduledFake.reply = () => (++calls === 1 ? { status: 429, headers: { 'retry-after': '3' } } : { status: 200, body: healthyMarket() });
    const app = await startTestApp(kind, { COINGECKO_BASE_URL: scheduledFake.url, MARKET_REFRESH_SECONDS: '1' });
    try {
      const deadline = Date.now() + 8000;
      while (scheduledFake.requests.length < 2 && Date.now() < deadline) await sleep(100);
      await sleep(1500);
      const hits = scheduledFake.requests.map((r) => r.at);
      expect(hits.length).toBeGreaterThanOrEqual(2);
      // The first call right after boot got 429 + Retry-After: 3; nothing before those 3 seconds passed.
      expect(hits[1] - hits[0]).toBeGreaterThanOrEqual(2900);
      const status = await app.http.get('/api/crypto/market-status').expect(200);
      expect(status.body).toMatchObject({ source: 'live', refreshEnabled: true, refreshSeconds: 1 });
      // After success it runs about once a second again.
      expect(hits.length).toBeLessThanOrEqual(4);
    } finally {
      await app.close();
      await scheduledFake.close();
    }
  });
});

describe.runIf(DATABASE_KINDS.includes('postgres'))('market refresh with two instances on one PostgreSQL database', () => {
  let fake: FakeCoinGecko;
  beforeAll(async () => {
    fake = await startFakeCoinGecko(() => ({ status: 200, body: healthyMarket() }));
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('refreshes once when both instances try at the same time', async () => {
    const first = await startTestApp('postgres', { COINGECKO_BASE_URL: fake.url });
    const second = await startTestApp('pglite', { COINGECKO_BASE_URL: fake.url, DATABASE_URL: first.config.databaseUrl! });
    try {
      expect(second.config.databaseUrl).toBe(first.config.databaseUrl);
      for (let round = 0; round < 5; round++) {
        fake.requests.length = 0;
        await first.app.get(AppStateRepository).set(AppStateKeys.marketRefresh, {});
        const outcomes = await Promise.all([first.app.get(MarketRefreshService).refresh(), second.app.get(MarketRefreshService).refresh()]);
        expect(outcomes.filter((o) => o.status === 'refreshed')).toHaveLength(1);
        expect(outcomes.filter((o) => o.status === 'skipped')).toHaveLength(1);
        expect(fake.requests).toHaveLength(1);
      }
      // Both serve the new prices (the other instance's cache notices the change).
      for (const app of [first, second]) {
        const coins = (await app.http.get('/api/crypto/get-crypto').expect(200)).body;
        expect(coins[0]).toMatchObject({ id: 'bitcoin', current_price: 64000.5 });
      }
    } finally {
      await second.close();
      await first.close();
    }
  });

  it('with both scheduled every 2 s, the provider is called about once per interval, not twice', async () => {
    fake.requests.length = 0;
    const started = Date.now();
    const first = await startTestApp('postgres', { COINGECKO_BASE_URL: fake.url, MARKET_REFRESH_SECONDS: '2' });
    const second = await startTestApp('pglite', { COINGECKO_BASE_URL: fake.url, DATABASE_URL: first.config.databaseUrl!, MARKET_REFRESH_SECONDS: '2' });
    try {
      await sleep(7000);
      const hits = fake.requests.map((r) => r.at).sort((a, b) => a - b);
      const elapsed = Date.now() - started;
      // Two uncoordinated instances would call ~2 × (elapsed / 2 s + 1) times.
      expect(hits.length).toBeGreaterThanOrEqual(3);
      expect(hits.length).toBeLessThanOrEqual(Math.floor(elapsed / 2000) + 1);
      for (let i = 1; i < hits.length; i++) expect(hits[i] - hits[i - 1]).toBeGreaterThanOrEqual(1500);
    } finally {
      await second.close();
      await first.close();
    }
  });

  it('another instance notices a change within about a second (cache version)', async () => {
    const first = await startTestApp('postgres', { COINGECKO_BASE_URL: fake.url });
    const second = await startTestApp('pglite', { COINGECKO_BASE_URL: fake.url, DATABASE_URL: first.config.databaseUrl! });
    try {
      const before = (await second.http.get('/api/crypto/get-crypto').expect(200)).headers.etag;
      fake.reply = () => ({ status: 200, body: healthyMarket().map((c) => ({ ...c, current_price: c.current_price * 2 })) });
      expect((await first.app.get(MarketRefreshService).refresh({ force: true })).status).toBe('refreshed');
      const deadline = Date.now() + 5000;
      let etag = before;
      while (etag === before && Date.now() < deadline) {
        await sleep(250);
        etag = (await second.http.get('/api/crypto/get-crypto').expect(200)).headers.etag;
      }
      expect(etag).not.toBe(before);
      const coins = (await second.http.get('/api/crypto/get-crypto').expect(200)).body;
      expect(coins[0].current_price).toBe(128001);
    } finally {
      fake.reply = () => ({ status: 200, body: healthyMarket() });
      await second.close();
      await first.close();
    }
  });
});
