import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage } from './browser';
import { RegtestLitecoind } from './litecoind';
import { seedCoins } from './market';
import { startTestAppWithSigner } from './signer-process';
import { signUp, startTestApp, type TestApp } from './test-app';
import { supportTokens } from './wallet';

/** BIP84 account key m/84'/1'/0' of the "abandon … about" test mnemonic: the operator's watch-only key. */
export const TPUB = 'tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M';

/**
 * A walk with a hot wallet runs the signer process, which needs the app on PostgreSQL (TEST_DATABASE_URL): without it
 * the walk is skipped (PGlite lives inside the app's process, the signer could not read the withdrawals).
 */
export const HOT_SIGNER_NEEDS_POSTGRES = !process.env.TEST_DATABASE_URL;

/** The browser walks' world: a regtest litecoind, the app listening on it, and a Chromium page on the app. */
export interface ChainE2e {
  ltc: RegtestLitecoind;
  t: TestApp;
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

/**
 * Starts a regtest litecoind (`ltcArgs`: more node options) and the app connected to it (3 confirmations, polled every second; `env` adds to it, e.g.
 * the hot wallet, which goes to a signer process of its own), with bitcoin, ethereum, tether and litecoin (LTC at $80) supported, and a Chromium page on the app.
 */
export async function startChainE2e(env: Record<string, string> = {}, options: { ltcArgs?: string[] } = {}): Promise<ChainE2e> {
  const started: { ltc?: RegtestLitecoind; t?: TestApp; browser?: Browser } = {};
  const close = async () => {
    await started.browser?.close();
    await started.t?.close();
    await started.ltc?.close();
  };
  try {
    const ltc = (started.ltc = await RegtestLitecoind.start({ args: options.ltcArgs }));
    const appEnv = {
      CHAIN_LITECOIN_RPC_URL: ltc.rpcUrl,
      CHAIN_LITECOIN_XPUB: TPUB,
      CHAIN_LITECOIN_CHAIN: 'regtest',
      CHAIN_LITECOIN_CONFIRMATIONS: '3',
      CHAIN_LITECOIN_POLL_SECONDS: '1',
      ...env,
    };
    // A hot wallet means the signer process, which shares PostgreSQL with the app (see HOT_SIGNER_NEEDS_POSTGRES).
    const t = (started.t = env.CHAIN_LITECOIN_WALLET
      ? await startTestAppWithSigner(appEnv, { listen: true })
      : await startTestApp('pglite', appEnv, { listen: true }));
    await seedCoins(t, { bitcoin: '50000', ethereum: '2500', tether: '1', litecoin: '80' });
    await supportTokens(t, ['bitcoin', 'ethereum', 'tether', 'litecoin']);
    const browser = (started.browser = await launchBrowser());
    const { page } = await newPage(browser, t.url!);
    return { ltc, t, browser, page, close };
  } catch (error) {
    // Nothing left running when the set-up itself fails (the test's afterAll gets no handle to close).
    await close().catch(() => undefined);
    throw error;
  }
}

/**
 * Signs the customer in on the page (their session in localStorage, as the app keeps it) and opens their wallet, as on
 * a fresh device: nothing of an earlier walk's customer (open panels, chosen tokens) is left in the browser's storage.
 */
export async function openWallet({ page }: ChainE2e, customer: Awaited<ReturnType<typeof signUp>>): Promise<void> {
  const { password: _password, ...session } = customer;
  await page.goto('/');
  await page.evaluate((user) => {
    localStorage.clear();
    localStorage.setItem('user', JSON.stringify(user));
  }, session);
  await page.goto('/wallet');
}
