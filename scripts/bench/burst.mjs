// One customer's burst must not starve the others (issue 23). On PostgreSQL, a bystander customer makes ordinary calls
// one after another (a balance read, then a swap) while customer A fires BENCH_BURST (1000) concurrent sends on a
// 100 USD balance; the same bystander calls without a burst, in the same run, are the anchor. Printed: the bystander's
// p99 during the burst (target < 250 ms, as in test/integration/wallet-burst.test.ts), and what the burst got back.
// Run after `pnpm build`. Env: BENCH_DATABASE_URL, BENCH_BURST (1000), BENCH_ROUNDS (3).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { figure, median, SHARED_CORES_NOTE } from './figures.mjs';
import { admin, api, benchServerEnv, dbUrl, freePort, requireFromServer, serverDir, waitForHealth } from './harness.mjs';

const { Client } = requireFromServer('pg');
const BURST = Number(process.env.BENCH_BURST || 1000);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS || 3));
const ADMIN = { email: 'burst-admin@coinpurse.local', password: 'burst-admin-password-1' };
const mainJs = join(serverDir, 'dist', 'main.js');
if (!existsSync(mainJs)) {
  console.error(`No built server at ${mainJs}: run pnpm build first.`);
  process.exit(1);
}
const suffix = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const appDb = `coinpurse_burst_${suffix}`;
const dataDir = mkdtempSync(join(tmpdir(), 'coinpurse-burst-'));
let child;

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/**
 * `count` concurrent POSTs from a worker thread (its own event loop, as another client machine would be: the burst's
 * client work does not delay the bystander's timings); resolves with each answer's status.
 */
function burstFromWorker(target, token, count, body) {
  const code = `
    const { parentPort, workerData: { target, token, count, body } } = require('node:worker_threads');
    Promise.all(Array.from({ length: count }, async () => {
      const response = await fetch(target, { method: 'POST', headers: { Authorization: 'Bearer ' + token, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      await response.arrayBuffer();
      return response.status;
    })).then((statuses) => parentPort.postMessage(statuses), (error) => parentPort.postMessage({ error: String(error) }));
  `;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData: { target, token, count, body } });
    worker.once('message', (message) => {
      void worker.terminate();
      if (Array.isArray(message)) resolve(message);
      else reject(new Error(message.error));
    });
    worker.once('error', reject);
  });
}

async function timed(url, method, path, token, body) {
  const started = performance.now();
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

try {
  console.log(`Bystander latency during one customer's burst of ${BURST} concurrent sends (PostgreSQL), ${ROUNDS} round(s), median shown.`);
  console.log(SHARED_CORES_NOTE);
  await admin(`create database ${appDb}`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = benchServerEnv({ port, databaseUrl: dbUrl(appDb), dataDir, adminUser: ADMIN }, { APPROVAL_THRESHOLD_USD: '0' });
  child = spawn(process.execPath, [mainJs], { cwd: serverDir, env, stdio: ['ignore', 'ignore', 'inherit'] });
  await waitForHealth(url, child);
  const db = new Client({ connectionString: dbUrl(appDb) });
  await db.connect();
  for (const [id, symbol, name, price] of [
    ['bitcoin', 'btc', 'Bitcoin', '50000'],
    ['ethereum', 'eth', 'Ethereum', '2500'],
  ]) {
    await db.query(
      `insert into coins (id, symbol, name, image, current_price, last_updated, source) values ($1, $2, $3, '', $4, now(), 'live')
       on conflict (id) do update set current_price = excluded.current_price, last_updated = now(), source = 'live'`,
      [id, symbol, name, price],
    );
    await db.query(
      `insert into supported_tokens (coin_id) select $1::text where not exists (select 1 from supported_tokens where coin_id = $1::text and deleted_at is null)`,
      [id],
    );
  }
  // The bitcoin network of the token (sends need one), as the app's seed gives it.
  await db.query(
    `insert into token_networks (id, token_id, network, address) select id, id, 'bitcoin', address from supported_tokens where coin_id = 'bitcoin' and deleted_at is null on conflict do nothing`,
  );
  await db.end();
  const adminSession = await api(url, 'POST', '/api/admin/login-admin', undefined, ADMIN);
  const customer = async (name) => {
    const session = await api(url, 'POST', '/api/user/create-user', undefined, {
      name,
      email: `${name.toLowerCase()}.${suffix}@example.com`,
      password: 'burst-password-1',
      country: 'DE',
    });
    return session;
  };

  const bystanderCalls = async (token, stop) => {
    const latencies = [];
    const failures = [];
    while (!stop()) {
      for (const call of [
        () => timed(url, 'GET', '/api/user/get-user-balance', token),
        () =>
          timed(url, 'POST', '/api/crypto/swap', token, {
            amount: '1.00',
            from: latencies.length % 4 ? 'bitcoin' : 'ethereum',
            to: latencies.length % 4 ? 'ethereum' : 'bitcoin',
          }),
      ]) {
        const { status, ms } = await call();
        latencies.push(ms);
        if (status >= 300) failures.push(status);
      }
    }
    return { latencies, failures };
  };

  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const burster = await customer(`Burster${round}`);
    const bystander = await customer(`Bystander${round}`);
    await api(url, 'POST', `/api/admin/update-balance/${burster._id}`, adminSession.token, {
      token: 'bitcoin',
      amount: '100',
      type: 'yes',
      msg: 'burst bench',
    });
    for (const token of ['bitcoin', 'ethereum']) {
      await api(url, 'POST', `/api/admin/update-balance/${bystander._id}`, adminSession.token, { token, amount: '100000', type: 'yes', msg: 'burst bench' });
    }
    // Anchor: the same bystander calls, alone, for as long as a burst takes (about 2 s here).
    const quietUntil = performance.now() + 2000;
    const quiet = await bystanderCalls(bystander.token, () => performance.now() > quietUntil);
    // The burst, and the bystander's calls while it runs.
    let done = false;
    const address = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
    const burst = burstFromWorker(`${url}/api/crypto/send-crypto/bitcoin`, burster.token, BURST, { transferData: { amount: '10', address } }).finally(() => {
      done = true;
    });
    const during = bystanderCalls(bystander.token, () => done);
    const [statuses, loaded] = await Promise.all([burst, during]);
    const count = (predicate) => statuses.filter(predicate).length;
    rounds.push({
      quietP99: percentile(quiet.latencies, 99),
      p99: percentile(loaded.latencies, 99),
      max: Math.max(...loaded.latencies),
      calls: loaded.latencies.length,
      bystanderFailures: loaded.failures,
      accepted: count((s) => s === 201),
      refused4xx: count((s) => s >= 400 && s < 500),
      server5xx: count((s) => s >= 500),
    });
    const r = rounds[rounds.length - 1];
    console.log(
      `  round ${round + 1}: bystander p99 ${r.p99.toFixed(0)} ms (max ${r.max.toFixed(0)}, ${r.calls} calls, ${r.bystanderFailures.length} failed${r.bystanderFailures.length ? `: ${[...new Set(r.bystanderFailures)].join(', ')}` : ''}) vs ${r.quietP99.toFixed(0)} ms alone; burst: ${r.accepted} accepted, ${r.refused4xx} × 4xx, ${r.server5xx} × 5xx`,
    );
  }
  const check = await api(url, 'GET', '/api/admin/ledger/check', adminSession.token);
  const p99 = median(rounds.map((r) => r.p99));
  figure({
    name: `bystander p99 during a ${BURST}-send burst, PostgreSQL`,
    value: p99,
    unit: 'ms',
    anchor: { label: 'same calls alone', value: median(rounds.map((r) => r.quietP99)) },
    target: '< 250 ms, no 5xx',
    met: p99 < 250 && rounds.every((r) => r.server5xx === 0 && r.bystanderFailures.length === 0),
    detail: `burst: ${rounds.map((r) => `${r.accepted} accepted / ${r.refused4xx} 4xx / ${r.server5xx} 5xx`).join('; ')}; ledger check ${check.ok ? 'clean' : 'NOT clean'}`,
  });
} finally {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  await admin(`drop database if exists ${appDb} with (force)`).catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
}
