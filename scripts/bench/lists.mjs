// History and admin lists at scale (PostgreSQL): seeds a fresh database with `dist/cli/seed.js` (BENCH_USERS customers,
// BENCH_TRANSACTIONS transactions, one heavy customer with min(100,000, transactions / 10) of them), starts the built
// server, then measures p95 over HTTP of each list call — sequential requests, the calls interleaved round by round —
// next to a bare node:http server sending the bytes of one history page (the anchor for reads), and prints the
// EXPLAIN (ANALYZE, BUFFERS) execution time of each call's SQL as the repositories build it. Figures only, no assertions.
// The load generator shares the cores with the server and PostgreSQL.
// Run after `pnpm build`. Env: BENCH_DATABASE_URL (default TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres),
// BENCH_USERS (10000), BENCH_TRANSACTIONS (100000; the issue's figure: BENCH_USERS=100000 BENCH_TRANSACTIONS=1000000),
// BENCH_REQUESTS (200 per call), BENCH_KEEP_DB=1 keeps the database (its name is printed) and BENCH_REUSE_DB=<name> with
// BENCH_REUSE_SEED=<seed JSON line> measures an existing one.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { admin, api, benchServerEnv, dbUrl, freePort, requireFromServer, root, serverDir, waitForHealth } from './harness.mjs';

const { Client, Pool } = requireFromServer('pg');
const { drizzle } = requireFromServer('drizzle-orm/node-postgres');

const USERS = Number(process.env.BENCH_USERS || 10_000);
const TRANSACTIONS = Number(process.env.BENCH_TRANSACTIONS || 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS || 200);
const ADMIN = { email: 'bench-admin@coinpurse.local', password: 'bench-admin-password-1' };

const mainJs = join(serverDir, 'dist', 'main.js');
const seedJs = join(serverDir, 'dist', 'cli', 'seed.js');
if (!existsSync(mainJs) || !existsSync(seedJs)) {
  console.error(`No built server at ${mainJs} (or ${seedJs}): run pnpm build first.`);
  process.exit(1);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One GET over a kept-alive connection; resolves with the milliseconds to the last byte, the status and the body. */
function timedGet(base, path, token) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const request = http.get(`${base}${path}`, { agent, headers: token ? { Authorization: `Bearer ${token}` } : {} }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, status: response.statusCode, body: Buffer.concat(chunks), headers: response.headers }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const suffix = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const reuse = process.env.BENCH_REUSE_DB;
const appDb = reuse || `coinpurse_lists_${suffix}`;
const dataDir = mkdtempSync(join(tmpdir(), 'coinpurse-bench-'));
const children = [];

async function stop(child) {
  if (!child || child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      r();
    }, 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      r();
    });
  });
}

async function cleanup() {
  agent.destroy();
  for (const child of children) await stop(child);
  if (!reuse && !process.env.BENCH_KEEP_DB) await admin(`drop database if exists ${appDb} with (force)`).catch(() => undefined);
  else console.log(`database kept: ${appDb}`);
  rmSync(dataDir, { recursive: true, force: true });
}

function seed() {
  if (reuse) return JSON.parse(process.env.BENCH_REUSE_SEED);
  const run = spawnSync(process.execPath, [seedJs, '--users', String(USERS), '--transactions', String(TRANSACTIONS)], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: dbUrl(appDb), DATA_DIR: dataDir, NODE_ENV: 'development' },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`seed failed: ${run.stdout}\n${run.stderr}`);
  const lines = run.stdout.trim().split('\n');
  for (const line of lines.slice(0, -1)) console.log(`  ${line}`);
  return JSON.parse(lines[lines.length - 1]);
}

/** The SQL each repository sends for a call (captured from the real repository code), then its EXPLAIN (ANALYZE, BUFFERS). */
async function explainAll(url, calls) {
  const pool = new Pool({ connectionString: url, max: 1 });
  // The database is dropped at the end while this idle connection may still be open.
  pool.on('error', () => undefined);
  const captured = [];
  const query = pool.query.bind(pool);
  pool.query = (config, values, callback) => {
    if (config && typeof config === 'object' && typeof config.text === 'string')
      captured.push({ text: config.text, values: config.values ?? (Array.isArray(values) ? values : []) });
    else if (typeof config === 'string') captured.push({ text: config, values: Array.isArray(values) ? values : [] });
    return query(config, values, callback);
  };
  const db = drizzle(pool);
  const load = (path) => requireFromServer(join(serverDir, 'dist', path));
  const { TransactionsRepository } = load('modules/wallet/transactions.repository.js');
  const { WalletUsersRepository } = load('modules/wallet/wallet-users.repository.js');
  const { LedgerRepository } = load('modules/ledger/ledger.repository.js');
  const repos = {
    transactions: new TransactionsRepository(db),
    users: new WalletUsersRepository(db),
    ledger: new LedgerRepository(db),
  };
  const out = new Map();
  for (const call of calls) {
    captured.length = 0;
    await call.sql(repos);
    const statements = [...captured];
    const times = [];
    for (const statement of statements) {
      try {
        const result = await query({ text: `explain (analyze, buffers, format json) ${statement.text}`, values: statement.values });
        const plan = result.rows[0]['QUERY PLAN'][0];
        times.push({ exec: plan['Execution Time'], text: statement.text });
      } catch (error) {
        times.push({ exec: NaN, text: `${statement.text} -- EXPLAIN failed: ${error.message}` });
      }
    }
    out.set(call.name, times);
  }
  await pool.end();
  return out;
}

let exitCode = 0;
try {
  if (!reuse) {
    await admin(`create database ${appDb}`);
    console.log(`seeding ${USERS} users, ${TRANSACTIONS} transactions into ${appDb} …`);
  }
  const seeded = seed();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [mainJs], {
    cwd: serverDir,
    env: benchServerEnv({ port, databaseUrl: dbUrl(appDb), dataDir, adminUser: ADMIN }, { LOG_LEVEL: 'warn' }),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(server);
  await waitForHealth(url, server, 120_000);

  const adminToken = (await api(url, 'POST', '/api/admin/login-admin', undefined, ADMIN)).token;
  const userToken = (await api(url, 'POST', '/api/user/login-user', undefined, { email: seeded.heavyUser.email, password: seeded.password })).token;
  const heavyId = seeded.heavyUser.id;

  // A deep page: the cursor 90 % down the heavy customer's history; a txHash and a name that exist, for the searches.
  const probe = new Client({ connectionString: dbUrl(appDb) });
  await probe.connect();
  const depth = Math.floor(seeded.heavyUser.transactions * 0.9);
  const deepSeq = (await probe.query('select seq from transactions where user_id = $1 order by seq desc offset $2 limit 1', [heavyId, depth])).rows[0]?.seq;
  const txHash = (await probe.query(`select details ->> 'txHash' as h from transactions where details ? 'txHash' order by seq limit 1 offset 7`)).rows[0]?.h;
  await probe.end();
  const search = 'garcia';

  const calls = [
    {
      name: 'get-transaction first page',
      path: '/api/user/get-transaction',
      token: userToken,
      target: 10,
      sql: (r) => r.transactions.list({ userId: heavyId, limit: 51 }),
    },
    {
      name: `get-transaction deep keyset page (${depth} rows down)`,
      path: `/api/user/get-transaction?cursor=${deepSeq}`,
      token: userToken,
      target: 10,
      sql: (r) => r.transactions.list({ userId: heavyId, beforeSeq: Number(deepSeq), limit: 51 }),
    },
    {
      name: 'get-user-balance',
      path: '/api/user/get-user-balance',
      token: userToken,
      target: 20,
      sql: async (r) => {
        await r.ledger.customerBalances([heavyId]);
      },
    },
    { name: 'admin transactions', path: '/api/admin/transaction', token: adminToken, target: 20, sql: (r) => r.transactions.list({ limit: 51 }) },
    {
      name: 'admin transactions token+type+status',
      path: '/api/admin/transaction?token=bitcoin&type=withdrawal&status=pending',
      token: adminToken,
      target: 20,
      sql: (r) => r.transactions.list({ token: 'bitcoin', type: 'withdrawal', status: 'pending', limit: 51 }),
    },
    {
      name: 'admin transactions type=adjustment (none)',
      path: '/api/admin/transaction?type=adjustment',
      token: adminToken,
      target: 20,
      sql: (r) => r.transactions.list({ type: 'adjustment', limit: 51 }),
    },
    {
      name: 'admin transactions status=rejected',
      path: '/api/admin/transaction?status=rejected',
      token: adminToken,
      target: 20,
      sql: (r) => r.transactions.list({ status: 'rejected', limit: 51 }),
    },
    {
      name: 'admin transactions user',
      path: `/api/admin/transaction?userId=${heavyId}`,
      token: adminToken,
      target: 20,
      sql: (r) => r.transactions.list({ userId: heavyId, limit: 51 }),
    },
    {
      name: `admin transactions search name "${search}"`,
      path: `/api/admin/transaction?search=${search}`,
      token: adminToken,
      target: 20,
      sql: (r) => r.transactions.list({ search, limit: 51 }),
    },
    {
      name: 'admin transactions search txHash',
      path: `/api/admin/transaction?search=${txHash}`,
      token: adminToken,
      target: 20,
      sql: (r) => r.transactions.list({ search: txHash, limit: 51 }),
    },
    {
      name: 'admin transactions search (no match)',
      path: '/api/admin/transaction?search=zzqx',
      token: adminToken,
      target: 20,
      sql: (r) => r.transactions.list({ search: 'zzqx', limit: 51 }),
    },
    {
      name: 'get-users',
      path: '/api/user/get-users',
      token: adminToken,
      target: 20,
      sql: async (r) => {
        const rows = await r.users.listActiveCustomers(51, undefined);
        await r.ledger.customerBalances(rows.slice(0, 50).map((u) => u.id));
      },
    },
    {
      name: `get-users search "${search}"`,
      path: `/api/user/get-users?search=${search}`,
      token: adminToken,
      target: 20,
      sql: async (r) => {
        const rows = await r.users.listActiveCustomers(51, undefined, undefined, search);
        await r.ledger.customerBalances(rows.slice(0, 50).map((u) => u.id));
      },
    },
    {
      name: 'get-users search (no match)',
      path: '/api/user/get-users?search=zzqx',
      token: adminToken,
      target: 20,
      sql: (r) => r.users.listActiveCustomers(51, undefined, undefined, 'zzqx'),
    },
  ];

  // Each call's first answer: its rows (or the error it gives: a query slower than the server's statement timeout
  // answers 503, and is then measured and reported as failing).
  let anchorBody;
  for (const call of calls) {
    const response = await timedGet(url, call.path, call.token);
    const body = response.status === 200 ? JSON.parse(response.body.toString()) : undefined;
    call.rows = body === undefined ? `status ${response.status}` : Array.isArray(body) ? `${body.length} rows` : 'one object';
    if (call === calls[0]) anchorBody = response.body;
  }

  // The anchor: a bare node:http server (its own process) sending the bytes of the first history page.
  const barePort = await freePort();
  const bareScript = `const body = Buffer.from(${JSON.stringify(anchorBody.toString('base64'))}, 'base64');
require('node:http').createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }); res.end(body); }).listen(${barePort}, '127.0.0.1');`;
  const bare = spawn(process.execPath, ['-e', bareScript], { stdio: 'ignore' });
  children.push(bare);
  const bareUrl = `http://127.0.0.1:${barePort}`;
  for (let i = 0; i < 50; i++) {
    try {
      await timedGet(bareUrl, '/', undefined);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const measured = [{ name: 'bare node:http (same bytes as a history page)', path: '/', base: bareUrl }, ...calls];
  const samples = new Map(measured.map((m) => [m.name, []]));
  const failures = new Map(measured.map((m) => [m.name, 0]));
  const warmUp = Math.min(10, Math.ceil(REQUESTS / 10));
  for (let round = -warmUp; round < REQUESTS; round++) {
    for (const m of measured) {
      const response = await timedGet(m.base ?? url, m.path, m.token);
      if (round < 0) continue; // the first rounds warm up
      samples.get(m.name).push(response.ms);
      if (response.status !== 200) failures.set(m.name, failures.get(m.name) + 1);
    }
  }

  const explained = await explainAll(dbUrl(appDb), calls);
  console.log(
    `lists over HTTP (PostgreSQL; ${seeded.users} users, ${seeded.transactions} transactions, heavy customer ${seeded.heavyUser.transactions}; ${REQUESTS} sequential requests per call, interleaved; load generator on the same 2 cores):`,
  );
  const bareP95 = percentile(samples.get(measured[0].name), 95);
  console.log(`${measured[0].name}: p95 ${bareP95.toFixed(2)} ms (anchor)`);
  for (const call of calls) {
    const p95 = percentile(samples.get(call.name), 95);
    const p50 = percentile(samples.get(call.name), 50);
    const sqlMs = explained
      .get(call.name)
      .map((t) => t.exec.toFixed(2))
      .join(' + ');
    console.log(
      `${call.name}: p95 ${p95.toFixed(2)} ms (target < ${call.target} ms${p95 < call.target && !failures.get(call.name) ? ', met' : ', NOT met'}; p50 ${p50.toFixed(2)} ms; bare node:http p95 ${bareP95.toFixed(2)} ms; ${call.rows}${failures.get(call.name) ? `, ${failures.get(call.name)} of ${REQUESTS} requests failed` : ''}; SQL execution ${sqlMs} ms)`,
    );
    if (process.env.BENCH_SHOW_SQL) for (const t of explained.get(call.name)) console.log(`    ${t.text}`);
  }
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  await cleanup();
  process.exitCode = exitCode;
}
