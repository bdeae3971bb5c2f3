// Browser walk (issue 24): a customer opens Receive, the test pays the shown address on a real regtest litecoind and
// mines; the customer watches the deposit count its confirmations and land in the balance — the app's own watcher,
// polling every second, with nothing driven by hand.
import jsQR from 'jsqr';
import { sql } from 'drizzle-orm';
import { PNG } from 'pngjs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { ReferenceDataCache } from '../../src/modules/reference-data/reference-data.cache';
import { launchBrowser, newPage } from '../support/browser';
import { RegtestLitecoind, litecoindInstalled } from '../support/litecoind';
import { seedCoins } from '../support/market';
import { signUp, startTestApp, type TestApp } from '../support/test-app';
import { supportTokens } from '../support/wallet';

/** BIP84 account key m/84'/1'/0' of the "abandon … about" test mnemonic. */
const TPUB = 'tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M';

describe.skipIf(!litecoindInstalled)('a deposit from the chain in Chromium', () => {
  let ltc: RegtestLitecoind;
  let t: TestApp;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ltc = await RegtestLitecoind.start();
    t = await startTestApp(
      'pglite',
      {
        CHAIN_LITECOIN_RPC_URL: ltc.rpcUrl,
        CHAIN_LITECOIN_XPUB: TPUB,
        CHAIN_LITECOIN_CHAIN: 'regtest',
        CHAIN_LITECOIN_CONFIRMATIONS: '3',
        CHAIN_LITECOIN_POLL_SECONDS: '1',
      },
      { listen: true },
    );
    await seedCoins(t, { bitcoin: '50000', ethereum: '2500', tether: '1', litecoin: '80' });
    await supportTokens(t, ['bitcoin', 'ethereum', 'tether', 'litecoin']);
    await t.app.get<Database>(DATABASE).execute(sql`update coins set symbol = 'ltc', name = 'Litecoin' where id = 'litecoin'`);
    t.app.get(ReferenceDataCache).invalidate();
    browser = await launchBrowser();
    ({ page } = await newPage(browser, t.url!));
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await ltc?.close();
  });

  it('Receive shows the customer’s own address with its QR; the payment counts 1, 2 of 3 confirmations in History and lands in the balance', async () => {
    const { password: _password, ...session } = await signUp(t.http);
    await page.goto('/');
    await page.evaluate((user) => localStorage.setItem('user', JSON.stringify(user)), session);
    await page.goto('/wallet');
    await page.getByRole('button', { name: 'Receive', exact: true }).click();
    await page.getByRole('region', { name: 'Choose a token to receive' }).getByRole('button', { name: 'Litecoin (LTC)' }).click();
    const address = (await page.getByTestId('receive-address').textContent())!;
    expect(address).toMatch(/^rltc1q/);
    expect(await page.getByTestId('receive-confirmations').textContent()).toBe('Credited after 3 confirmations');
    const shot = PNG.sync.read(await page.getByTestId('receive-qr').screenshot());
    expect(jsQR(new Uint8ClampedArray(shot.data), shot.width, shot.height)?.data).toBe(address);
    await page.getByRole('button', { name: 'Back' }).click();

    // The payment, on the chain, to the address the customer was shown.
    await ltc.send(address, '0.5');
    await ltc.mine(1);
    await page.getByRole('button', { name: 'History' }).click();
    const item = page.getByTestId('history-item').filter({ hasText: address });
    // Live: the watcher's writes reach the open page through the SSE balance event (no reload).
    await expect
      .poll(async () => (await item.count()) && item.getByTestId('history-confirmations').textContent(), { timeout: 20_000 })
      .toBe('1 of 3 confirmations');
    expect(await item.locator('.status-pending').textContent()).toBe('pending');
    await ltc.mine(1);
    await expect.poll(() => item.getByTestId('history-confirmations').textContent(), { timeout: 20_000 }).toBe('2 of 3 confirmations');
    await ltc.mine(1);
    await expect.poll(() => item.locator('.status-approved').count(), { timeout: 20_000 }).toBe(1);
    await item.click();
    const detail = page.getByTestId('transaction-detail');
    expect(await detail.textContent()).toContain('3 of 3');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Back' }).click();
    // 0.5 LTC at $80.
    await expect.poll(() => page.getByTestId('total-balance').textContent(), { timeout: 20_000 }).toContain('$40.00');
  });
});
