import Decimal from 'decimal.js';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../support/databases';
import { request, seedWalletDatabase, type ServerProcess, spawnServer } from '../support/server-process';
import { SIGNER_TOKEN, spawnSigner } from '../support/signer-process';
import { ADMIN_EMAIL, ADMIN_PASSWORD, uniqueEmail } from '../support/test-app';
import { ADDRESSES } from '../support/wallet';

const POSTGRES = Boolean(process.env.TEST_DATABASE_URL);
/** Each test starts real server processes; on two busy cores one start can take tens of seconds. */
const PROCESS_TEST_TIMEOUT = 240_000;
const RETRYABLE_MESSAGES = ['The service is temporarily unavailable. Please try again in a moment.', 'The service is busy. Please try again.'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Servers started by the running test; whatever is still up at its end is killed. */
const running = new Set<ServerProcess>();
async function start(env: Record<string, string>, options?: { waitUntilListening?: boolean }): Promise<ServerProcess> {
  const server = await spawnServer(env, options);
  running.add(server);
  void server.exited.then(() => running.delete(server));
  return server;
}
afterEach(async () => {
  await Promise.all([...running].map((s) => s.stop('SIGKILL')));
});

async function adminToken(url: string): Promise<string> {
  const login = await request(url, 'POST', '/api/admin/login-admin', { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
  expect(login.status).toBe(200);
  return login.body.token;
}

async function customer(url: string): Promise<{ id: string; token: string }> {
  const created = await request(url, 'POST', '/api/user/create-user', {
    body: { name: 'Fault Test', email: uniqueEmail('fault'), password: 'password-123', country: 'Germany' },
  });
  expect(created.status).toBe(201);
  return { id: created.body._id, token: created.body.token };
}

async function ledgerCheck(url: string, admin: string): Promise<void> {
  const check = await request(url, 'GET', '/api/admin/ledger/check', { token: admin });
  expect(check.status).toBe(200);
  expect(check.body.mismatches).toEqual([]);
  expect(check.body.negativeCustomerBalances).toBe(0);
  expect(check.body.ok).toBe(true);
}

describe('PGlite data directory lock (one process per DATA_DIR)', { timeout: PROCESS_TEST_TIMEOUT }, () => {
  it('a second process refuses to start naming the holder PID; after a SIGKILL the stale lock is taken over', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'coinpurse-lock-'));
    try {
      const first = await start({ DATA_DIR: dataDir });
      const second = await start({ DATA_DIR: dataDir }, { waitUntilListening: false });
      expect(await second.exited).toBe(75);
      expect(second.output()).toContain(`is in use by another Coinpurse process (PID ${first.pid} `);
      expect(second.output()).not.toMatch(/Listening on /);
      // The first one was not disturbed.
      expect((await request(first.url, 'GET', '/api/health')).status).toBe(200);

      expect(await first.stop('SIGKILL')).toBe('SIGKILL');
      expect(existsSync(join(dataDir, 'coinpurse.lock'))).toBe(true); // left behind by the killed process
      const third = await start({ DATA_DIR: dataDir });
      expect((await request(third.url, 'GET', '/api/health')).status).toBe(200);
      await adminToken(third.url); // the data written by the first process is there
      // Nest closes the app on SIGTERM, then re-raises the signal.
      expect([0, 'SIGTERM']).toContain(await third.stop('SIGTERM'));
      expect(existsSync(join(dataDir, 'coinpurse.lock'))).toBe(false); // a clean stop releases it
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!POSTGRES)('process-level faults on PostgreSQL (skipped without TEST_DATABASE_URL)', { timeout: PROCESS_TEST_TIMEOUT }, () => {
  let database: { url: string; drop: () => Promise<void> };
  let dataDir: string;
  beforeAll(async () => {
    database = await createPostgresDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'coinpurse-faults-'));
    await seedWalletDatabase(database.url, dataDir);
  }, PROCESS_TEST_TIMEOUT);
  afterAll(async () => {
    await Promise.all([...running].map((s) => s.stop('SIGKILL')));
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('SIGKILL between the Idempotency-Key claim and the commit: after a restart the retry succeeds at once, with one effect', async () => {
    const env = { DATABASE_URL: database.url, DATA_DIR: dataDir };
    const paused = await start({ ...env, TEST_PAUSE_AFTER_IDEMPOTENCY_CLAIM_MS: '60000' });
    const admin = await adminToken(paused.url);
    const user = await customer(paused.url);
    const funded = await request(paused.url, 'POST', `/api/admin/update-balance/${user.id}`, {
      token: admin,
      body: { token: 'bitcoin', amount: 100, type: 'yes', msg: 'crash test funding' },
    });
    expect(funded.status).toBe(200);

    const key = 'crash-send-1';
    const body = { transferData: { address: ADDRESSES.bitcoin, amount: 10, symbol: 'btc', coinAmount: '1' } };
    const send = () => request(paused.url, 'POST', '/api/crypto/send-crypto/bitcoin', { token: user.token, headers: { 'Idempotency-Key': key }, body });
    const interrupted = send();
    await paused.waitFor(new RegExp(`paused after claiming Idempotency-Key ${key}`));
    expect(await paused.stop('SIGKILL')).toBe('SIGKILL');
    expect((await interrupted).status).toBe(0); // the connection died with the process: no answer

    const restarted = await start(env);
    const retry = await request(restarted.url, 'POST', '/api/crypto/send-crypto/bitcoin', {
      token: user.token,
      headers: { 'Idempotency-Key': key },
      body,
    });
    expect(retry.status).toBe(201); // not 409 "still being processed"
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    const again = await request(restarted.url, 'POST', '/api/crypto/send-crypto/bitcoin', {
      token: user.token,
      headers: { 'Idempotency-Key': key },
      body,
    });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(retry.text);

    const withdrawals = await request(restarted.url, 'GET', '/api/user/get-transaction?type=withdrawal', { token: user.token });
    expect(withdrawals.body).toHaveLength(1);
    const balance = await request(restarted.url, 'GET', '/api/user/get-user-balance', { token: user.token });
    expect(balance.body.balances.find((b: { token: string }) => b.token === 'bitcoin').coinAmount).toBe('0.00180000');
    await ledgerCheck(restarted.url, admin);
  });

  it('terminating the app’s PostgreSQL backends under a mixed keyed load: the process stays up, every acknowledged operation is there exactly once', async () => {
    const server = await start({ DATABASE_URL: database.url, DATA_DIR: dataDir });
    const admin = await adminToken(server.url);
    const WORKERS = 6;
    const MIN_OPS_PER_WORKER = 24;
    const MAX_OPS_PER_WORKER = 150;
    const KILLS = 8;
    const FUND_USD = 2000;
    const users = await Promise.all(Array.from({ length: WORKERS }, () => customer(server.url)));
    for (const user of users) {
      const funded = await request(server.url, 'POST', `/api/admin/update-balance/${user.id}`, {
        token: admin,
        headers: { 'Idempotency-Key': `fund-${user.id}` },
        body: { token: 'bitcoin', amount: FUND_USD, type: 'yes', msg: 'fault test funding' },
      });
      expect(funded.status).toBe(200);
    }

    type Kind = 'send' | 'swap' | 'deposit';
    // `replayed`: acknowledged by a replay, i.e. an earlier attempt committed but its answer was a 503.
    const acknowledged: Array<{ user: number; kind: Kind; transactionId: string; attempts: number; replayed: boolean }> = [];
    const statusCounts = new Map<number, number>();
    let kills = 0;
    let terminated = 0;
    let killing = true;

    const operation = (user: number, kind: Kind) => {
      const { id, token } = users[user];
      if (kind === 'send')
        return {
          path: '/api/crypto/send-crypto/bitcoin',
          token,
          body: { transferData: { address: ADDRESSES.bitcoin, amount: 10, symbol: 'btc', coinAmount: '1' } },
        };
      if (kind === 'swap') return { path: '/api/crypto/swap', token, body: { amount: 10, from: 'bitcoin', to: 'ethereum' } };
      return { path: `/api/crypto/deposit/${id}`, token: admin, body: { amount: 7, status: 'approved', network: 'tether' } };
    };

    /** One operation with its own key, retried with that key on 503 (and a lost answer) until it is acknowledged. */
    const run = async (user: number, n: number, kind: Kind) => {
      const { path, token, body } = operation(user, kind);
      const headers = { 'Idempotency-Key': `load-${user}-${n}` };
      for (let attempt = 1; attempt <= 200; attempt++) {
        const response = await request(server.url, 'POST', path, { token, headers, body });
        statusCounts.set(response.status, (statusCounts.get(response.status) ?? 0) + 1);
        if (response.status === 201) {
          acknowledged.push({
            user,
            kind,
            transactionId: kind === 'deposit' ? response.body._id : response.body.transaction._id,
            attempts: attempt,
            replayed: response.headers.get('idempotent-replayed') === 'true',
          });
          return;
        }
        if (response.status !== 503 && response.status !== 409 && response.status !== 0)
          throw new Error(`Unexpected ${response.status} for ${kind}: ${response.text}`);
        if (response.status === 503) {
          expect(RETRYABLE_MESSAGES).toContain(response.body.error);
          expect(response.headers.get('retry-after')).toBe('1');
        }
        await sleep(20 + Math.random() * 40);
      }
      throw new Error(`${kind} ${headers['Idempotency-Key']} was never acknowledged`);
    };
    const kinds: Kind[] = ['send', 'swap', 'deposit'];
    const worker = async (user: number) => {
      for (let n = 0; n < MAX_OPS_PER_WORKER && (killing || n < MIN_OPS_PER_WORKER); n++) await run(user, n, kinds[(n + user) % 3]);
    };

    // The killer connects to the app's own database and terminates only that database's other backends.
    const killer = new Client({ connectionString: database.url });
    killer.on('error', () => undefined); // dropped with the database if the test fails early
    await killer.connect();
    const started = Date.now();
    const killLoop = (async () => {
      try {
        for (kills = 0; kills < KILLS;) {
          await sleep(250 + Math.random() * 250);
          const result = await killer.query<{ n: number }>(
            `select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity
              where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend') t`,
          );
          terminated += result.rows[0].n;
          kills++;
        }
      } finally {
        killing = false;
      }
    })();
    await Promise.all([killLoop, ...users.map((_, i) => worker(i))]);
    const duration = Date.now() - started;
    await killer.end();

    // The process is still up and answering.
    expect(server.child.exitCode).toBeNull();
    expect(server.child.signalCode).toBeNull();
    expect((await request(server.url, 'GET', '/api/health')).status).toBe(200);
    expect(server.output()).not.toMatch(/Unhandled 'error' event/);

    const ops = acknowledged.length;
    const count = (status: number) => statusCounts.get(status) ?? 0;
    console.info(
      `[figures] fault test: ${ops} acknowledged operations (${WORKERS} workers), ${kills} kills terminating ${terminated} backends, ` +
        `${count(503)} × 503, ${count(409)} × 409, ${count(0)} lost answers, ${count(201)} × 201 (replays included), ` +
        `${acknowledged.filter((a) => a.attempts > 1).length} ops retried, ${acknowledged.filter((a) => a.replayed).length} acknowledged by a replay ` +
        `(committed before the connection dropped), max attempts for one op ${Math.max(...acknowledged.map((a) => a.attempts))}, ${duration} ms`,
    );
    expect(kills).toBe(KILLS);
    expect(terminated).toBeGreaterThan(0);
    expect(ops).toBeGreaterThanOrEqual(WORKERS * MIN_OPS_PER_WORKER);

    // Every acknowledged operation exactly once: its transaction exists, and each customer has exactly as many
    // transactions of each type as were acknowledged (a retry applied twice would add one).
    const db = new Client({ connectionString: database.url });
    await db.connect();
    try {
      const ids = acknowledged.map((a) => a.transactionId);
      expect(new Set(ids).size).toBe(ids.length);
      const found = await db.query<{ n: number }>('select count(*)::int as n from transactions where id = any($1::uuid[]) and voided_at is null', [ids]);
      expect(found.rows[0].n).toBe(ids.length);
      const entries = await db.query<{ n: number }>('select count(*)::int as n from journal_entries where transaction_id = any($1::uuid[])', [ids]);
      expect(entries.rows[0].n).toBe(ids.length);
      const types = await db.query<{ user_id: string; type: string; n: number }>(
        'select user_id, type, count(*)::int as n from transactions where user_id = any($1::uuid[]) group by user_id, type',
        [users.map((u) => u.id)],
      );
      const typeOf: Record<Kind, string> = { send: 'withdrawal', swap: 'swap', deposit: 'deposit' };
      users.forEach((user, index) => {
        const actual = Object.fromEntries(types.rows.filter((r) => r.user_id === user.id).map((r) => [r.type, r.n]));
        const expected: Record<string, number> = { adjustment: 1 };
        for (const a of acknowledged.filter((x) => x.user === index)) expected[typeOf[a.kind]] = (expected[typeOf[a.kind]] ?? 0) + 1;
        expect(actual).toEqual(expected);
      });
    } finally {
      await db.end();
    }

    // Balances follow from the acknowledged operations alone (prices are fixed: BTC 50000, ETH 2500, USDT 1).
    for (const [index, user] of users.entries()) {
      const mine = acknowledged.filter((a) => a.user === index);
      const n = (kind: Kind) => mine.filter((a) => a.kind === kind).length;
      const balance = await request(server.url, 'GET', '/api/user/get-user-balance', { token: user.token });
      const held = Object.fromEntries((balance.body.balances as Array<{ token: string; coinAmount: string }>).map((b) => [b.token, b.coinAmount]));
      expect(held.bitcoin).toBe(
        new Decimal(FUND_USD)
          .div(50000)
          .sub(new Decimal('0.0002').mul(n('send') + n('swap')))
          .toFixed(8),
      );
      expect(new Decimal(held.ethereum).eq(new Decimal('0.004').mul(n('swap')))).toBe(true);
      expect(new Decimal(held.tether).eq(new Decimal(7).mul(n('deposit')))).toBe(true);
    }
    await ledgerCheck(server.url, admin);
  });
});

/**
 * The signer process as run (`TEST_SERVER=dist`: its bundle dist/signer.js): it logs like the API — JSON lines when its
 * output is not a terminal, at LOG_LEVEL, no secret — and refuses an API setting in its environment with the cause on
 * the first line (exit 78). Nothing here needs its node or database: it reaches neither before a request asks.
 */
describe('the signer process: its logs and its refusals', { timeout: PROCESS_TEST_TIMEOUT }, () => {
  const rpcPassword = 'rpc-secret-0f9e8d7c';
  const env = {
    DATABASE_URL: 'postgres://coinpurse:db-secret-1a2b3c@127.0.0.1:1/coinpurse',
    CHAIN_LITECOIN_RPC_URL: `http://signer:${rpcPassword}@127.0.0.1:1`,
    CHAIN_LITECOIN_XPUB: 'tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M',
    CHAIN_LITECOIN_CHAIN: 'regtest',
    CHAIN_LITECOIN_WALLET: 'hot',
  };

  it('writes JSON lines at LOG_LEVEL (the listening line always), never its token or the node password', async () => {
    const signer = await spawnSigner({ ...env, LOG_LEVEL: 'warn' });
    try {
      const refused = await fetch(`${signer.url}/networks`, { headers: { authorization: 'Bearer wrong-token' } });
      expect(refused.status).toBe(401);
      await sleep(200);
    } finally {
      await signer.stop();
    }
    const lines = signer
      .output()
      .split('\n')
      .filter((line) => line.trim());
    const records = lines.map((line) => JSON.parse(line) as { level: string; msg: string; context?: string; time: string });
    expect(records.map((r) => r.msg)).toEqual([
      expect.stringMatching(/^Signer listening on http:\/\/127\.0\.0\.1:\d+$/),
      expect.stringMatching(/^Refused GET \/networks from .*: no valid bearer token$/),
    ]);
    expect(records[1]).toMatchObject({ level: 'warn', context: 'SignerHttp' });
    expect(records[0].time).toMatch(/^\d{4}-\d\d-\d\dT/);
    // At warn the info lines (its networks, the env file) are not written; at info they are.
    expect(signer.output()).not.toContain('Signing litecoin payouts');
    const verbose = await spawnSigner({ ...env, LOG_LEVEL: 'info' });
    await verbose.stop();
    expect(verbose.output()).toContain('"msg":"Signing litecoin payouts from the node wallet hot"');
    for (const output of [signer.output(), verbose.output()]) {
      expect(output).not.toContain(rpcPassword);
      expect(output).not.toContain('db-secret-1a2b3c');
      expect(output).not.toContain(SIGNER_TOKEN);
    }
  });

  it('refuses an API setting in its environment, saying so first, with exit code 78', async () => {
    const failed = await spawnSigner({ ...env, CHAIN_LITECOIN_CONFIRMATIONS: '12', SIGNER_TOKEN: 'short' }).then(
      (signer) => signer.stop().then(() => 'started'),
      (error: Error) => error.message,
    );
    expect(failed).toContain('The signer exited (78) before it listened');
    expect(failed).toContain(
      "Invalid signer configuration:\n  - CHAIN_LITECOIN_CONFIRMATIONS is a setting of the API (node dist/main.js), not of the signer: it belongs in the API's .env (see .env.example), not in signer.env\n  - SIGNER_TOKEN must be set",
    );
  });
});
