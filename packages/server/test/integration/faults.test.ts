import { sql } from 'drizzle-orm';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { Client } from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { ACCOUNT_BUSY_MESSAGE } from '../../src/modules/ledger/money-calls';
import { createPostgresDatabase, DATABASE_KINDS } from '../support/databases';
import { request } from '../support/server-process';
import { ADDRESSES, expectLedgerClean, fund, holdings, newCustomer, startWalletApp, type WalletApp } from '../support/wallet';

const POSTGRES = Boolean(process.env.TEST_DATABASE_URL);
const nestedArrays = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const wideObject = (keys: number) => JSON.stringify(Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, i])));
const sendBody = (amount = 10) => ({ transferData: { address: ADDRESSES.bitcoin, amount, symbol: 'btc', coinAmount: '1' } });

describe.each(DATABASE_KINDS)('hostile bodies, byte-exact replays, no-store (%s)', (kind) => {
  let t: WalletApp;
  beforeAll(async () => {
    t = await startWalletApp(kind, {}, { listen: true });
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    if (t) await expectLedgerClean(t);
  });

  it('refuses 3,000 nested arrays and 1,500 keys with 400 on login-user (was a 500 from a stack overflow)', async () => {
    const nested = await request(t.url!, 'POST', '/api/user/login-user', { rawBody: `{"email":"a@b.co","password":${nestedArrays(3000)}}` });
    expect(nested.status).toBe(400);
    expect(nested.body).toEqual({ statusCode: 400, error: 'The request body is nested too deeply (at most 32 levels).' });
    const bare = await request(t.url!, 'POST', '/api/user/login-user', { rawBody: nestedArrays(3000) });
    expect(bare.status).toBe(400);
    const wide = await request(t.url!, 'POST', '/api/user/login-user', { rawBody: wideObject(1500) });
    expect(wide.status).toBe(400);
    expect(wide.body).toEqual({ statusCode: 400, error: 'The request body has too many fields (at most 1000).' });
  });

  it('refuses them on a money route before the Idempotency-Key is touched; the key then works for a good body', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    const headers = { 'Idempotency-Key': 'deep-1' };
    const deep = await request(t.url!, 'POST', '/api/crypto/send-crypto/bitcoin', {
      token: user.token,
      headers,
      rawBody: `{"transferData":{"address":${nestedArrays(3000)},"amount":10}}`,
    });
    expect(deep.status).toBe(400);
    expect(deep.body.error).toBe('The request body is nested too deeply (at most 32 levels).');
    const wide = await request(t.url!, 'POST', '/api/crypto/send-crypto/bitcoin', { token: user.token, headers, rawBody: wideObject(1001) });
    expect(wide.status).toBe(400);
    expect(wide.body.error).toBe('The request body has too many fields (at most 1000).');
    expect((await holdings(t, user.token)).bitcoin).toBe('0.00200000');
    const sent = await request(t.url!, 'POST', '/api/crypto/send-crypto/bitcoin', { token: user.token, headers, body: sendBody() });
    expect(sent.status).toBe(201);
    expect(sent.headers.get('idempotent-replayed')).toBeNull();
  });

  it('replays are the exact bytes first sent (success and stored error), and those bytes are what is stored', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    const send = (key: string, amount: number) =>
      request(t.url!, 'POST', '/api/crypto/send-crypto/bitcoin', { token: user.token, headers: { 'Idempotency-Key': key }, body: sendBody(amount) });
    const first = await send('bytes-1', 10);
    expect(first.status).toBe(201);
    const replay = await send('bytes-1', 10);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(Buffer.from(replay.text).equals(Buffer.from(first.text))).toBe(true);
    expect(replay.headers.get('content-type')).toBe(first.headers.get('content-type'));

    const swapBody = { amount: 5, from: 'bitcoin', to: 'ethereum' };
    const swap = await request(t.url!, 'POST', '/api/crypto/swap', { token: user.token, headers: { 'Idempotency-Key': 'bytes-2' }, body: swapBody });
    expect(swap.status).toBe(201);
    const swapAgain = await request(t.url!, 'POST', '/api/crypto/swap', { token: user.token, headers: { 'Idempotency-Key': 'bytes-2' }, body: swapBody });
    expect(swapAgain.text).toBe(swap.text);

    const short = await send('bytes-3', 1_000_000);
    expect(short.status).toBe(400);
    const shortAgain = await send('bytes-3', 1_000_000);
    expect(shortAgain.status).toBe(400);
    expect(shortAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(shortAgain.text).toBe(short.text);

    const db = t.app.get<Database>(DATABASE);
    const stored = (await db.execute(
      sql`select key, response_body from idempotency_keys where key in ('bytes-1', 'bytes-2', 'bytes-3') order by key`,
    )) as unknown as { rows: Array<{ key: string; response_body: string }> };
    expect(stored.rows.map((r) => r.response_body)).toEqual([first.text, swap.text, short.text]);
  });

  it('sends Cache-Control: no-store on authenticated answers, sessions and refusals', async () => {
    const user = await newCustomer(t);
    const balance = await request(t.url!, 'GET', '/api/user/get-user-balance', { token: user.token });
    expect(balance.status).toBe(200);
    expect(balance.headers.get('cache-control')).toBe('no-store');
    const history = await request(t.url!, 'GET', '/api/user/get-transaction', { token: user.token });
    expect(history.headers.get('cache-control')).toBe('no-store');
    const users = await request(t.url!, 'GET', '/api/admin/ledger/check', { token: t.admin });
    expect(users.status).toBe(200);
    expect(users.headers.get('cache-control')).toBe('no-store');
    const login = await request(t.url!, 'POST', '/api/user/login-user', { body: { email: user.email, password: user.password } });
    expect(login.status).toBe(200);
    expect(login.headers.get('cache-control')).toBe('no-store');
    const refused = await request(t.url!, 'GET', '/api/user/get-user-balance');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('cache-control')).toBe('no-store');
  });
});

describe.skipIf(!POSTGRES)('PostgreSQL session timeouts (skipped without TEST_DATABASE_URL)', () => {
  let t: WalletApp;
  beforeAll(async () => {
    t = await startWalletApp('postgres', {}, { listen: true });
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    if (t) await expectLedgerClean(t);
  });

  it('every pooled session has the configured statement, lock and idle-in-transaction timeouts', async () => {
    const db = t.app.get<Database>(DATABASE);
    const rows = (await db.execute(
      sql`select current_setting('statement_timeout') as s, current_setting('lock_timeout') as l, current_setting('idle_in_transaction_session_timeout') as i`,
    )) as unknown as { rows: Array<{ s: string; l: string; i: string }> };
    expect(rows.rows[0]).toEqual({ s: '5s', l: '2s', i: '10s' });
  });

  it('a send for a customer whose balance rows another session holds FOR UPDATE answers 429 "busy" and changes nothing; the key is then free', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    const before = await holdings(t, user.token);
    const locker = new Client({ connectionString: t.config.databaseUrl });
    await locker.connect();
    try {
      await locker.query('begin');
      const locked = await locker.query('select id from ledger_accounts where user_id = $1 for update', [user._id]);
      expect(locked.rowCount).toBeGreaterThan(0);
      const started = Date.now();
      const send = await request(t.url!, 'POST', '/api/crypto/send-crypto/bitcoin', {
        token: user.token,
        headers: { 'Idempotency-Key': 'held-1' },
        body: sendBody(),
      });
      console.info(`[figures] lock-timeout send answered ${send.status} after ${Date.now() - started} ms (DB_LOCK_TIMEOUT_MS 2000)`);
      // A hot account, not a fault of the service: 429 with Retry-After (issue 23), never a 503.
      expect(send.status).toBe(429);
      expect(send.body).toEqual({ statusCode: 429, error: ACCOUNT_BUSY_MESSAGE });
      expect(send.headers.get('retry-after')).toBe('1');
    } finally {
      await locker.query('rollback').catch(() => undefined);
      await locker.end();
    }
    expect(await holdings(t, user.token)).toEqual(before);
    const withdrawals = await request(t.url!, 'GET', '/api/user/get-transaction?type=withdrawal', { token: user.token });
    expect(withdrawals.body).toEqual([]);
    // The 429 stored nothing: the same key goes through now, once.
    const retry = await request(t.url!, 'POST', '/api/crypto/send-crypto/bitcoin', {
      token: user.token,
      headers: { 'Idempotency-Key': 'held-1' },
      body: sendBody(),
    });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect((await holdings(t, user.token)).bitcoin).toBe('0.00180000');
  });

  it('a statement past DB_STATEMENT_TIMEOUT_MS is cancelled by PostgreSQL', async () => {
    const db = t.app.get<Database>(DATABASE);
    await expect(db.execute(sql`select pg_sleep(6)`)).rejects.toMatchObject({ cause: { code: '57014' } });
  });
});

describe.skipIf(!POSTGRES)('Idempotency-Key claimed in the effect transaction (PostgreSQL)', () => {
  let t: WalletApp;
  beforeAll(async () => {
    // Every keyed money call holds its claim for a second before going on (test hook), below the 2 s lock timeout.
    t = await startWalletApp('postgres', { TEST_PAUSE_AFTER_IDEMPOTENCY_CLAIM_MS: '1000' }, { listen: true });
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    if (t) await expectLedgerClean(t);
  });

  it('a concurrent duplicate waits on the uncommitted claim, then replays the committed answer; another body then gets 422', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    const send = (amount: number) =>
      request(t.url!, 'POST', '/api/crypto/send-crypto/bitcoin', { token: user.token, headers: { 'Idempotency-Key': 'wait-1' }, body: sendBody(amount) });
    const first = send(10);
    // Wait until the first one holds its claim: its transaction sits idle in the test hook's pause.
    const db = t.app.get<Database>(DATABASE);
    for (;;) {
      const idle = (await db.execute(
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and state = 'idle in transaction' and query like 'select cp_send(%'`,
      )) as unknown as { rows: Array<{ n: number }> };
      if (idle.rows[0].n > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const [a, b, other] = await Promise.all([first, send(10), send(11)]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.headers.get('idempotent-replayed')).toBeNull();
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.text).toBe(a.text);
    expect(other.status).toBe(422);
    expect(other.body.error).toBe('This Idempotency-Key was already used with a different request. Use a new key for a new request.');
    expect((await holdings(t, user.token)).bitcoin).toBe('0.00180000');
    const withdrawals = await request(t.url!, 'GET', '/api/user/get-transaction?type=withdrawal', { token: user.token });
    expect(withdrawals.body).toHaveLength(1);
  });
});

describe.skipIf(!POSTGRES)('Idempotency-Key rows committed in_flight by the previous version (PostgreSQL)', () => {
  let t: WalletApp;
  beforeAll(async () => {
    t = await startWalletApp('postgres', {}, { listen: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a young one answers 409 "still being processed"; one older than 5 minutes is taken over and applied once', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    const send = (key: string) =>
      request(t.url!, 'POST', '/api/crypto/send-crypto/bitcoin', { token: user.token, headers: { 'Idempotency-Key': key }, body: sendBody() });
    expect((await send('probe')).status).toBe(201);
    const db = t.app.get<Database>(DATABASE);
    // Same caller, route and body as the probe, so the same scope and request hash.
    await db.execute(sql`insert into idempotency_keys (scope, key, request_hash, state, created_at)
      select scope, 'legacy-young', request_hash, 'in_flight', now() from idempotency_keys where key = 'probe'
      union all select scope, 'legacy-old', request_hash, 'in_flight', now() - interval '10 minutes' from idempotency_keys where key = 'probe'`);
    const young = await send('legacy-young');
    expect(young.status).toBe(409);
    expect(young.body.error).toBe('A request with this Idempotency-Key is still being processed. Try again in a moment.');
    const old = await send('legacy-old');
    expect(old.status).toBe(201);
    expect(old.headers.get('idempotent-replayed')).toBeNull();
    const again = await send('legacy-old');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(old.text);
    expect((await holdings(t, user.token)).bitcoin).toBe('0.00160000');
    await expectLedgerClean(t);
  });
});

/** A TCP proxy in front of PostgreSQL that can be "restarted": all connections cut, new ones refused, then back. */
async function startRestartableProxy(target: URL): Promise<{ port: number; stop(): Promise<void>; start(): Promise<void>; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as AddressInfo).port;
        resolve();
      });
    });
  const stop = async () => {
    await new Promise<void>((resolve) => {
      server?.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
    server = undefined;
  };
  await listen();
  return { port, stop, start: listen, close: stop };
}

describe.skipIf(!POSTGRES)('PostgreSQL going away and coming back (a restart, through a proxy)', () => {
  let t: WalletApp;
  let proxy: Awaited<ReturnType<typeof startRestartableProxy>>;
  let database: { url: string; drop: () => Promise<void> };
  beforeAll(async () => {
    database = await createPostgresDatabase();
    const direct = new URL(database.url);
    proxy = await startRestartableProxy(direct);
    const viaProxy = new URL(database.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    // 'pglite' only means "create no database": DATABASE_URL points the app at ours, through the proxy.
    t = await startWalletApp('pglite', { DATABASE_URL: viaProxy.toString(), DB_CONNECT_TIMEOUT_MS: '2000' }, { listen: true });
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await database?.drop();
  });

  it('while the database is down requests answer 503 (retryable) and nothing crashes; once it is back the same key succeeds once', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    const send = () =>
      request(t.url!, 'POST', '/api/crypto/send-crypto/bitcoin', { token: user.token, headers: { 'Idempotency-Key': 'restart-1' }, body: sendBody() });

    await proxy.stop(); // every connection cut, new ones refused
    const down = await send();
    expect(down.status).toBe(503);
    expect(down.body.error).toBe('The service is temporarily unavailable. Please try again in a moment.');
    const balanceDown = await request(t.url!, 'GET', '/api/user/get-user-balance', { token: user.token });
    expect(balanceDown.status).toBe(503);

    await proxy.start();
    const statuses: number[] = [];
    let done: Awaited<ReturnType<typeof send>> | undefined;
    for (let attempt = 0; attempt < 20 && !done; attempt++) {
      const response = await send();
      statuses.push(response.status);
      if (response.status === 201) done = response;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(statuses.filter((s) => s !== 503 && s !== 201)).toEqual([]);
    expect(done?.headers.get('idempotent-replayed')).toBeNull();
    expect((await holdings(t, user.token)).bitcoin).toBe('0.00180000');
    const withdrawals = await request(t.url!, 'GET', '/api/user/get-transaction?type=withdrawal', { token: user.token });
    expect(withdrawals.body).toHaveLength(1);
    await expectLedgerClean(t);
  });
});
