// Cold start and idle memory: `node packages/server/dist/main.js` to the first 200 on /api/health, on a fresh PGlite
// data directory, on the same directory reopened, and on an already migrated PostgreSQL database; then the resident
// memory (RSS) of the idle server. Anchor: a bare node:http process, started and asked the same way in the same round
// (the floor any Node server pays). Rounds are interleaved (BENCH_ROUNDS, default 3); medians are shown.
// Run after `pnpm build`: `node scripts/bench/coldstart.mjs` (or `pnpm bench coldstart`).
// Env: BENCH_DATABASE_URL (default TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres; unreachable → the
// PostgreSQL figures are skipped), BENCH_IDLE_SECONDS (3: how long the server idles before RSS is read),
// BENCH_MAIN (the build to measure; default packages/server/dist/main.js), BENCH_BASELINE_MAIN (another build's main.js,
// e.g. of main, measured alongside in the same rounds).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { figure, median, SHARED_CORES_NOTE } from './figures.mjs';
import { admin, BASE_URL, dbUrl, freePort, requireFromServer, serverDir } from './harness.mjs';

const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const IDLE_MS = Number(process.env.BENCH_IDLE_SECONDS ?? 3) * 1000;
const TARGETS = { fresh: 3000, reopened: 1500, postgres: 1000, rss: 150 };

const mainJs = process.env.BENCH_MAIN || join(serverDir, 'dist', 'main.js');
if (!existsSync(mainJs)) {
  console.error(`No built server at ${mainJs}: run \`pnpm build\` first.`);
  process.exit(1);
}
const builds = [{ label: '', main: mainJs }];
if (process.env.BENCH_BASELINE_MAIN) builds.push({ label: ' [baseline]', main: process.env.BENCH_BASELINE_MAIN });

const work = mkdtempSync(join(tmpdir(), 'coinpurse-bench-coldstart-'));
const children = new Set();
const databases = [];
async function cleanup() {
  for (const child of children) child.kill('SIGKILL');
  for (const name of databases) await admin(`drop database if exists ${name} with (force)`).catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
}
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    cleanup().finally(() => process.exit(130));
  });

/** CPU time (user + system, all threads) the process has used so far, in ms: steadier than wall time on busy cores. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
}

/** Starts `args`, polls `path` every 10 ms until a 200, idles, reads RSS, stops it. Returns { ms, cpu, rss }. */
async function coldStart(args, env, path) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: serverDir, env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.add(child);
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const url = `http://127.0.0.1:${port}${path}`;
  let ms;
  let cpu;
  while (ms === undefined) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}: ${stderr}`);
    if (performance.now() - started > 120_000) throw new Error(`${url} did not answer 200 within 120 s`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status === 200) {
        ms = performance.now() - started;
        cpu = cpuMs(child.pid);
      }
    } catch {
      // not listening yet
    }
    if (ms === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const rss = rssMb(child.pid);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
  children.delete(child);
  return { ms, cpu, rss };
}

const appEnv = {
  NODE_ENV: 'production',
  JWT_SECRET: randomBytes(48).toString('base64url'),
  ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  // Benchmarks sign the admin in with a password only.
  ADMIN_REQUIRE_2FA: 'false',
  MARKET_REFRESH_SECONDS: '0',
  COINGECKO_BASE_URL: 'http://127.0.0.1:9',
  LOG_LEVEL: 'warn',
};
const bareScript = join(work, 'bare.cjs');
writeFileSync(bareScript, `require('node:http').createServer((req, res) => res.end('ok')).listen(Number(process.env.PORT), '127.0.0.1');\n`);
// The floor under "idle RSS, PGlite": PGlite alone (the app's start parameters, the app's data directory, one query)
// behind a bare node:http server — what any process embedding this database holds before the app adds anything.
// Its start parameters are PGLITE_START_PARAMS of packages/server/src/db/pglite-seed.ts (TypeScript: repeated here).
const pgliteAloneScript = join(work, 'pglite-alone.cjs');
writeFileSync(
  pgliteAloneScript,
  `const { PGlite } = require(${JSON.stringify(requireFromServer.resolve('@electric-sql/pglite'))});
const db = new PGlite(require('node:path').join(process.env.DATA_DIR, 'pglite'), { startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'] });
db.query('select 1').then(() => require('node:http').createServer((req, res) => res.end('ok')).listen(Number(process.env.PORT), '127.0.0.1'));
`,
);

let postgres = true;
try {
  await admin('select 1');
} catch (error) {
  postgres = false;
  console.log(`PostgreSQL at ${BASE_URL} not reachable (${error.message}): PostgreSQL figures skipped.`);
}
try {
  console.log(
    `Cold start: spawn → first 200 on /api/health (polled every 10 ms), then ${IDLE_MS / 1000} s idle → RSS; ${ROUNDS} interleaved round(s), median shown.`,
  );
  console.log(SHARED_CORES_NOTE);
  // Each build gets its own PostgreSQL database, migrated by one start before the rounds (that start is shown too).
  for (const build of builds) {
    if (!postgres) continue;
    build.database = `coinpurse_bench_cold_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    await admin(`create database ${build.database}`);
    databases.push(build.database);
    build.postgresFirst = await coldStart([build.main], { ...appEnv, DATABASE_URL: dbUrl(build.database), DATA_DIR: join(work, 'unused') }, '/api/health');
  }
  const samples = new Map();
  const add = (key, value) => samples.set(key, [...(samples.get(key) ?? []), value]);
  for (let round = 0; round < ROUNDS; round++) {
    const bare = await coldStart([bareScript], {}, '/');
    add('bare', bare);
    for (const [index, build] of builds.entries()) {
      const dataDir = join(work, `pglite-${index}-${round}`);
      const pgliteEnv = { ...appEnv, DATABASE_URL: '', DATA_DIR: dataDir };
      add(`fresh${index}`, await coldStart([build.main], pgliteEnv, '/api/health'));
      add(`reopened${index}`, await coldStart([build.main], pgliteEnv, '/api/health'));
      if (index === 0) add('pgliteAlone', await coldStart([pgliteAloneScript], { DATA_DIR: dataDir }, '/'));
      rmSync(dataDir, { recursive: true, force: true });
      if (postgres)
        add(
          `postgres${index}`,
          await coldStart([build.main], { ...appEnv, DATABASE_URL: dbUrl(build.database), DATA_DIR: join(work, 'unused') }, '/api/health'),
        );
    }
  }
  const med = (key, field) => median((samples.get(key) ?? []).map((s) => s[field]));
  const each = (key, field) => (samples.get(key) ?? []).map((s) => s[field].toFixed(0)).join(' / ');
  const bare = { label: 'bare node:http start', value: med('bare', 'ms'), unit: 'ms' };
  const bareRss = { label: 'bare node:http idle RSS', value: med('bare', 'rss'), unit: 'MB' };
  for (const [index, build] of builds.entries()) {
    const startFigure = (key, name, target) => {
      const value = med(`${key}${index}`, 'ms');
      figure({
        name: `${name}${build.label}`,
        value,
        unit: 'ms',
        anchor: bare,
        target: `< ${target} ms`,
        met: value < target,
        detail: `runs ${each(`${key}${index}`, 'ms')} ms; CPU time to the 200: median ${med(`${key}${index}`, 'cpu').toFixed(0)} ms`,
      });
    };
    startFigure('fresh', 'cold start, fresh PGlite', TARGETS.fresh);
    startFigure('reopened', 'cold start, reopened PGlite', TARGETS.reopened);
    if (postgres) {
      startFigure('postgres', 'cold start, PostgreSQL (migrated)', TARGETS.postgres);
      console.log(`  (first start on the empty PostgreSQL database, migrations included${build.label}: ${build.postgresFirst.ms.toFixed(0)} ms)`);
    }
    const rssFigure = (key, name) => {
      const value = med(`${key}${index}`, 'rss');
      figure({
        name: `${name}${build.label}`,
        value,
        unit: 'MB',
        anchor: bareRss,
        target: `< ${TARGETS.rss} MB`,
        met: value < TARGETS.rss,
        detail: `runs ${each(`${key}${index}`, 'rss')} MB`,
      });
    };
    rssFigure('reopened', 'idle RSS, PGlite');
    if (index === 0)
      console.log(
        `  floor under it: PGlite alone (same data directory and start parameters, one query, bare node:http) idles at ${med('pgliteAlone', 'rss').toFixed(0)} MB (runs ${each('pgliteAlone', 'rss')} MB); its WebAssembly memory cannot start below 128 MB`,
      );
    if (postgres) rssFigure('postgres', 'idle RSS, PostgreSQL');
  }
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await cleanup();
}
