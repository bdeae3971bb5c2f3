// GET /api/crypto/get-crypto throughput, next to a trivial Nest route and a bare node:http server sending the same
// bytes, in the same run. Run after `pnpm build`: `node scripts/bench/get-crypto.mjs` (or `pnpm bench get-crypto`).
//
// - Coinpurse: the built server (`node packages/server/dist/main.js`), PGlite in a temp DATA_DIR, market from the
//   committed offline snapshot (no provider calls: MARKET_REFRESH_SECONDS=0), NODE_ENV=production.
// - Trivial Nest: a separate Nest (Express) app with one route answering the same bytes.
// - Bare node:http: a server answering the same bytes.
// Each target runs in its own process; autocannon (in this process) uses 50 connections for 5 s per run after a 1 s
// warm-up, in BENCH_ROUNDS (default 3) interleaved rounds; the median is shown. Figures share the machine's cores
// with the load generator: compare ratios, not absolutes.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const serverDir = join(root, 'packages', 'server');
const requireFromServer = createRequire(join(serverDir, 'package.json'));
const autocannon = requireFromServer('autocannon');

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const PATH = '/api/crypto/get-crypto';

const mainJs = join(serverDir, 'dist', 'main.js');
if (!existsSync(mainJs)) {
  console.error(`No built server at ${mainJs}: run \`pnpm build\` first.`);
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'coinpurse-bench-get-crypto-'));
const children = [];
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

function start(label, args, env, cwd = root) {
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  child.on('exit', (code) => {
    if (code && code !== 0 && !child.killed) console.error(`${label} exited with ${code}:\n${output}`);
  });
  return { child, output: () => output };
}

async function waitFor(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.status === 200) return Buffer.from(await response.arrayBuffer());
      lastError = new Error(`HTTP ${response.status}`);
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer: ${lastError?.message}`);
}

function cannon(url) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, pipelining: 1 }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

async function measure(label, url) {
  await new Promise((resolve, reject) => autocannon({ url, connections: CONNECTIONS, duration: 1 }, (error) => (error ? reject(error) : resolve())));
  const result = await cannon(url);
  const bad = result.non2xx + result.errors + result.timeouts;
  return { label, rps: result.requests.average, p99: result.latency.p99, mbps: result.throughput.average / 1e6, bad };
}

// 1. The built server on PGlite with the snapshot market.
const appPort = await freePort();
const dataDir = join(work, 'data');
const app = start('coinpurse', [mainJs], {
  NODE_ENV: 'production',
  PORT: String(appPort),
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  JWT_SECRET: randomBytes(48).toString('base64url'),
  ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  // Benchmarks sign the admin in with a password only.
  ADMIN_REQUIRE_2FA: 'false',
  MARKET_REFRESH_SECONDS: '0',
  COINGECKO_BASE_URL: 'http://127.0.0.1:9',
});
const appUrl = `http://127.0.0.1:${appPort}${PATH}`;
let body;
try {
  body = await waitFor(appUrl, 90_000);
} catch (error) {
  console.error(`${error.message}\n${app.output()}`);
  process.exit(1);
}
const coins = JSON.parse(body.toString()).length;
const bodyFile = join(work, 'body.json');
writeFileSync(bodyFile, body);

// 2. A trivial Nest app (Express platform, like the server) with one route answering the same bytes.
const nestPort = await freePort();
const nestScript = join(work, 'trivial-nest.cjs');
writeFileSync(
  nestScript,
  `require('reflect-metadata');
const { readFileSync } = require('node:fs');
const { Controller, Get, Module, Res } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const body = readFileSync(${JSON.stringify(bodyFile)});
class TrivialController {
  get(res) {
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', body.length);
    res.status(200).end(body);
  }
}
Res()(TrivialController.prototype, 'get', 0);
Reflect.decorate([Get('trivial')], TrivialController.prototype, 'get', Object.getOwnPropertyDescriptor(TrivialController.prototype, 'get'));
Reflect.decorate([Controller()], TrivialController);
class TrivialModule {}
Reflect.decorate([Module({ controllers: [TrivialController] })], TrivialModule);
NestFactory.create(TrivialModule, { logger: false }).then((app) => app.listen(${nestPort}, '127.0.0.1')).then(() => console.log('ready'));
`,
);
start('trivial nest', [nestScript], { NODE_ENV: 'production', NODE_PATH: join(serverDir, 'node_modules') }, serverDir);
const nestUrl = `http://127.0.0.1:${nestPort}/trivial`;

// 3. A bare node:http server answering the same bytes.
const barePort = await freePort();
const bareScript = join(work, 'bare.cjs');
writeFileSync(
  bareScript,
  `const { readFileSync } = require('node:fs');
const body = readFileSync(${JSON.stringify(bodyFile)});
require('node:http').createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
  res.end(body);
}).listen(${barePort}, '127.0.0.1');
`,
);
start('bare node:http', [bareScript], {});
const bareUrl = `http://127.0.0.1:${barePort}/`;

for (const [url, label] of [
  [nestUrl, 'trivial Nest'],
  [bareUrl, 'bare node:http'],
]) {
  const got = await waitFor(url, 30_000);
  if (!got.equals(body)) throw new Error(`${label} does not send the same bytes`);
}

console.log(
  `GET ${PATH}: ${coins} coins, ${(body.length / 1024).toFixed(1)} KiB per response (identity encoding); ${CONNECTIONS} connections, ${DURATION} s per run after a 1 s warm-up, ${ROUNDS} interleaved round(s), median shown`,
);
const targets = [
  ['get-crypto (Coinpurse)', appUrl],
  ['trivial Nest route', nestUrl],
  ['bare node:http', bareUrl],
];
const runs = targets.map(() => []);
for (let round = 0; round < ROUNDS; round++) {
  // Interleaved, so a burst of load from elsewhere on the machine hits every target alike.
  for (const [index, [label, url]] of targets.entries()) runs[index].push(await measure(label, url));
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const results = targets.map(([label], index) => ({
  label,
  rps: median(runs[index].map((r) => r.rps)),
  p99: median(runs[index].map((r) => r.p99)),
  mbps: median(runs[index].map((r) => r.mbps)),
  bad: runs[index].reduce((sum, r) => sum + r.bad, 0),
  all: runs[index].map((r) => r.rps.toFixed(0)).join(' / '),
}));
const pad = (text, width) => String(text).padEnd(width);
console.log(`${pad('target', 26)}${pad('req/s', 10)}${pad('p99 ms', 9)}${pad('MB/s', 9)}${pad('non-2xx/err', 13)}each run (req/s)`);
for (const r of results) console.log(`${pad(r.label, 26)}${pad(r.rps.toFixed(0), 10)}${pad(r.p99, 9)}${pad(r.mbps.toFixed(1), 9)}${pad(r.bad, 13)}${r.all}`);
const [ours, nest, bare] = results;
const ratio = ours.rps / nest.rps;
console.log(`ratio get-crypto / trivial Nest = ${ratio.toFixed(2)} (target ≥ 0.9); get-crypto / bare node:http = ${(ours.rps / bare.rps).toFixed(2)}`);

// 304 path: a client that already holds the list.
const etag = (await fetch(appUrl)).headers.get('etag');
const conditional = await new Promise((resolve, reject) =>
  autocannon({ url: appUrl, connections: CONNECTIONS, duration: Math.max(2, Math.round(DURATION / 2)), headers: { 'if-none-match': etag } }, (error, result) =>
    error ? reject(error) : resolve(result),
  ),
);
console.log(`get-crypto with a matching If-None-Match (304): ${conditional.requests.average.toFixed(0)} req/s`);
process.exit(ours.bad || nest.bad || bare.bad ? 1 : 0);
