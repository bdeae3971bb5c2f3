// GET /api/crypto/get-crypto throughput, next to a trivial Nest route and a bare node:http server sending the same
// bytes, in the same run. Run after `pnpm build`: `node scripts/bench/get-crypto.mjs` (or `pnpm bench get-crypto`).
//
// - Coinpurse: the built server (`node packages/server/dist/main.js`), PGlite in a temp DATA_DIR, market from the
//   committed offline snapshot (no provider calls: MARKET_REFRESH_SECONDS=0), NODE_ENV=production.
// - Trivial Nest: a separate Nest app (Fastify platform, like the server) with one route answering the same bytes.
// - Bare node:http: a server answering the same bytes.
// - The 304 path: Coinpurse and bare node:http again with a matching If-None-Match (the bare server answers 304 on its
//   ETag), and a bare Fastify server answering the same 304 (the framework's own share, for the cause).
// Each target runs in its own process; autocannon (in this process) uses 50 connections for 5 s per run after a 1 s
// warm-up, in BENCH_ROUNDS (default 3) interleaved rounds; the median is shown. Figures share the machine's cores
// with the load generator: compare ratios, not absolutes. BENCH_BASELINE_MAIN: another build's main.js (e.g. of
// main) measured alongside in the same rounds.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { figure, median, SHARED_CORES_NOTE } from './figures.mjs';
import { freePort } from './harness.mjs';

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

function cannon304(url, etag) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, pipelining: 1, headers: { 'if-none-match': etag } }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

async function measure(label, url, etag) {
  await new Promise((resolve, reject) => autocannon({ url, connections: CONNECTIONS, duration: 1 }, (error) => (error ? reject(error) : resolve())));
  const result = etag ? await cannon304(url, etag) : await cannon(url);
  // A 304 run counts anything but 304 as bad.
  const bad = (etag ? result.requests.total - (result.statusCodeStats?.['304']?.count ?? 0) : result.non2xx) + result.errors + result.timeouts;
  return { label, rps: result.requests.average, p99: result.latency.p99, mbps: result.throughput.average / 1e6, bad };
}

// 1. The built server on PGlite with the snapshot market (and a baseline build when asked).
async function startApp(label, main) {
  const port = await freePort();
  const app = start(label, [main], {
    NODE_ENV: 'production',
    PORT: String(port),
    DATA_DIR: join(work, `data-${port}`),
    DATABASE_URL: '',
    JWT_SECRET: randomBytes(48).toString('base64url'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    // Benchmarks sign the admin in with a password only.
    ADMIN_REQUIRE_2FA: 'false',
    MARKET_REFRESH_SECONDS: '0',
    COINGECKO_BASE_URL: 'http://127.0.0.1:9',
  });
  const url = `http://127.0.0.1:${port}${PATH}`;
  try {
    return { url, body: await waitFor(url, 90_000) };
  } catch (error) {
    console.error(`${error.message}\n${app.output()}`);
    process.exit(1);
  }
}
const { url: appUrl, body } = await startApp('coinpurse', mainJs);
const baseline = process.env.BENCH_BASELINE_MAIN ? await startApp('coinpurse baseline', process.env.BENCH_BASELINE_MAIN) : undefined;
const coins = JSON.parse(body.toString()).length;
const bodyFile = join(work, 'body.json');
writeFileSync(bodyFile, body);

// 2. A trivial Nest app (Fastify platform, like the server) with one route answering the same bytes.
const nestPort = await freePort();
const nestScript = join(work, 'trivial-nest.cjs');
writeFileSync(
  nestScript,
  `require('reflect-metadata');
const { readFileSync } = require('node:fs');
const { Controller, Get, Module, Res } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { FastifyAdapter } = require('@nestjs/platform-fastify');
const body = readFileSync(${JSON.stringify(bodyFile)});
class TrivialController {
  get(reply) {
    reply.header('Content-Type', 'application/json; charset=utf-8').send(body);
  }
}
Res()(TrivialController.prototype, 'get', 0);
Reflect.decorate([Get('trivial')], TrivialController.prototype, 'get', Object.getOwnPropertyDescriptor(TrivialController.prototype, 'get'));
Reflect.decorate([Controller()], TrivialController);
class TrivialModule {}
Reflect.decorate([Module({ controllers: [TrivialController] })], TrivialModule);
NestFactory.create(TrivialModule, new FastifyAdapter(), { logger: false }).then((app) => app.listen(${nestPort}, '127.0.0.1')).then(() => console.log('ready'));
`,
);
start('trivial nest', [nestScript], { NODE_ENV: 'production', NODE_PATH: join(serverDir, 'node_modules') }, serverDir);
const nestUrl = `http://127.0.0.1:${nestPort}/trivial`;

// 3. A bare node:http server answering the same bytes (and a 304 on the same ETag).
const etagOf = (await fetch(appUrl)).headers.get('etag');
const barePort = await freePort();
const bareScript = join(work, 'bare.cjs');
writeFileSync(
  bareScript,
  `const { readFileSync } = require('node:fs');
const body = readFileSync(${JSON.stringify(bodyFile)});
const etag = ${JSON.stringify(etagOf)};
require('node:http').createServer((req, res) => {
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, { ETag: etag });
    return res.end();
  }
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length, ETag: etag });
  res.end(body);
}).listen(${barePort}, '127.0.0.1');
`,
);
start('bare node:http', [bareScript], {});
const bareUrl = `http://127.0.0.1:${barePort}/`;

// 4. Bare Fastify (the server's HTTP platform, no Nest, none of our hooks) answering the same 304. Ours is answered
// before Fastify, at the node:http level (market-fast-path.ts): this shows what the framework alone would allow; the
// gap between bare node:http and ours is the fast path's own work (request id, metrics sample, sampled log line).
const fastifyPort = await freePort();
const fastifyScript = join(work, 'bare-fastify.cjs');
writeFileSync(
  fastifyScript,
  `const etag = ${JSON.stringify(etagOf)};
const app = require('fastify')({ logger: false });
app.get('/', (req, reply) => {
  if (req.headers['if-none-match'] === etag) return reply.code(304).header('ETag', etag).send();
  return reply.header('ETag', etag).send('ok');
});
app.listen({ port: ${fastifyPort}, host: '127.0.0.1' });
`,
);
start('bare fastify', [fastifyScript], { NODE_PATH: join(serverDir, 'node_modules') }, serverDir);
const fastifyUrl = `http://127.0.0.1:${fastifyPort}/`;
await waitFor(fastifyUrl, 30_000);

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
console.log(SHARED_CORES_NOTE);
const targets = [
  ['get-crypto (Coinpurse)', appUrl],
  ...(baseline ? [['get-crypto [baseline]', baseline.url]] : []),
  ['trivial Nest route', nestUrl],
  ['bare node:http', bareUrl],
  ['get-crypto 304 (Coinpurse)', appUrl, etagOf],
  ...(baseline ? [['get-crypto 304 [baseline]', baseline.url, etagOf]] : []),
  ['bare Fastify 304', fastifyUrl, etagOf],
  ['bare node:http 304', bareUrl, etagOf],
];
const runs = targets.map(() => []);
for (let round = 0; round < ROUNDS; round++) {
  // Interleaved, so a burst of load from elsewhere on the machine hits every target alike.
  for (const [index, [label, url, etag]] of targets.entries()) runs[index].push(await measure(label, url, etag));
}
const results = targets.map(([label], index) => ({
  label,
  rps: median(runs[index].map((r) => r.rps)),
  p99: median(runs[index].map((r) => r.p99)),
  mbps: median(runs[index].map((r) => r.mbps)),
  bad: runs[index].reduce((sum, r) => sum + r.bad, 0),
  all: runs[index].map((r) => r.rps.toFixed(0)).join(' / '),
}));
const pad = (text, width) => String(text).padEnd(width);
console.log(`${pad('target', 30)}${pad('req/s', 10)}${pad('p99 ms', 9)}${pad('MB/s', 9)}${pad('bad', 8)}each run (req/s)`);
for (const r of results) console.log(`${pad(r.label, 30)}${pad(r.rps.toFixed(0), 10)}${pad(r.p99, 9)}${pad(r.mbps.toFixed(1), 9)}${pad(r.bad, 8)}${r.all}`);
const by = (label) => results.find((r) => r.label === label);
const bare = by('bare node:http');
const bare304 = by('bare node:http 304');
for (const suffix of ['', ...(baseline ? [' [baseline]'] : [])]) {
  const ours = by(suffix ? `get-crypto${suffix}` : 'get-crypto (Coinpurse)');
  const ours304 = by(suffix ? `get-crypto 304${suffix}` : 'get-crypto 304 (Coinpurse)');
  const ratio = ours.rps / bare.rps;
  figure({
    name: `get-crypto req/s${suffix}`,
    value: ours.rps,
    anchor: { label: 'bare node:http same bytes', value: bare.rps },
    target: '≥ 0.6 of anchor',
    met: ratio >= 0.6,
    detail: `runs ${ours.all}; trivial Nest route ${by('trivial Nest route').rps.toFixed(0)} req/s`,
  });
  figure({
    name: `get-crypto p99${suffix}`,
    value: ours.p99,
    unit: 'ms',
    anchor: { label: 'bare node:http p99', value: bare.p99 },
    target: '< 20 ms',
    met: ours.p99 < 20,
  });
  const ratio304 = ours304.rps / bare304.rps;
  figure({
    name: `get-crypto 304 req/s${suffix}`,
    value: ours304.rps,
    anchor: { label: 'bare node:http 304', value: bare304.rps },
    target: '≥ 0.8 of anchor',
    met: ratio304 >= 0.8,
    detail: `runs ${ours304.all}; p99 ${ours304.p99} ms; bare Fastify 304 ${by('bare Fastify 304').rps.toFixed(0)} req/s (${(by('bare Fastify 304').rps / bare304.rps).toFixed(2)} of anchor, hence ours is answered before Fastify; the rest of the gap: request id, metrics sample, log sampling per answer)`,
  });
}
process.exit(results.some((r) => r.bad) ? 1 : 0);
