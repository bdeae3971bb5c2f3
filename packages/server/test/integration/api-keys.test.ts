import { sql, type SQL } from 'drizzle-orm';
import { generate } from 'otplib';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { SECURITY_SUBJECTS } from '../../src/modules/security/security-mail.service';
import { DATABASE_KINDS } from '../support/databases';
import { bearer, signUp, startTestApp, type TestApp } from '../support/test-app';
import { ADDRESSES, fund, holdings, startWalletApp, type WalletApp } from '../support/wallet';

const ENCRYPTION_KEY = 'b2'.repeat(32);
/** High enough for the route walk (about a hundred calls per key), low enough to reach in one test. */
const RATE_LIMIT = 150;
const RANDOM_UUID = '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b';
const ENV = {
  ENCRYPTION_KEY,
  API_KEY_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
  // The client address is the nearest X-Forwarded-For entry when the proxy is on loopback (the test itself).
  TRUST_PROXY: 'loopback',
  ADDRESS_HOLD_HOURS: '0',
  LOG_LEVEL: 'info',
};

async function rows<T>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}

const totp = (secret: string, offset = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 });

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
interface Route {
  method: Method;
  path: string;
  access: string;
  scope: string | undefined;
}

describe.each(DATABASE_KINDS)('API keys on %s', (kind) => {
  let t: WalletApp;
  let db: Database;
  const logLines: string[] = [];

  beforeAll(async () => {
    const logs = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    t = await startWalletApp(kind, ENV, { logDestination: logs });
    db = t.app.get(DATABASE);
  });
  afterAll(async () => {
    await t?.close();
  });

  const createKey = (token: string, body: Record<string, unknown>, role: 'user' | 'admin' = 'user') =>
    t.http.post(`/api/${role}/api-keys`).set(bearer(token)).send(body);
  const allowlistOn = (token: string) => t.http.put('/api/user/addresses/allowlist').set(bearer(token)).send({ enabled: true }).expect(200);

  it('shows the key once, keeps only its hash, and lets it act as its owner with the RateLimit headers', async () => {
    const user = await signUp(t.http);
    await fund(t, user._id, 'bitcoin', 1000);
    const created = await createKey(user.token, { name: 'Books', scopes: ['trade', 'read'] }).expect(201);
    const key = created.body.key as string;
    expect(key).toMatch(/^cp_[A-Za-z0-9_-]{40}$/);
    expect(created.body).toMatchObject({
      name: 'Books',
      prefix: key.slice(0, 12),
      scopes: ['read', 'trade'],
      status: 'active',
      allowedIps: [],
      expiresAt: null,
    });

    const listed = (await t.http.get('/api/user/api-keys').set(bearer(user.token)).expect(200)).body;
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(key);
    expect(listed[0]).toMatchObject({ id: created.body.id, prefix: key.slice(0, 12), lastUsedAt: null });

    const balance = await t.http.get('/api/user/get-user-balance').set(bearer(key)).expect(200);
    expect(balance.headers['ratelimit-policy']).toBe(`"api-key";q=${RATE_LIMIT};w=60`);
    expect(balance.headers.ratelimit).toMatch(new RegExp(`^"api-key";r=${RATE_LIMIT - 1};t=\\d+$`));
    await t.http.post('/api/crypto/swap').set(bearer(key)).send({ amount: 100, from: 'bitcoin', to: 'ethereum' }).expect(201);

    // The swap's audit row names the key; the request line names its prefix; last use is recorded with the address.
    const audit = await rows<{ api_key_id: string; actor_id: string }>(
      db,
      sql`select api_key_id, actor_id from audit_log where action like 'wallet.swap%' and actor_id = ${user._id}`,
    );
    expect(audit).toEqual([{ api_key_id: created.body.id, actor_id: user._id }]);
    const entries = (await t.http.get(`/api/admin/audit?actor=${user._id}&action=wallet.swap`).set(bearer(t.admin)).expect(200)).body.items;
    expect(entries).toEqual([expect.objectContaining({ action: 'wallet.swap', apiKey: key.slice(0, 12) })]);
    const csv = await t.http.get(`/api/admin/export/audit?actor=${user._id}&action=wallet.swap`).set(bearer(t.admin)).expect(200);
    const [header, swapRow] = csv.text.trim().split(/\r?\n/);
    expect(header.endsWith('"Request id","API key"')).toBe(true);
    expect(swapRow.endsWith(`"${key.slice(0, 12)}"`)).toBe(true);
    await expect.poll(() => logLines.some((line) => line.includes('"path":"/api/crypto/swap"') && line.includes(`"apiKey":"${key.slice(0, 12)}"`))).toBe(true);
    const used = (await t.http.get('/api/user/api-keys').set(bearer(user.token)).expect(200)).body[0];
    expect(used.lastUsedAt).not.toBeNull();
    expect(used.lastUsedIp).toMatch(/127\.0\.0\.1/);
  });

  it('answers 401 to a key that is unknown, malformed or of a deleted account, and 400 to bad input at creation', async () => {
    const unknown = await t.http
      .get('/api/user/get-user-balance')
      .set(bearer(`cp_${'A'.repeat(40)}`))
      .expect(401);
    expect(unknown.body.error).toBe('This API key is not valid.');
    await t.http.get('/api/user/get-user-balance').set(bearer('cp_short')).expect(401);
    const user = await signUp(t.http);
    const bad = async (body: Record<string, unknown>, message: string | RegExp) =>
      expect((await createKey(user.token, { name: 'x', scopes: ['read'], ...body }).expect(400)).body.error).toMatch(message);
    await bad({ scopes: [] }, /Choose the scopes/);
    await bad({ scopes: ['operate'] }, 'Customers\u2019 keys take the scopes read, trade and withdraw.');
    await bad({ allowedIps: ['10.0.0.300'] }, /is not an IP address or a CIDR range/);
    await bad({ allowedIps: ['10.0.0.0/33'] }, /is not an IP address or a CIDR range/);
    await bad({ expiresAt: new Date(Date.now() - 1000).toISOString() }, 'The expiry must be in the future.');
    await bad({ expiresAt: 'tomorrow' }, /The expiry must be a date and time/);
    expect((await t.http.get('/api/user/api-keys').set(bearer(user.token)).expect(200)).body).toEqual([]);

    const doomed = await createKey(user.token, { name: 'x', scopes: ['read'] }).expect(201);
    await t.http.delete(`/api/admin/delete-user/${user._id}`).set(bearer(t.admin)).expect(200);
    await t.http.get('/api/user/get-user-balance').set(bearer(doomed.body.key)).expect(401);
  });

  // The guard's decision does not depend on the database: walked once, on the last kind (PostgreSQL when there is one).
  it.runIf(kind === DATABASE_KINDS.at(-1))('each scope allows exactly its routes; session-only routes refuse every key; a missing scope is named', async () => {
    const document = (await t.http.get('/api/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, { 'x-access'?: string; 'x-api-key-scope'?: string }>>;
    };
    const routes: Route[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method) || operation['x-access'] === 'public') continue;
        routes.push({
          method: method as Method,
          path: path.replace(/\{[^}]+\}/g, RANDOM_UUID),
          access: operation['x-access']!,
          scope: operation['x-api-key-scope'],
        });
      }
    }
    // Every signed-in route declares its scope.
    expect(routes.filter((route) => !route.scope)).toEqual([]);
    expect(routes.length).toBeGreaterThan(80);

    const customer = await signUp(t.http);
    await allowlistOn(customer.token);
    const keys: Array<{ role: 'user' | 'admin'; scope: string; key: string }> = [];
    for (const scope of ['read', 'trade', 'withdraw'])
      keys.push({ role: 'user', scope, key: (await createKey(customer.token, { name: scope, scopes: [scope] }).expect(201)).body.key });
    for (const scope of ['read', 'operate'])
      keys.push({ role: 'admin', scope, key: (await createKey(t.admin, { name: scope, scopes: [scope] }, 'admin').expect(201)).body.key });

    const fits = (route: Route, role: 'user' | 'admin') => route.access === role || route.access === 'authenticated' || route.access === 'optional';
    const failures: string[] = [];
    const allowedCount: Record<string, number> = {};
    for (const route of routes) {
      for (const key of keys) {
        const allowed = route.scope === key.scope && fits(route, key.role);
        // The event stream stays open while its key lives: its guard is all this walk needs, and it is checked refused.
        if (allowed && route.path.endsWith('/events')) continue;
        const request = t.http[route.method](route.path).set(bearer(key.key)).timeout(10_000);
        const response = route.method === 'get' || route.method === 'delete' ? await request : await request.send({});
        const where = `${route.method.toUpperCase()} ${route.path} [${route.scope}] with a ${key.role} ${key.scope} key`;
        if (allowed) {
          allowedCount[`${key.role}:${key.scope}`] = (allowedCount[`${key.role}:${key.scope}`] ?? 0) + 1;
          if ([401, 403, 429].includes(response.status) || response.status >= 500)
            failures.push(`${where}: ${response.status} ${JSON.stringify(response.body)}`);
        } else if (response.status !== 403) {
          failures.push(`${where}: ${response.status}, not 403`);
        } else if (route.scope === 'session-only' && response.body.error !== 'API keys cannot be used here: sign in to the app to do this.') {
          failures.push(`${where}: ${response.body.error}`);
        } else if (route.scope !== 'session-only' && fits(route, key.role) && ['read', 'trade', 'withdraw', 'operate'].includes(route.scope!)) {
          const ownScope = key.role === 'admin' ? ['read', 'operate'].includes(route.scope!) : ['read', 'trade', 'withdraw'].includes(route.scope!);
          if (ownScope && response.body.error !== `This API key does not have the "${route.scope}" scope.`) failures.push(`${where}: ${response.body.error}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // Each scope reaches routes of its own: money moves only through trade (swap, and its quote) and withdraw (send).
    expect(allowedCount['user:trade']).toBe(2);
    expect(allowedCount['user:withdraw']).toBe(1);
    expect(allowedCount['user:read']).toBeGreaterThan(10);
    expect(allowedCount['admin:read']).toBeGreaterThan(15);
    expect(allowedCount['admin:operate']).toBeGreaterThan(15);
    // Four-eyes decisions stay human.
    for (const decision of ['approve', 'reject']) {
      const path = routes.find((route) => route.method === 'post' && route.path.includes('/approvals/') && route.path.endsWith(decision))!.path;
      const refused = await t.http
        .post(path)
        .set(bearer(keys.find((key) => key.scope === 'operate')!.key))
        .send({})
        .expect(403);
      expect(refused.body.error).toBe('API keys cannot be used here: sign in to the app to do this.');
    }
  });

  it('refuses an address outside the list with 403 and changes nothing; TRUST_PROXY and IPv4-mapped forms apply', async () => {
    const user = await signUp(t.http);
    await fund(t, user._id, 'bitcoin', 500);
    const listed = (
      await createKey(user.token, { name: 'office', scopes: ['read', 'trade'], allowedIps: ['203.0.113.7', '::ffff:198.51.100.0/120'] }).expect(201)
    ).body;
    expect(listed.allowedIps).toEqual(['203.0.113.7', '198.51.100.0/24']);
    const from = (address: string) => ({ ...bearer(listed.key), 'X-Forwarded-For': address });
    await t.http.get('/api/user/get-user-balance').set(from('203.0.113.7')).expect(200);
    await t.http.get('/api/user/get-user-balance').set(from('::ffff:203.0.113.7')).expect(200);
    await t.http.get('/api/user/get-user-balance').set(from('198.51.100.42')).expect(200);
    const before = await holdings(t, user.token);
    const refused = await t.http.post('/api/crypto/swap').set(from('203.0.113.8')).send({ amount: 100, from: 'bitcoin', to: 'ethereum' }).expect(403);
    expect(refused.body.error).toBe('This API key may not be used from your address.');
    await t.http.get('/api/user/get-user-balance').set(bearer(listed.key)).expect(403); // the test's own loopback address
    expect(await holdings(t, user.token)).toEqual(before);

    // A key for loopback only: the socket's address is ::ffff:127.0.0.1 or 127.0.0.1, both match.
    const loopback = (await createKey(user.token, { name: 'local', scopes: ['read'], allowedIps: ['127.0.0.1'] }).expect(201)).body.key;
    await t.http.get('/api/user/get-user-balance').set(bearer(loopback)).expect(200);
    await t.http
      .get('/api/user/get-user-balance')
      .set({ ...bearer(loopback), 'X-Forwarded-For': '::ffff:127.0.0.1' })
      .expect(200);
  });

  it('refuses a key from its expiry on (401), and a revoked one at once', async () => {
    const user = await signUp(t.http);
    const soon = (await createKey(user.token, { name: 'soon', scopes: ['read'], expiresAt: new Date(Date.now() + 1500).toISOString() }).expect(201)).body;
    await t.http.get('/api/user/get-user-balance').set(bearer(soon.key)).expect(200);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, new Date(soon.expiresAt).getTime() - Date.now() + 50)));
    expect((await t.http.get('/api/user/get-user-balance').set(bearer(soon.key)).expect(401)).body.error).toBe('This API key has expired.');

    const revoked = (await createKey(user.token, { name: 'gone', scopes: ['read'] }).expect(201)).body;
    await t.http.get('/api/user/get-user-balance').set(bearer(revoked.key)).expect(200);
    const answer = await t.http.delete(`/api/user/api-keys/${revoked.id}`).set(bearer(user.token)).expect(200);
    expect(answer.body.status).toBe('revoked');
    expect((await t.http.get('/api/user/get-user-balance').set(bearer(revoked.key)).expect(401)).body.error).toBe('This API key was revoked.');
    await t.http.delete(`/api/user/api-keys/${revoked.id}`).set(bearer(user.token)).expect(404);
    // Another customer's key is not found either.
    const other = await signUp(t.http);
    const theirs = (await createKey(other.token, { name: 'theirs', scopes: ['read'] }).expect(201)).body;
    await t.http.delete(`/api/user/api-keys/${theirs.id}`).set(bearer(user.token)).expect(404);
    const statuses = (await t.http.get('/api/user/api-keys').set(bearer(user.token)).expect(200)).body.map((k: { status: string }) => k.status);
    expect(statuses.sort()).toEqual(['expired', 'revoked']);
  });

  it.runIf(kind === 'postgres')('a revoked or expired key is refused on a second instance at once', async () => {
    const second: TestApp = await startTestApp('postgres', ENV, { shareDatabaseWith: t });
    try {
      const user = await signUp(t.http);
      const revoked = (await createKey(user.token, { name: 'a', scopes: ['read'] }).expect(201)).body;
      const expiring = (await createKey(user.token, { name: 'b', scopes: ['read'], expiresAt: new Date(Date.now() + 1500).toISOString() }).expect(201)).body;
      await second.http.get('/api/user/get-user-balance').set(bearer(revoked.key)).expect(200);
      await second.http.get('/api/user/get-user-balance').set(bearer(expiring.key)).expect(200);
      await t.http.delete(`/api/user/api-keys/${revoked.id}`).set(bearer(user.token)).expect(200);
      // No wait, no poll: the very next request on the other instance is refused.
      await second.http.get('/api/user/get-user-balance').set(bearer(revoked.key)).expect(401);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, new Date(expiring.expiresAt).getTime() - Date.now() + 50)));
      await second.http.get('/api/user/get-user-balance').set(bearer(expiring.key)).expect(401);
    } finally {
      await second.close();
    }
  });

  it('withdraw: needs the allowlist on and the second factor, mails the owner, and its sends need no code', async () => {
    const user = await signUp(t.http);
    await fund(t, user._id, 'bitcoin', 1000);
    // A saved address (before two-factor sign-in, so no code is spent on it): the key may send there, nowhere else.
    await t.http.post('/api/user/addresses').set(bearer(user.token)).send({ label: 'Cold', token: 'bitcoin', address: ADDRESSES.bitcoin }).expect(201);
    const setup = await t.http.post('/api/user/2fa/setup').set(bearer(user.token)).expect(200);
    await t.http
      .post('/api/user/2fa/enable')
      .set(bearer(user.token))
      .send({ code: await totp(setup.body.secret) })
      .expect(200);
    const body = { name: 'payouts', scopes: ['read', 'withdraw'] };
    expect((await createKey(user.token, body).expect(409)).body.error).toMatch(/Turn on your address allowlist first/);
    await allowlistOn(user.token);
    expect((await createKey(user.token, body).expect(401)).body.twoFactorRequired).toBe(true);
    expect((await createKey(user.token, { ...body, code: '000000' }).expect(401)).body.twoFactorRequired).toBe(true);
    const key = (await createKey(user.token, { ...body, code: await totp(setup.body.secret, 1) }).expect(201)).body.key as string;
    const mails = await rows<{ text: string }>(
      db,
      sql`select text from mail_outbox where "to" = ${user.email} and subject = ${SECURITY_SUBJECTS.apiKeyCreated}`,
    );
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain(key.slice(0, 12));
    expect(mails[0].text).not.toContain(key);

    const transferData = { address: ADDRESSES.bitcoin, amount: '10', symbol: 'btc', coinAmount: '0' };
    await t.http.post('/api/crypto/send-crypto/bitcoin').set(bearer(key)).send({ transferData }).expect(201);
    const elsewhere = await t.http
      .post('/api/crypto/send-crypto/bitcoin')
      .set(bearer(key))
      .send({ transferData: { ...transferData, address: ADDRESSES.bitcoinLegacy } });
    expect(elsewhere.status).toBeGreaterThanOrEqual(400);
    expect(elsewhere.body.error).toMatch(/allowlist/);
    // The session still needs its code for the same send.
    expect((await t.http.post('/api/crypto/send-crypto/bitcoin').set(bearer(user.token)).send({ transferData }).expect(401)).body.twoFactorRequired).toBe(true);
  });

  it('counts requests per key on the shared counter: 429 with Retry-After and RateLimit r=0 past the limit', async () => {
    const user = await signUp(t.http);
    const [a, b] = await Promise.all(['a', 'b'].map(async (name) => (await createKey(user.token, { name, scopes: ['read'] }).expect(201)).body.key as string));
    for (let sent = 0; sent < RATE_LIMIT; sent += 25) {
      const batch = await Promise.all(Array.from({ length: Math.min(25, RATE_LIMIT - sent) }, () => t.http.get('/api/user/get-user-balance').set(bearer(a))));
      expect(batch.every((response) => response.status === 200)).toBe(true);
    }
    const limited = await t.http.get('/api/user/get-user-balance').set(bearer(a)).expect(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(limited.headers.ratelimit).toMatch(/^"api-key";r=0;t=\d+$/);
    // The other key of the same owner has its own count; the owner's session is not limited by it.
    await t.http.get('/api/user/get-user-balance').set(bearer(b)).expect(200);
    await t.http.get('/api/user/get-user-balance').set(bearer(user.token)).expect(200);
  });

  it('never stores or logs a key: no table holds it, no log line shows it', async () => {
    const user = await signUp(t.http);
    const key = (await createKey(user.token, { name: 'secret check', scopes: ['read'] }).expect(201)).body.key as string;
    await t.http.get('/api/user/get-user-balance').set(bearer(key)).expect(200);
    await t.http.get('/api/admin/dashboard').set(bearer(key)).expect(403);
    // A refused request's line names the key too, by its prefix.
    await expect
      .poll(() => logLines.some((line) => line.includes('"path":"/api/admin/dashboard"') && line.includes(`"apiKey":"${key.slice(0, 12)}"`)))
      .toBe(true);
    const tables = await rows<{ name: string }>(
      db,
      sql`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`,
    );
    const holding: string[] = [];
    for (const { name } of tables) {
      const found = await rows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.identifier(name)} as r where r::text like ${`%${key.slice(12)}%`}`);
      if (found[0].n > 0) holding.push(name);
    }
    expect(holding).toEqual([]);
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.filter((line) => line.includes(key.slice(12)))).toEqual([]);
  });
});
