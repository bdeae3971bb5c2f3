// The server's main-thread samples of a CPU profile (cpu-profile-preload.cjs) by phase of a request: the database call,
// auth, validation, the service's own work (quote, terms, amounts) and HTTP (parser, framework, hooks, the answer), plus
// the socket writes' syscalls, GC and native I/O callbacks. Each sample goes to the phase of its innermost frame that
// belongs to one (by the module esbuild bundled it from), so a database driver frame under the handler counts as the
// call and the answer written after the call counts as HTTP. The socket writes are wall time: on two cores a write that
// wakes its reader (PostgreSQL, the load generator) often gives it the core.
// usage: node scripts/profile/swap-phases.cjs <profile> <dist/server.js of the same build> [phase to detail]
const fs = require('node:fs');
const [profilePath, bundlePath, detail] = process.argv.slice(2);
const profile = JSON.parse(fs.readFileSync(profilePath, 'utf8'));

// Bundle line → module path, from esbuild's module wrappers (`"path"(exports) {`) and comments (`// path`).
const starts = [];
fs.readFileSync(bundlePath, 'utf8')
  .split('\n')
  .forEach((line, i) => {
    const m = line.match(/^\s*"([^"]+\.(?:c?js|ts|mjs|json))"\(/) || line.match(/^\s*\/\/ ((?:\.\.\/)*(?:node_modules|src|dist)\/\S+\.(?:c?js|ts|mjs))\s*$/);
    if (m) starts.push([i, m[1]]);
  });
function moduleAt(line) {
  let lo = 0;
  let hi = starts.length - 1;
  let found = '';
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid][0] <= line) {
      found = starts[mid][1];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
const moduleOf = (frame) => (frame.url.endsWith('server.js') ? moduleAt(frame.lineNumber) : frame.url);

const PHASES = [
  [
    'the call (database)',
    /pg-protocol|node_modules\/pg\/|pg-pool|drizzle-orm|(src|dist)\/db\/|modules\/ledger\/(group-commit|ledger\.service|ledger\.repository|money-calls|shard)|wallet-functions/,
  ],
  ['auth (session, access)', /common\/access|modules\/auth\/|modules\/sessions|session|jsonwebtoken|jws|jose|api-keys/],
  ['validation (body, DTO)', /class-validator|class-transformer|pipes\/validation|common\/validation|validator\/lib/],
  [
    'service (quote, terms, amounts)',
    /modules\/market\/price|swap-terms|swaps\.service|decimal\.js|modules\/ledger\/money\.|modules\/fees|limits|compliance|idempotency/,
  ],
  [
    'HTTP (parser, framework, hooks, answer)',
    /fastify|find-my-way|@nestjs\/|middie|avvio|secure-json-parse|fast-json-stringify|rxjs|common\/|observability|prom-client|pino|^node:_http|^node:internal\/http/,
  ],
];
const SPECIAL = ['(garbage collector)', '(program)', '(idle)', '(root)'];
const WRITES = /^(writev|writeBuffer|writeUtf8String|writeLatin1String|writeAsciiString)$/;

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children || []) parentOf.set(child, node.id);
const phaseCache = new Map();
function phaseOf(node) {
  if (phaseCache.has(node.id)) return phaseCache.get(node.id);
  const frame = node.callFrame;
  let phase;
  if (SPECIAL.includes(frame.functionName)) phase = frame.functionName === '(root)' ? 'native I/O callbacks' : frame.functionName;
  else if (frame.url === '' && WRITES.test(frame.functionName)) phase = 'socket writes (syscall, wall time)';
  else {
    const module = moduleOf(frame);
    phase = PHASES.find(([, pattern]) => pattern.test(module))?.[0];
    if (!phase) {
      const up = parentOf.get(node.id);
      phase = up === undefined ? 'other' : phaseOf(byId.get(up));
    }
  }
  phaseCache.set(node.id, phase);
  return phase;
}

const totals = new Map();
const frames = new Map();
let busy = 0;
profile.samples.forEach((id, i) => {
  const node = byId.get(id);
  const us = profile.timeDeltas[i] || 0;
  const phase = phaseOf(node);
  if (phase === '(idle)') return;
  busy += us;
  totals.set(phase, (totals.get(phase) || 0) + us);
  if (phase === detail) {
    const key = `${moduleOf(node.callFrame).replace(/.*node_modules\//, '')} ${node.callFrame.functionName}`;
    frames.set(key, (frames.get(key) || 0) + us);
  }
});
console.log(`main thread busy (not idle): ${(busy / 1e6).toFixed(2)} s`);
for (const [phase, us] of [...totals].sort((a, b) => b[1] - a[1])) console.log(`${((us / busy) * 100).toFixed(1).padStart(5)} %  ${phase}`);
if (detail)
  for (const [key, us] of [...frames].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${((us / busy) * 100).toFixed(2).padStart(6)} %  ${key}`);
