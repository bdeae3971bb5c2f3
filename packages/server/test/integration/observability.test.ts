import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DestinationStream } from 'pino';
import { DATABASE_KINDS } from '../support/databases';
import { seedCoins } from '../support/market';
import { parseMetrics, rawSample, sample } from '../support/prometheus';
import { bearer, loginAdmin, signUp, startTestApp, type TestApp } from '../support/test-app';
import { PRICES, supportTokens } from '../support/wallet';

/** Collects every line the app logs (raw text and parsed). */
function captureLogs(): DestinationStream & { raw: string[]; lines: Array<Record<string, unknown>> } {
  const raw: string[] = [];
  const lines: Array<Record<string, unknown>> = [];
  return {
    raw,
    lines,
    write(line: string) {
      raw.push(line);
      lines.push(JSON.parse(line));
    },
  };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  if (!condition()) throw new Error(`Gave up waiting for ${what}`);
}

describe.each(DATABASE_KINDS)('request logs on %s', (kind) => {
  let t: TestApp;
  const logs = captureLogs();
  beforeAll(async () => {
    t = await startTestApp(kind, { LOG_FORMAT: 'json', LOG_LEVEL: 'info' }, { logDestination: logs });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('writes one line per request with its id, and the same id on lines logged while serving it', async () => {
    const user = await signUp(t.http);
    const requestId = `trace-${kind}-forgot`;
    await t.http.post('/api/user/forgot-password').set('X-Request-Id', requestId).send({ email: user.email }).expect(200);
    // A line logged while serving the request carries its id (the reset mail itself is written later by the outbox worker).
    await until(() => logs.lines.some((line) => line.requestId === requestId && line.context === 'PasswordReset'), 'the request line');

    const requestLines = logs.lines.filter((line) => line.requestId === requestId && 'status' in line);
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toMatchObject({
      level: 'info',
      method: 'POST',
      route: '/api/user/forgot-password',
      path: '/api/user/forgot-password',
      status: 200,
      userId: null,
    });
    expect(typeof requestLines[0].durationMs).toBe('number');
    const handlerLine = logs.lines.find((line) => line.context === 'PasswordReset' && line.requestId === requestId)!;
    expect(String(handlerLine.msg)).not.toContain(user.email);
    // The reset link (its token) never reaches the logs.
    expect(logs.raw.join('')).not.toContain('reset-password?token=');
  });

  it("writes one line in 1,000 for the cached market list, the rest at debug: its route hook's and its controller's answers alike", async () => {
    const from = logs.lines.length;
    // 1,000 answers in batches: the plain path (answered by its route's hook once the list is built) and `?limit=`
    // (on through Nest and MarketController) share one count.
    for (let batch = 0; batch < 20; batch++) {
      await Promise.all(Array.from({ length: 50 }, (_, i) => t.http.get(i % 2 ? '/api/crypto/get-crypto' : '/api/crypto/get-crypto?limit=5').expect(200)));
    }
    const lines = logs.lines.slice(from).filter((line) => line.route === '/api/crypto/get-crypto');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'info', status: 200, sampled: 1000, method: 'GET' });
    expect(typeof lines[0].requestId).toBe('string');
  });

  it('names the signed-in user on the request line', async () => {
    const user = await signUp(t.http);
    const response = await t.http.get('/api/user/get-user-balance').set(bearer(user.token)).expect(200);
    const id = response.headers['x-request-id'];
    await until(() => logs.lines.some((line) => line.requestId === id && 'status' in line), 'the request line');
    expect(logs.lines.find((line) => line.requestId === id && 'status' in line)).toMatchObject({ route: '/api/user/get-user-balance', userId: user._id });
  });

  it('logs a 5xx once with its real cause, without an invented error object on the request line', async () => {
    await seedCoins(t, { ...PRICES, bitcoin: '0' });
    await supportTokens(t, ['bitcoin', 'ethereum']);
    const user = await signUp(t.http);
    // No usable price: the service answers 503 (the exception filter logs why).
    const response = await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 10, from: 'bitcoin', to: 'ethereum' }).expect(503);
    const id = response.headers['x-request-id'];
    await until(() => logs.lines.some((line) => line.requestId === id && line.status === 503), 'the 503 line');
    const requestLine = logs.lines.find((line) => line.requestId === id && line.status === 503)!;
    expect(requestLine).toMatchObject({ route: '/api/crypto/swap', method: 'POST' });
    expect(requestLine).not.toHaveProperty('err');
    expect(logs.raw.join('')).not.toContain('failed with status code');
    await seedCoins(t, PRICES);
  });

  it('never logs a password, an authorization header or a session token', async () => {
    const password = 'Very-Secret-Login-Pw-9431';
    const user = await signUp(t.http, { password });
    const wrong = await t.http.post('/api/user/login-user').send({ email: user.email, password: 'Wrong-Secret-Pw-5512' }).expect(401);
    const login = await t.http.post('/api/user/login-user').send({ email: user.email, password }).expect(200);
    await t.http.get('/api/user/me').set(bearer(login.body.token)).expect(200);
    await until(() => logs.lines.some((line) => line.requestId === wrong.headers['x-request-id'] && line.status === 401), 'the 401 line');
    const all = logs.raw.join('');
    for (const secret of [password, 'Wrong-Secret-Pw-5512', login.body.token, user.token]) expect(all).not.toContain(secret);
  });
});

async function scrapeText(t: TestApp): Promise<string> {
  const response = await t.http.get('/api/metrics').expect(200);
  expect(response.headers['content-type']).toContain('text/plain');
  return response.text;
}

async function scrape(t: TestApp) {
  return parseMetrics(await scrapeText(t));
}

describe.each(DATABASE_KINDS)('metrics on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    // A low auth limit, to reach a 429.
    t = await startTestApp(kind, { AUTH_RATE_LIMIT_PER_MINUTE: '3' });
    await seedCoins(t, PRICES);
    await supportTokens(t, Object.keys(PRICES));
    admin = (await loginAdmin(t.http)).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves the Prometheus text format with the HTTP, runtime and business series', async () => {
    const families = await scrape(t);
    const names = families.map((family) => family.name);
    for (const name of [
      'http_request_duration_seconds',
      'nodejs_eventloop_lag_seconds',
      'coinpurse_live_event_streams',
      'coinpurse_price_age_seconds',
      'coinpurse_price_max_age_seconds',
      'coinpurse_price_refresh_total',
      'coinpurse_liabilities',
      'coinpurse_ledger_check_ok',
    ]) {
      expect(names).toContain(name);
    }
    if (kind === 'postgres') expect(names).toContain('coinpurse_db_pool_connections');
    expect(sample(families, 'coinpurse_ledger_check_ok')).toBe(1);
    expect(families.find((f) => f.name === 'http_request_duration_seconds')?.type).toBe('HISTOGRAM');
  });

  it('counts a swap, its idempotent replay and a 429', async () => {
    const user = await signUp(t.http);
    await t.http
      .post(`/api/admin/update-balance/${user._id}`)
      .set(bearer(admin))
      .send({ token: 'bitcoin', amount: '500', type: 'yes', msg: 'funding' })
      .expect(200);

    const beforeText = await scrapeText(t);
    const before = parseMetrics(beforeText);
    const swap = { amount: 100, from: 'bitcoin', to: 'ethereum' };
    await t.http.post('/api/crypto/swap').set(bearer(user.token)).set('Idempotency-Key', `swap-${kind}`).send(swap).expect(201);
    const afterSwapText = await scrapeText(t);
    const afterSwap = parseMetrics(afterSwapText);
    expect(sample(afterSwap, 'coinpurse_money_operations_total', { kind: 'swap', outcome: 'ok' })).toBe(
      sample(before, 'coinpurse_money_operations_total', { kind: 'swap', outcome: 'ok' }) + 1,
    );
    const swapRoute = { method: 'POST', route: '/api/crypto/swap', status: '201' };
    expect(rawSample(afterSwapText, 'http_request_duration_seconds_count', swapRoute)).toBe(
      rawSample(beforeText, 'http_request_duration_seconds_count', swapRoute) + 1,
    );

    await t.http.post('/api/crypto/swap').set(bearer(user.token)).set('Idempotency-Key', `swap-${kind}`).send(swap).expect(201);
    const afterReplay = await scrape(t);
    expect(sample(afterReplay, 'coinpurse_idempotent_replays_total', { route: '/api/crypto/swap' })).toBe(
      sample(afterSwap, 'coinpurse_idempotent_replays_total', { route: '/api/crypto/swap' }) + 1,
    );
    expect(sample(afterReplay, 'coinpurse_money_operations_total', { kind: 'swap', outcome: 'replayed' })).toBe(
      sample(afterSwap, 'coinpurse_money_operations_total', { kind: 'swap', outcome: 'replayed' }) + 1,
    );
    // The replay is not a second swap.
    expect(sample(afterReplay, 'coinpurse_money_operations_total', { kind: 'swap', outcome: 'ok' })).toBe(
      sample(afterSwap, 'coinpurse_money_operations_total', { kind: 'swap', outcome: 'ok' }),
    );

    const route = { route: '/api/user/login-user' };
    const limitedBefore = sample(afterReplay, 'coinpurse_rate_limited_requests_total', route);
    let status = 0;
    for (let attempt = 0; attempt < 10 && status !== 429; attempt++) {
      status = (await t.http.post('/api/user/login-user').send({ email: 'nobody@example.com', password: 'wrong-password' })).status;
    }
    expect(status).toBe(429);
    const afterLimit = await scrape(t);
    expect(sample(afterLimit, 'coinpurse_rate_limited_requests_total', route)).toBe(limitedBefore + 1);
  });

  it('never exports NaN or an unset histogram bound, even on scrapes a few milliseconds apart around a swap', async () => {
    const user = await signUp(t.http);
    await t.http
      .post(`/api/admin/update-balance/${user._id}`)
      .set(bearer(admin))
      .send({ token: 'bitcoin', amount: '500', type: 'yes', msg: 'funding' })
      .expect(200);
    // The event loop delay is sampled every 20 ms: scrapes closer than that see a window with no sample in it.
    const texts: string[] = [];
    for (let round = 0; round < 5; round++) {
      texts.push(await scrapeText(t));
      await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 1, from: 'bitcoin', to: 'ethereum' }).expect(201);
      texts.push(await scrapeText(t), await scrapeText(t));
    }
    for (const text of texts) {
      const values = text
        .split('\n')
        .filter((line) => line && !line.startsWith('#'))
        .map((line) => ({ line, value: Number(line.slice(line.lastIndexOf(' ') + 1)) }));
      expect(values.filter(({ value }) => !Number.isFinite(value)).map(({ line }) => line)).toEqual([]);
      // An empty window's minimum is the histogram's "no sample yet" marker (2^63 ns), not a delay.
      const families = parseMetrics(text);
      expect(sample(families, 'nodejs_eventloop_lag_min_seconds')).toBeLessThan(60);
      expect(sample(families, 'nodejs_eventloop_lag_min_seconds')).toBeLessThanOrEqual(sample(families, 'nodejs_eventloop_lag_max_seconds'));
    }
  });

  it('answers only loopback callers without METRICS_TOKEN', async () => {
    // supertest connects over 127.0.0.1: allowed. A remote address is refused (see metrics.controller.spec.ts).
    await t.http.get('/api/metrics').expect(200);
  });
});

describe('metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  const token = 'metrics-token-0123456789abcdef';
  beforeAll(async () => {
    t = await startTestApp('pglite', { METRICS_TOKEN: token });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('requires the bearer token', async () => {
    const missing = await t.http.get('/api/metrics').expect(401);
    expect(missing.body).toEqual({ statusCode: 401, error: 'A valid metrics token is required.' });
    await t.http.get('/api/metrics').set(bearer('metrics-token-0123456789abcdeX')).expect(401);
    await t.http.get('/api/metrics').set('Authorization', token).expect(401);
    const ok = await t.http.get('/api/metrics').set(bearer(token)).expect(200);
    expect(parseMetrics(ok.text).length).toBeGreaterThan(5);
  });
});
