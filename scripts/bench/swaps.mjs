// Swaps per second over HTTP on PostgreSQL (32 concurrent clients) next to the floor for the same rows (issue 36), in the
// same run: BENCH_ROUNDS (3) interleaved rounds of swaps, swaps with a fee schedule (FEE_SCHEDULE: spread, fee and its
// minimum, set on the Fees API between runs), the floor (swap-floor-statement.mjs: a swap's rows written by one plain
// statement per transaction, pgbench -f, on the same database, the server stopped meanwhile with SIGSTOP so that its
// idle work does not count against the floor), `pgbench -N` and TPC-B (printed for comparison). Medians shown; the
// swaps/floor ratio is the median of the rounds' ratios. Target: swaps ≥ 0.6 of the floor with p99 < 100 ms.
// Run after `pnpm build`. Env: BENCH_DATABASE_URL (default TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres),
// BENCH_SECONDS (8 per run), BENCH_CLIENTS (32), BENCH_PGBENCH_SCALE (32: at least the client count, as pgbench's manual advises).
// BENCH_INSTANCES (1): a bench-only evaluation of several server processes on the same database, the clients split
// evenly between them (the figure then says so; the product starts one process).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { figure, median, SHARED_CORES_NOTE } from './figures.mjs';
import {
  admin,
  api,
  benchServerEnv,
  builtServer,
  dbUrl,
  freePort,
  pgbench,
  pgbenchInit,
  requireFromServer,
  requirePgbench,
  runSuffix,
  serverDir,
  waitForHealth,
} from './harness.mjs';
import { checkFloorScript, floorScript, floorTemplate, PAIRS, PRICES } from './swap-floor-statement.mjs';

const { Client } = requireFromServer('pg');
const autocannon = requireFromServer('autocannon');

const SECONDS = Number(process.env.BENCH_SECONDS || 8);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS || 3));
const CLIENTS = Number(process.env.BENCH_CLIENTS || 32);
const SCALE = Number(process.env.BENCH_PGBENCH_SCALE || 32);
const INSTANCES = Math.max(1, Number(process.env.BENCH_INSTANCES || 1));
const ADMIN = { email: 'bench-admin@coinpurse.local', password: 'bench-admin-password-1' };
/** The non-zero schedule measured next to the zero one (issue 34): 0.5 % spread, 0.1 % fee, at least 0.50 USD. */
const FEE_SCHEDULE = { swapSpreadBps: 50, swapFeeBps: 10, swapFeeMinUsd: '0.5' };
const ZERO_SCHEDULE = { swapSpreadBps: null, swapFeeBps: null, swapFeeMinUsd: null };

const mainJs = builtServer();
const suffix = runSuffix();
const appDb = `coinpurse_bench_${suffix}`;
const pgbenchDb = `coinpurse_pgbench_${suffix}`;
const dataDir = mkdtempSync(join(tmpdir(), 'coinpurse-bench-'));
/** The server processes (one unless BENCH_INSTANCES says more). */
const children = [];

/** A process's CPU time so far (user + system, ms; Linux /proc, clock ticks of 10 ms), or NaN elsewhere. */
function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}
const serverCpuMs = () => children.reduce((sum, child) => sum + cpuMsOf(child.pid), 0);

/** CPU time so far of each PostgreSQL backend serving the app's database (their process title names it), by pid. */
function backendCpuMs() {
  const out = new Map();
  try {
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      let title = '';
      try {
        title = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        continue;
      }
      if (title.startsWith('postgres:') && title.includes(` ${appDb} `)) out.set(pid, cpuMsOf(pid));
    }
  } catch {
    // not Linux
  }
  return out;
}

/** The whole machine's CPU time so far, busy and in total (Linux /proc/stat, ms summed over cores), or NaN elsewhere. */
function machineCpuMs() {
  try {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    const ticks = fields.slice(0, 8).map(Number);
    const total = ticks.reduce((a, b) => a + b, 0);
    // idle and iowait are not busy
    return { busy: (total - ticks[3] - ticks[4]) * 10, total: total * 10 };
  } catch {
    return { busy: NaN, total: NaN };
  }
}

/** Busy machine CPU (ms, all processes: server, PostgreSQL, load generator) while `work` runs, and its result. */
async function withMachineCpu(work) {
  const before = machineCpuMs();
  const result = await work();
  return { result, busyMs: machineCpuMs().busy - before.busy };
}

async function stop(child) {
  if (child.exitCode !== null) return;
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
  await Promise.all(children.map(stop));
  for (const name of [appDb, pgbenchDb]) await admin(`drop database if exists ${name} with (force)`).catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
}

async function benchSwaps() {
  await admin(`create database ${appDb}`);
  const ports = [];
  for (let i = 0; i < INSTANCES; i++) ports.push(await freePort());
  const urls = ports.map((port) => `http://127.0.0.1:${port}`);
  const url = urls[0];
  // One environment (the same secrets) for every instance: a session from one is valid on the others.
  const env = benchServerEnv(
    { port: ports[0], databaseUrl: dbUrl(appDb), dataDir, adminUser: ADMIN },
    {
      // The bench funds its customers with large admin credits: no four-eyes approval for them.
      APPROVAL_THRESHOLD_USD: '0',
    },
  );
  for (let i = 0; i < INSTANCES; i++) {
    const child = spawn(process.execPath, [mainJs], { cwd: serverDir, env: { ...env, PORT: String(ports[i]) }, stdio: ['ignore', 'ignore', 'inherit'] });
    children.push(child);
    // One at a time: the first applies the migrations.
    await waitForHealth(urls[i], child);
  }

  // Prices: fresh and known (production refuses stale ones); the three default tokens supported.
  const db = new Client({ connectionString: dbUrl(appDb) });
  await db.connect();
  for (const [id, symbol, name] of [
    ['bitcoin', 'btc', 'Bitcoin'],
    ['ethereum', 'eth', 'Ethereum'],
    ['tether', 'usdt', 'Tether'],
  ]) {
    await db.query(
      `insert into coins (id, symbol, name, image, current_price, last_updated, source) values ($1, $2, $3, '', $4, now(), 'live')
       on conflict (id) do update set current_price = excluded.current_price, last_updated = now(), source = 'live'`,
      [id, symbol, name, String(PRICES[id])],
    );
    await db.query(
      `insert into supported_tokens (coin_id) select $1::text where not exists (select 1 from supported_tokens where coin_id = $1::text and deleted_at is null)`,
      [id],
    );
  }

  const adminSession = await api(url, 'POST', '/api/admin/login-admin', undefined, ADMIN);
  const users = [];
  const userIds = [];
  for (let i = 0; i < CLIENTS; i++) {
    const session = await api(url, 'POST', '/api/user/create-user', undefined, {
      name: `Bench ${i}`,
      email: `bench.${i}.${suffix}@example.com`,
      password: 'bench-password-1',
      country: 'DE',
    });
    for (const token of ['bitcoin', 'ethereum', 'tether']) {
      await api(url, 'POST', `/api/admin/update-balance/${session._id}`, adminSession.token, { token, amount: '1000000', type: 'yes', msg: 'bench funding' });
    }
    // Every customer account a swap of the pairs touches exists from here on (the floor's statement needs them).
    await api(url, 'POST', '/api/crypto/swap', session.token, { amount: '10.00', from: 'tether', to: 'bitcoin' });
    await api(url, 'POST', '/api/crypto/swap', session.token, { amount: '10.00', from: 'bitcoin', to: 'ethereum' });
    users.push(session.token);
    userIds.push(session._id);
  }
  const floorFile = join(dataDir, 'swap-floor.sql');
  writeFileSync(floorFile, floorScript(await floorTemplate(db, userIds)));
  await db.end();
  checkFloorScript(appDb, floorFile);

  let nextUser = 0;
  const runOne = (target, connections, duration) =>
    new Promise((resolve, reject) => {
      autocannon(
        {
          url: target,
          connections,
          duration,
          requests: [
            {
              method: 'POST',
              path: '/api/crypto/swap',
              setupRequest: (request, context) => {
                if (context.user === undefined) {
                  context.user = nextUser++ % users.length;
                  context.n = 0;
                }
                const [from, to] = PAIRS[(context.user + context.n++) % PAIRS.length];
                return {
                  ...request,
                  headers: { 'content-type': 'application/json', authorization: `Bearer ${users[context.user]}` },
                  body: JSON.stringify({ amount: '10.00', from, to }),
                };
              },
            },
          ],
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      );
    });
  /** The clients split evenly over the instances; latencies: the slowest instance's. */
  const run = async (duration) => {
    const results = await Promise.all(urls.map((target, i) => runOne(target, Math.floor(CLIENTS / INSTANCES) + (i < CLIENTS % INSTANCES ? 1 : 0), duration)));
    const sum = (pick) => results.reduce((total, r) => total + pick(r), 0);
    return {
      '2xx': sum((r) => r['2xx']),
      non2xx: sum((r) => r.non2xx),
      errors: sum((r) => r.errors),
      latency: { p50: Math.max(...results.map((r) => r.latency.p50)), p99: Math.max(...results.map((r) => r.latency.p99)) },
    };
  };
  await run(3); // warm-up
  pgbench(appDb, { clients: CLIENTS, seconds: 2 }, ['-f', floorFile]); // the floor's warm-up
  // Rounds start from a vacuumed, analysed database: autovacuum catching up on the set-up's rows would otherwise land
  // in the first round (swaps or floor, whichever it meets).
  const vacuum = new Client({ connectionString: dbUrl(appDb) });
  await vacuum.connect();
  await vacuum.query('vacuum analyze');
  await vacuum.end();
  return {
    async round() {
      const cpuBefore = serverCpuMs();
      const backendsBefore = backendCpuMs();
      const result = await run(SECONDS);
      const cpuMs = serverCpuMs() - cpuBefore;
      let dbMs = 0;
      for (const [pid, ms] of backendCpuMs()) dbMs += ms - (backendsBefore.get(pid) ?? 0);
      return {
        cpuMsPerSwap: result['2xx'] ? cpuMs / result['2xx'] : NaN,
        dbCpuMsPerSwap: result['2xx'] ? dbMs / result['2xx'] : NaN,
        cpuCores: cpuMs / 1000 / SECONDS,
        swapsPerSecond: result['2xx'] / SECONDS,
        ok: result['2xx'],
        non2xx: result.non2xx,
        errors: result.errors,
        p50: result.latency.p50,
        p99: result.latency.p99,
      };
    },
    /** The default row of the fee schedule (no four-eyes: APPROVAL_THRESHOLD_USD is 0 here). */
    async setSchedule(body) {
      await api(url, 'PUT', '/api/admin/fees/*', adminSession.token, body);
    },
    /** The floor on the same database, the server processes stopped (SIGSTOP) meanwhile: PostgreSQL alone. */
    floor() {
      for (const child of children) child.kill('SIGSTOP');
      try {
        return pgbench(appDb, { clients: CLIENTS, seconds: SECONDS }, ['-f', floorFile]);
      } finally {
        for (const child of children) child.kill('SIGCONT');
      }
    },
    async finish() {
      const check = await api(url, 'GET', '/api/admin/ledger/check', adminSession.token);
      await Promise.all(children.map(stop));
      return check.ok;
    },
  };
}

/** One pgbench run on its own database: TPC-B by default, `-N` skips the tellers/branches updates (one account update per transaction). */
const pgbenchRun = (extra = []) => pgbench(pgbenchDb, { clients: CLIENTS, seconds: SECONDS }, extra);

try {
  requirePgbench();
  console.log(
    `Swaps over HTTP (PostgreSQL, ${CLIENTS} clients${INSTANCES > 1 ? `, BENCH-ONLY: ${INSTANCES} server processes` : ''}) vs pgbench at ${CLIENTS} clients (scale ${SCALE}), ${SECONDS} s per run, ${ROUNDS} interleaved round(s), median shown.`,
  );
  console.log(SHARED_CORES_NOTE);
  const swaps = await benchSwaps();
  await admin(`create database ${pgbenchDb}`);
  pgbenchInit(pgbenchDb, SCALE);
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Interleaved, so load from elsewhere on the machine hits each alike.
    const swap = await withMachineCpu(() => swaps.round());
    await swaps.setSchedule(FEE_SCHEDULE);
    const withFees = await swaps.round();
    await swaps.setSchedule(ZERO_SCHEDULE);
    const floor = await withMachineCpu(async () => swaps.floor());
    const simple = await withMachineCpu(async () => pgbenchRun(['-N']));
    rounds.push({
      swap: { ...swap.result, machineMsPerSwap: swap.busyMs / (swap.result.swapsPerSecond * SECONDS) },
      withFees,
      floor: floor.result,
      floorMachineMs: floor.busyMs / (floor.result * SECONDS),
      simple: simple.result,
      simpleMachineMs: simple.busyMs / (simple.result * SECONDS),
      tpcb: pgbenchRun(),
    });
  }
  const ledgerOk = await swaps.finish();
  const swapRate = median(rounds.map((r) => r.swap.swapsPerSecond));
  const simple = median(rounds.map((r) => r.simple));
  const tpcb = median(rounds.map((r) => r.tpcb));
  const bad = rounds.reduce((sum, r) => sum + r.swap.non2xx + r.swap.errors + r.withFees.non2xx + r.withFees.errors, 0);
  const feeRate = median(rounds.map((r) => r.withFees.swapsPerSecond));
  const floor = median(rounds.map((r) => r.floor));
  const floorRatio = median(rounds.map((r) => r.swap.swapsPerSecond / r.floor));
  const p99 = median(rounds.map((r) => r.swap.p99));
  figure({
    name: `swaps/s over HTTP vs the floor, PostgreSQL, 32 clients${INSTANCES > 1 ? ` (bench-only: ${INSTANCES} server processes)` : ''}`,
    value: swapRate,
    anchor: { label: "swap floor (a swap's rows, one statement)", value: floor, unit: 'tps' },
    ratio: floorRatio,
    target: '≥ 0.6 of anchor, p99 < 100 ms',
    met: floorRatio >= 0.6 && p99 < 100,
    detail: `runs ${rounds.map((r) => r.swap.swapsPerSecond.toFixed(0)).join(' / ')} vs floor ${rounds.map((r) => r.floor.toFixed(0)).join(' / ')}; p50 ${median(rounds.map((r) => r.swap.p50))} ms, p99 ${p99} ms; server CPU ${median(rounds.map((r) => r.swap.cpuMsPerSwap)).toFixed(2)} ms/swap (${median(rounds.map((r) => r.swap.cpuCores)).toFixed(2)} cores), PostgreSQL backends ${median(rounds.map((r) => r.swap.dbCpuMsPerSwap)).toFixed(2)} ms/swap; ${bad} non-2xx/errors; ledger check ${ledgerOk ? 'clean' : 'NOT CLEAN'}`,
  });
  figure({
    name: 'swaps/s vs pgbench -N',
    value: swapRate,
    anchor: { label: 'pgbench -N', value: simple, unit: 'tps' },
    target: 'none (printed for comparison)',
  });
  figure({
    name: 'swaps/s with a fee schedule (spread 50 bp, fee 10 bp, min 0.50 USD)',
    value: feeRate,
    anchor: { label: 'swaps/s, zero schedule', value: swapRate, unit: '/s' },
    target: '≥ 0.9 of anchor',
    met: feeRate / swapRate >= 0.9,
    detail: `runs ${rounds.map((r) => r.withFees.swapsPerSecond.toFixed(0)).join(' / ')}; p99 ${median(rounds.map((r) => r.withFees.p99))} ms; server CPU ${median(rounds.map((r) => r.withFees.cpuMsPerSwap)).toFixed(2)} ms/swap, PostgreSQL backends ${median(rounds.map((r) => r.withFees.dbCpuMsPerSwap)).toFixed(2)} ms/swap (each run right after a zero-schedule run)`,
  });
  figure({ name: 'swaps/s vs TPC-B', value: swapRate, anchor: { label: 'pgbench TPC-B', value: tpcb, unit: 'tps' }, target: 'none (printed for comparison)' });
  console.log(
    `  pgbench -N runs ${rounds.map((r) => r.simple.toFixed(0)).join(' / ')} tps; TPC-B runs ${rounds.map((r) => r.tpcb.toFixed(0)).join(' / ')} tps`,
  );
  // Why the ratio is what it is: the machine's busy CPU per swap against per floor transaction (both load generators
  // included). At ≥ 0.6 of the floor the whole machine may spend at most 1/0.6 of a floor transaction's CPU on a swap.
  const machinePerSwap = median(rounds.map((r) => r.swap.machineMsPerSwap));
  const machinePerFloor = median(rounds.map((r) => r.floorMachineMs));
  const server = median(rounds.map((r) => r.swap.cpuMsPerSwap));
  const database = median(rounds.map((r) => r.swap.dbCpuMsPerSwap));
  console.log(
    `  CPU per operation, whole machine: swap ${machinePerSwap.toFixed(2)} ms (server ${server.toFixed(2)}, PostgreSQL ${database.toFixed(2)}, load generator and the rest ${(machinePerSwap - server - database).toFixed(2)}) vs floor transaction ${machinePerFloor.toFixed(2)} ms; 0.6 of the floor allows ${(machinePerFloor / 0.6).toFixed(2)} ms per swap`,
  );
  if (!ledgerOk || bad) process.exitCode = 1;
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await cleanup();
}
