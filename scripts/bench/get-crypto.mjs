// GET /api/crypto/get-crypto throughput, next to a bare node:http server sending the same bytes (body and headers),
// a trivial Nest route and bare Fastify, in the same run. Run after `pnpm build`: `node scripts/bench/get-crypto.mjs`
// (or `pnpm bench get-crypto`).
//
// - Coinpurse: the built server (`node packages/server/dist/main.js`), PGlite in a temp DATA_DIR, market from the
//   committed offline snapshot (no provider calls: MARKET_REFRESH_SECONDS=0), NODE_ENV=production. The list is answered
//   through Fastify's routing and the app's hooks (market-list.route.ts).
// - Bare node:http (the anchor): answers with the bytes Coinpurse sends, read from it at the start — the same body and
//   the same header list in the same order (its security headers, cache headers, type and length), a fresh random
//   X-Request-Id per answer as Coinpurse gives one, node:http's own Date / Connection / Keep-Alive — and a 304 with
//   Coinpurse's 304 headers on a matching If-None-Match. Both are checked header for header before measuring.
// - Trivial Nest: a separate Nest app (Fastify platform, like the server) with one route answering the same body.
// - Bare Fastify (the server's HTTP platform, no Nest, no hooks) answering the same 304: the platform's own share.
// Each target runs in its own process; autocannon (in this process) uses 50 connections for 5 s per run after a 1 s
// warm-up, in BENCH_ROUNDS (default 5) interleaved rounds; Coinpurse and its anchor run back to back in each round and
// the ratio shown is the median of the rounds' ratios. Each run also reads the target process's CPU time (Linux /proc):
// server CPU per answer depends much less on what else loads the machine, so it shows the cause beside the ratio; and
// the same less what the process spends idle (measured 1.5 s before each run: Coinpurse's scheduled jobs poll its
// database), which is what the answers themselves cost. Figures
// share the machine's cores with the load generator: compare ratios, not absolutes. BENCH_BASELINE_MAIN: another
// build's main.js (e.g. of main) measured alongside in the same rounds.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { figure, median, SHARED_CORES_NOTE } from './figures.mjs';
import { freePort, requireFromServer, root, serverDir } from './harness.mjs';

const autocannon = requireFromServer('autocannon');

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
// Five rounds: one round's pair swings from 0.5 to 1.5 on two shared cores (where the scheduler puts the server and the load
// generator), so the median of three still moved by ±0.1 between runs of the same code.
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
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

/** A process's CPU time so far (user + system, ms; Linux /proc, clock ticks of 10 ms), or NaN elsewhere. */
function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** One GET with node:http: status, raw header list (names as sent, in order) and body bytes. No Accept-Encoding. */
function rawGet(url, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function waitFor(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  while (Date.now() < deadline) {
    try {
      const response = await rawGet(url);
      if (response.status === 200) return response;
      lastError = new Error(`HTTP ${response.status}`);
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer: ${lastError?.message}`);
}

/** Headers node:http writes itself (and the per-answer request id): not part of what an app chooses to send. */
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'x-request-id']);
/** A raw header list as [name, value] pairs, without node:http's own headers (the request id kept as a marker). */
function chosenHeaders(rawHeaders) {
  const pairs = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    if (name.toLowerCase() === 'x-request-id') pairs.push([name, '<request id>']);
    else if (!OWN_HEADERS.has(name.toLowerCase())) pairs.push([name, rawHeaders[i + 1]]);
  }
  return pairs;
}

async function measure(label, pid, url, etag) {
  // The process's own background work (the app's scheduled jobs poll its database every second or so) while idle,
  // subtracted below: what is left is the CPU the answers cost.
  const idleBefore = cpuMsOf(pid);
  const idleStarted = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const idleMsPerMs = (cpuMsOf(pid) - idleBefore) / (performance.now() - idleStarted);
  await new Promise((resolve, reject) =>
    autocannon({ url, connections: CONNECTIONS, duration: 1, headers: etag ? { 'if-none-match': etag } : {} }, (error) => (error ? reject(error) : resolve())),
  );
  const cpuBefore = cpuMsOf(pid);
  const started = performance.now();
  const result = await new Promise((resolve, reject) =>
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, pipelining: 1, headers: etag ? { 'if-none-match': etag } : {} }, (error, r) =>
      error ? reject(error) : resolve(r),
    ),
  );
  const cpuMs = cpuMsOf(pid) - cpuBefore;
  const pathMs = cpuMs - idleMsPerMs * (performance.now() - started);
  // A 304 run counts anything but 304 as bad.
  const bad = (etag ? result.requests.total - (result.statusCodeStats?.['304']?.count ?? 0) : result.non2xx) + result.errors + result.timeouts;
  return {
    label,
    rps: result.requests.average,
    p99: result.latency.p99,
    mbps: result.throughput.average / 1e6,
    cpuUs: result.requests.total ? (cpuMs * 1000) / result.requests.total : NaN,
    pathUs: result.requests.total ? (pathMs * 1000) / result.requests.total : NaN,
    idleMsPerS: idleMsPerMs * 1000,
    bad,
  };
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
    return { url, pid: app.child.pid, first: await waitFor(url, 90_000) };
  } catch (error) {
    console.error(`${error.message}\n${app.output()}`);
    process.exit(1);
  }
}
const ours = await startApp('coinpurse', mainJs);
const baseline = process.env.BENCH_BASELINE_MAIN ? await startApp('coinpurse baseline', process.env.BENCH_BASELINE_MAIN) : undefined;
const body = ours.first.body;
const coins = JSON.parse(body.toString()).length;
const etag = ours.first.rawHeaders[ours.first.rawHeaders.findIndex((name) => name.toLowerCase() === 'etag') + 1];
const ours304 = await rawGet(ours.url, { 'if-none-match': etag });
if (ours304.status !== 304) throw new Error(`Coinpurse answered ${ours304.status} to a matching If-None-Match`);
const bodyFile = join(work, 'body.json');
writeFileSync(bodyFile, body);

// 2. A trivial Nest app (Fastify platform, like the server) with one route answering the same body.
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
const nest = start('trivial nest', [nestScript], { NODE_ENV: 'production', NODE_PATH: join(serverDir, 'node_modules') }, serverDir);
const nestUrl = `http://127.0.0.1:${nestPort}/trivial`;

// 3. A bare node:http server answering Coinpurse's bytes: its 200 and 304 header lists (as read above; node:http adds
// Date, Connection and Keep-Alive itself, as it does for Coinpurse), a fresh request id per answer, the same body.
const headerList = (pairs) => pairs.flat();
const barePort = await freePort();
const bareScript = join(work, 'bare.cjs');
writeFileSync(
  bareScript,
  `const { randomUUID } = require('node:crypto');
const { readFileSync } = require('node:fs');
const body = readFileSync(${JSON.stringify(bodyFile)});
const etag = ${JSON.stringify(etag)};
const ok = ${JSON.stringify(headerList(chosenHeaders(ours.first.rawHeaders)))};
const notModified = ${JSON.stringify(headerList(chosenHeaders(ours304.rawHeaders)))};
const ID = '<request id>';
const withId = (list) => { const out = list.slice(); out[out.indexOf(ID)] = randomUUID(); return out; };
require('node:http').createServer((req, res) => {
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, withId(notModified));
    return res.end();
  }
  res.writeHead(200, withId(ok));
  res.end(body);
}).listen(${barePort}, '127.0.0.1');
`,
);
const bare = start('bare node:http', [bareScript], {});
const bareUrl = `http://127.0.0.1:${barePort}/`;

// 4. Bare Fastify (the server's HTTP platform, no Nest, none of our hooks) answering the same 304: what the platform
// alone costs, for the cause beside the 304 figure.
const fastifyPort = await freePort();
const fastifyScript = join(work, 'bare-fastify.cjs');
writeFileSync(
  fastifyScript,
  `const etag = ${JSON.stringify(etag)};
const app = require('fastify')({ logger: false });
app.get('/', (req, reply) => {
  if (req.headers['if-none-match'] === etag) return reply.code(304).header('ETag', etag).send();
  return reply.header('ETag', etag).send('ok');
});
app.listen({ port: ${fastifyPort}, host: '127.0.0.1' });
`,
);
const fastify = start('bare fastify', [fastifyScript], { NODE_PATH: join(serverDir, 'node_modules') }, serverDir);
const fastifyUrl = `http://127.0.0.1:${fastifyPort}/`;
await waitFor(fastifyUrl, 30_000);

// The anchor must send what Coinpurse sends: the same body, and header for header the same list (request id aside).
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const bareFirst = await waitFor(bareUrl, 30_000);
const bare304 = await rawGet(bareUrl, { 'if-none-match': etag });
if (!bareFirst.body.equals(body)) throw new Error('bare node:http does not send the same body');
for (const [what, a, b] of [
  ['200', ours.first, bareFirst],
  ['304', ours304, bare304],
]) {
  if (!same(chosenHeaders(a.rawHeaders), chosenHeaders(b.rawHeaders)))
    throw new Error(`bare node:http ${what} headers differ:\n${JSON.stringify(chosenHeaders(a.rawHeaders))}\n${JSON.stringify(chosenHeaders(b.rawHeaders))}`);
}
if (!(await waitFor(nestUrl, 30_000)).body.equals(body)) throw new Error('trivial Nest does not send the same body');

console.log(
  `GET ${PATH}: ${coins} coins, ${(body.length / 1024).toFixed(1)} KiB per response (identity encoding), ${chosenHeaders(ours.first.rawHeaders).length} headers besides node:http's own (${chosenHeaders(
    ours.first.rawHeaders,
  )
    .map(([name]) => name)
    .join(
      ', ',
    )}), the same from the anchor; ${CONNECTIONS} connections, ${DURATION} s per run after a 1 s warm-up, ${ROUNDS} interleaved round(s), median shown`,
);
console.log(SHARED_CORES_NOTE);
// Coinpurse and its anchor back to back, so a change in the machine's load between them is as small as it can be.
const targets = [
  ['get-crypto (Coinpurse)', ours.pid, ours.url],
  ['bare node:http', bare.child.pid, bareUrl],
  ...(baseline ? [['get-crypto [baseline]', baseline.pid, baseline.url]] : []),
  ['get-crypto 304 (Coinpurse)', ours.pid, ours.url, etag],
  ['bare node:http 304', bare.child.pid, bareUrl, etag],
  ...(baseline ? [['get-crypto 304 [baseline]', baseline.pid, baseline.url, etag]] : []),
  ['trivial Nest route', nest.child.pid, nestUrl],
  ['bare Fastify 304', fastify.child.pid, fastifyUrl, etag],
];
const runs = targets.map(() => []);
for (let round = 0; round < ROUNDS; round++) {
  // Interleaved, so a burst of load from elsewhere on the machine hits every target alike.
  for (const [index, [label, pid, url, tag]] of targets.entries()) runs[index].push(await measure(label, pid, url, tag));
}
const results = targets.map(([label], index) => ({
  label,
  runs: runs[index],
  rps: median(runs[index].map((r) => r.rps)),
  p99: median(runs[index].map((r) => r.p99)),
  mbps: median(runs[index].map((r) => r.mbps)),
  cpuUs: median(runs[index].map((r) => r.cpuUs)),
  pathUs: median(runs[index].map((r) => r.pathUs)),
  idleMsPerS: median(runs[index].map((r) => r.idleMsPerS)),
  bad: runs[index].reduce((sum, r) => sum + r.bad, 0),
  all: runs[index].map((r) => r.rps.toFixed(0)).join(' / '),
}));
const pad = (text, width) => String(text).padEnd(width);
// CPU µs/req: the target process's CPU per answer; idle ms/s: its CPU per second while idle just before the run;
// answer µs: the first minus the second spread over the answers (the answers' own cost, steadier than req/s here).
console.log(
  `${pad('target', 30)}${pad('req/s', 10)}${pad('p99 ms', 9)}${pad('MB/s', 9)}${pad('CPU µs/req', 12)}${pad('idle ms/s', 11)}${pad('answer µs', 11)}${pad('bad', 8)}each run (req/s)`,
);
for (const r of results)
  console.log(
    `${pad(r.label, 30)}${pad(r.rps.toFixed(0), 10)}${pad(r.p99, 9)}${pad(r.mbps.toFixed(1), 9)}${pad(r.cpuUs.toFixed(1), 12)}${pad(r.idleMsPerS.toFixed(0), 11)}${pad(r.pathUs.toFixed(1), 11)}${pad(r.bad, 8)}${r.all}`,
  );
const by = (label) => results.find((r) => r.label === label);
/** The median of the rounds' ratios (each round's pair measured back to back). */
const pairedRatio = (a, b) => median(a.runs.map((run, i) => run.rps / b.runs[i].rps));
const anchor = by('bare node:http');
const anchor304 = by('bare node:http 304');
for (const suffix of ['', ...(baseline ? [' [baseline]'] : [])]) {
  const app = by(suffix ? `get-crypto${suffix}` : 'get-crypto (Coinpurse)');
  const app304 = by(suffix ? `get-crypto 304${suffix}` : 'get-crypto 304 (Coinpurse)');
  const ratio = pairedRatio(app, anchor);
  figure({
    name: `get-crypto req/s${suffix}`,
    value: app.rps,
    anchor: { label: 'bare node:http same bytes', value: anchor.rps },
    ratio,
    target: '≥ 0.75 of anchor',
    met: ratio >= 0.75,
    detail: `runs ${app.all} vs ${anchor.all}; ratio per round ${app.runs.map((run, i) => (run.rps / anchor.runs[i].rps).toFixed(2)).join(' / ')}; server CPU ${app.cpuUs.toFixed(1)} µs per answer (${app.pathUs.toFixed(1)} µs without its idle work of ${app.idleMsPerS.toFixed(0)} ms/s) vs the anchor's ${anchor.cpuUs.toFixed(1)} µs; trivial Nest route ${by('trivial Nest route').rps.toFixed(0)} req/s`,
  });
  figure({
    name: `get-crypto p99${suffix}`,
    value: app.p99,
    unit: 'ms',
    anchor: { label: 'bare node:http p99', value: anchor.p99 },
    target: '< 20 ms',
    met: app.p99 < 20,
  });
  const ratio304 = pairedRatio(app304, anchor304);
  figure({
    name: `get-crypto 304 req/s${suffix}`,
    value: app304.rps,
    anchor: { label: 'bare node:http 304', value: anchor304.rps },
    ratio: ratio304,
    target: '≥ 0.8 of anchor',
    met: ratio304 >= 0.8,
    detail: `runs ${app304.all} vs ${anchor304.all}; p99 ${app304.p99} ms; server CPU ${app304.cpuUs.toFixed(1)} µs per answer (${app304.pathUs.toFixed(1)} µs without its idle work) vs the anchor's ${anchor304.cpuUs.toFixed(1)} µs; bare Fastify 304 ${by('bare Fastify 304').rps.toFixed(0)} req/s, ${by('bare Fastify 304').cpuUs.toFixed(1)} µs (the platform alone, no Nest, no hooks)`,
  });
}
process.exit(results.some((r) => r.bad) ? 1 : 0);
