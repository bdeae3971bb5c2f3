// Lighthouse 12 (Debian chromium) on /, /market and the coin page of the built app: performance, accessibility,
// best-practices and SEO scores, plus the initial JavaScript of / (gzip bytes of the scripts the page loads). Figures
// only, no assertions. The coin page is a signed-in panel of /wallet: the script signs a new customer up through the
// API, funds some bitcoin, and stores the session (`user`) and the open panel (`openCoinpage`, `tokenData`) in the
// browser's localStorage as the client does, then audits /wallet with storage kept.
// Run after `pnpm build`. Env: CHROME_PATH (default /usr/bin/chromium), LIGHTHOUSE_PRESET (mobile | desktop, default
// mobile = Lighthouse's default throttled phone), LIGHTHOUSE_PAGES (comma-separated paths; `coin` = the coin page;
// default /,/market,coin).
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { freePort } from './harness.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const serverDir = join(root, 'packages', 'server');
const clientDist = join(root, 'packages', 'client', 'dist');
const require = createRequire(join(root, 'package.json'));
const CHROME = process.env.CHROME_PATH || '/usr/bin/chromium';
const PRESET = process.env.LIGHTHOUSE_PRESET || 'mobile';
const PAGES = (process.env.LIGHTHOUSE_PAGES || '/,/market,coin').split(',');
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const COIN = 'bitcoin';

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

/** A new customer holding some bitcoin; returns the stored session (the sign-up answer, as the client keeps it). */
async function customerSession(url) {
  const json = async (path, init) => {
    const response = await fetch(`${url}${path}`, { ...init, headers: { 'Content-Type': 'application/json', ...init?.headers } });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const post = (path, body, token) => json(path, { method: 'POST', body: JSON.stringify(body), headers: token ? { Authorization: `Bearer ${token}` } : {} });
  const user = await post('/api/user/create-user', {
    name: 'Lighthouse Customer',
    email: `lighthouse-${randomBytes(6).toString('hex')}@coinpurse.local`,
    password: 'lighthouse-password-1',
    country: 'DE',
  });
  const admin = await post('/api/admin/login-admin', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  await post(
    `/api/admin/update-balance/${user._id}`,
    { token: COIN, amount: 2500, type: 'yes', msg: 'lighthouse funding', coinAmount: '0', symbol: COIN },
    admin.token,
  );
  const [coin] = await json(`/api/crypto/get-crypto?limit=1`);
  return { user, coin };
}

/** Writes the browser's localStorage for the app's origin (in a tab of the audited browser, closed again). */
async function seedStorage(debugPort, url, entries) {
  const { chromium } = require('playwright-core');
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${debugPort}`);
  try {
    const page = await browser.contexts()[0].newPage();
    await page.goto(`${url}/api/health`);
    await page.evaluate((items) => {
      const storage = globalThis.localStorage;
      storage.clear();
      for (const [key, value] of Object.entries(items)) storage.setItem(key, JSON.stringify(value));
    }, entries);
    await page.close();
  } finally {
    // Leaves the browser running for Lighthouse.
    await browser.close().catch(() => {});
  }
}

const ADMIN_EMAIL = 'lighthouse-admin@coinpurse.local';
const ADMIN_PASSWORD = 'lighthouse-admin-password';

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
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      PUBLIC_URL: url,
      COINGECKO_BASE_URL: 'http://127.0.0.1:9',
      // Offline, prices come from the days-old snapshot, which production refuses for money moves (the funding here).
      PRICE_MAX_AGE_SECONDS: String(30 * 86400),
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
    const coinPage = path === 'coin';
    if (coinPage) {
      const { user, coin } = await customerSession(url);
      await seedStorage(debugPort, url, { user, tokenData: coin, openCoinpage: true });
    }
    const target = coinPage ? `${url}/wallet` : `${url}${path}`;
    // The coin page keeps the stored session (Lighthouse otherwise clears the origin's storage before loading).
    const run = () =>
      lighthouse(target, { port: debugPort, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES, disableStorageReset: coinPage }, config);
    // A cold browser occasionally misses the first paint (NO_FCP): measure that page again once.
    let result = await run();
    if (result.lhr.runtimeError) result = await run();
    const { categories, audits } = result.lhr;
    const score = (c) => Math.round((categories[c]?.score ?? 0) * 100);
    const metric = (id) => audits[id]?.displayValue ?? '-';
    let line = `${path.padEnd(8)} performance ${score('performance')}  accessibility ${score('accessibility')}  best-practices ${score('best-practices')}  SEO ${score('seo')}  FCP ${metric('first-contentful-paint')}  LCP ${metric('largest-contentful-paint')}  TBT ${metric('total-blocking-time')}  CLS ${metric('cumulative-layout-shift')}`;
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
      for (const item of audits['layout-shifts']?.details?.items ?? []) console.log(`  layout shift ${item.score?.toFixed(3)}: ${item.node?.snippet ?? '-'}`);
    }
    for (const category of CATEGORIES.filter((c) => c !== 'performance')) {
      const failing = Object.values(audits).filter(
        (a) => a.score !== null && a.score < 1 && categories[category]?.auditRefs.some((r) => r.id === a.id && r.weight > 0),
      );
      if (failing.length) line += `\n         ${category} findings: ${failing.map((a) => a.id).join(', ')}`;
    }
    if (coinPage) {
      const chart = audits['network-requests']?.details?.items?.some((item) => item.url.includes(`/api/crypto/price-history/${COIN}`));
      line += `\n         coin page: ${chart ? 'price history requested' : 'NO price history request (was the coin panel open?)'}`;
    }
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
