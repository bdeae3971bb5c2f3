// Pieces every benchmark script shares: ports, the PostgreSQL databases it creates, the server's health and its API.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const serverDir = join(root, 'packages', 'server');
/** Packages the server depends on (pg, autocannon), resolved from its folder. */
export const requireFromServer = createRequire(join(serverDir, 'package.json'));
const { Client } = requireFromServer('pg');

/** The PostgreSQL server the benches use, and a database named `name` on it. */
export const BASE_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
export function dbUrl(name) {
  const url = new URL(BASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs one statement on the server's maintenance database (create or drop a database). */
export async function admin(sql) {
  const client = new Client({ connectionString: BASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Polls `/api/health` until it answers 200; fails early when the server process exits. */
export async function waitForHealth(url, child, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not become healthy');
}

/**
 * One JSON call to the app; throws with the status and body on anything but 2xx. A GET is sent again once when the
 * server had closed the kept-alive connection it went out on (idle since the last call: the server's keep-alive
 * timeout and the client's are a race on an idle socket).
 */
export async function api(url, method, path, token, body, retried = false) {
  let response;
  try {
    response = await fetch(`${url}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    if (method !== 'GET' || retried || error?.cause?.code !== 'UND_ERR_SOCKET') throw error;
    return api(url, method, path, token, body, true);
  }
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/**
 * The environment of a production server under benchmark: fresh secrets, a password-only admin (no 2FA enrolment),
 * no market refresh or provider, auth limits out of the way. `extra` adds or overrides.
 */
export function benchServerEnv({ port, databaseUrl, dataDir, adminUser }, extra = {}) {
  return {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    ADMIN_REQUIRE_2FA: 'false',
    ADMIN_EMAIL: adminUser.email,
    ADMIN_PASSWORD: adminUser.password,
    MARKET_REFRESH_SECONDS: '0',
    COINGECKO_BASE_URL: 'http://127.0.0.1:9',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    ...extra,
  };
}

/** The built server (`dist/main.js`), or exit with how to build it. */
export function builtServer() {
  const mainJs = join(serverDir, 'dist', 'main.js');
  if (!existsSync(mainJs)) {
    console.error(`No built server at ${mainJs}: run pnpm build first.`);
    process.exit(1);
  }
  return mainJs;
}

/** A suffix for this run's database names and e-mail addresses (several runs may share a PostgreSQL server). */
export const runSuffix = () => `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;

/** Exits with how to install pgbench when it is missing. */
export function requirePgbench() {
  if (spawnSync('pgbench', ['--version']).status !== 0) {
    console.error('pgbench is missing: apt-get install -y postgresql-contrib (Debian), then run again.');
    process.exit(1);
  }
}

/** pgbench's tables in `database` at `scale` (at least the client count, as pgbench's manual advises). */
export function pgbenchInit(database, scale) {
  const init = spawnSync('pgbench', ['-i', '-q', '-s', String(scale), dbUrl(database)], { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`pgbench -i failed: ${init.stderr}`);
}

/** One pgbench run on `database` (`extra`: -N, -f script, …; none: TPC-B); its transactions per second. */
export function pgbench(database, { clients, seconds }, extra = []) {
  const run = spawnSync('pgbench', ['-c', String(clients), '-j', '2', '-T', String(seconds), '-n', ...extra, dbUrl(database)], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`pgbench ${extra.join(' ')} failed: ${run.stderr}`);
  const match = /tps = ([\d.]+) \(without initial connection time\)/.exec(run.stdout) ?? /tps = ([\d.]+)/.exec(run.stdout);
  return Number(match?.[1] ?? NaN);
}
