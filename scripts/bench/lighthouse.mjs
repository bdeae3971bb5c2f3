// Lighthouse 12 (Debian chromium) on /, /market and /login of the built app: performance and accessibility scores,
// plus the initial JavaScript of / (gzip bytes of the scripts the page loads). Figures only, no assertions.
// Run after `pnpm build`. Env: CHROME_PATH (default /usr/bin/chromium), LIGHTHOUSE_PRESET (mobile | desktop, default
// mobile = Lighthouse's default throttled phone), LIGHTHOUSE_PAGES (comma-separated paths).
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const serverDir = join(root, 'packages', 'server');
const clientDist = join(root, 'packages', 'client', 'dist');
const require = createRequire(join(root, 'package.json'));
const CHROME = process.env.CHROME_PATH || '/usr/bin/chromium';
const PRESET = process.env.LIGHTHOUSE_PRESET || 'mobile';
const PAGES = (process.env.LIGHTHOUSE_PAGES || '/,/market,/login').split(',');

const mainJs = join(serverDir, 'dist', 'main.js');
for (const [what, path] of [
  ['built server', mainJs],
  ['built client', join(clientDist, 'index.html')],
  ['chromium', CHROME],
]) {
  if (!existsSync(path)) {
    console.error(`No ${what} at ${path}: run pnpm build first (and apt-get install -y chromium).`);
    process.exit(1);
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url, child, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer`);
}

const dataDir = mkdtempSync(join(tmpdir(), 'coinpurse-lighthouse-'));
const profileDir = mkdtempSync(join(tmpdir(), 'coinpurse-lighthouse-chrome-'));
const children = [];
const cleanup = () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
};
process.on('exit', cleanup);

try {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [mainJs], {
    cwd: serverDir,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      // Benchmarks sign the admin in with a password only.
      ADMIN_REQUIRE_2FA: 'false',
      ADMIN_EMAIL: 'lighthouse-admin@coinpurse.local',
      ADMIN_PASSWORD: 'lighthouse-admin-password',
      PUBLIC_URL: url,
      COINGECKO_BASE_URL: 'http://127.0.0.1:9',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(server);
  await waitFor(`${url}/api/health`, server);

  const debugPort = await freePort();
  const chrome = spawn(
    CHROME,
    [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profileDir}`,
      `--remote-debugging-port=${debugPort}`,
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  children.push(chrome);
  await waitFor(`http://127.0.0.1:${debugPort}/json/version`, chrome);

  const { default: lighthouse } = await import(require.resolve('lighthouse'));
  const config = PRESET === 'desktop' ? (await import(require.resolve('lighthouse/core/config/desktop-config.js'))).default : undefined;

  console.log(`Lighthouse ${require('lighthouse/package.json').version}, ${PRESET} preset, ${CHROME}`);
  for (const path of PAGES) {
    const run = () =>
      lighthouse(`${url}${path}`, { port: debugPort, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] }, config);
    // A cold browser occasionally misses the first paint (NO_FCP): measure that page again once.
    let result = await run();
    if (result.lhr.runtimeError) result = await run();
    const { categories, audits } = result.lhr;
    const score = (c) => Math.round((categories[c]?.score ?? 0) * 100);
    const metric = (id) => audits[id]?.displayValue ?? '-';
    let line = `${path.padEnd(8)} performance ${score('performance')}  accessibility ${score('accessibility')}  FCP ${metric('first-contentful-paint')}  LCP ${metric('largest-contentful-paint')}  TBT ${metric('total-blocking-time')}  CLS ${metric('cumulative-layout-shift')}`;
    if (result.lhr.runtimeError) line += `\n         runtime error: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`;
    if (path === '/') {
      // Initial JS of /: every script the page loaded, gzip-compressed (what a gzip-only browser downloads).
      const scripts = (audits['network-requests']?.details?.items ?? []).filter((item) => item.resourceType === 'Script' && item.url.startsWith(url));
      let gzipBytes = 0;
      let transferred = 0;
      for (const item of scripts) {
        const body = Buffer.from(await (await fetch(item.url, { headers: { 'Accept-Encoding': 'identity' } })).arrayBuffer());
        gzipBytes += gzipSync(body, { level: 9 }).length;
        if (process.env.LIGHTHOUSE_VERBOSE) console.log(`  ${item.url} ${body.length} B`);
        transferred += item.transferSize ?? 0;
      }
      line += `\n/        initial JS: ${scripts.length} scripts, ${(gzipBytes / 1024).toFixed(1)} KB gzip (${(transferred / 1024).toFixed(1)} KB transferred)`;
    }
    if (process.env.LIGHTHOUSE_VERBOSE) {
      const lcp = audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node;
      console.log(`  LCP element: ${lcp?.snippet ?? '-'}`);
      for (const item of (audits['bootup-time']?.details?.items ?? []).slice(0, 4)) console.log(`  bootup ${item.url} ${Math.round(item.total)} ms`);
    }
    const failing = Object.values(audits).filter(
      (a) => a.score !== null && a.score < 1 && result.lhr.categories.accessibility.auditRefs.some((r) => r.id === a.id && r.weight > 0),
    );
    if (failing.length) line += `\n         accessibility findings: ${failing.map((a) => a.id).join(', ')}`;
    console.log(line);
  }
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  cleanup();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(profileDir, { recursive: true, force: true });
}
