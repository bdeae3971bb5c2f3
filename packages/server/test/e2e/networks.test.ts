// Browser end-to-end (issue 8): networks on send and receive, and the withdrawal address book.
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCoins } from '../support/market';
import { launchBrowser, newPage } from '../support/browser';
import { bearer, signUp } from '../support/test-app';
import { fund, startWalletApp, type WalletApp } from '../support/wallet';

const SOL_DEPOSIT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const SOL_RECIPIENT = 'So11111111111111111111111111111111111111112';
const ETH_DEPOSIT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const TRON_DEPOSIT = 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8';

const toast = (page: Page, text: string) => page.locator('[role="status"]').filter({ hasText: text }).first().waitFor();

describe('networks and the address book in Chromium', () => {
  let t: WalletApp;
  let browser: Browser;
  let page: Page;
  let customer: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    // No hold: a saved address is usable at once (the hold itself is covered by the integration tests).
    t = await startWalletApp('pglite', { ADDRESS_HOLD_HOURS: '0' }, { listen: true });
    await seedCoins(t, { solana: '100' });
    await t.http.post('/api/crypto/add-token/').set(bearer(t.admin)).send({ name: 'solana', address: SOL_DEPOSIT }).expect(201);
    const rows = (await t.http.get('/api/admin/get-tokens').set(bearer(t.admin)).expect(200)).body as Array<{ _id: string; name: string; network: string }>;
    for (const row of rows.filter((r) => r.name === 'tether')) {
      await t.http
        .put('/api/admin/edit-token/')
        .set(bearer(t.admin))
        .send({ token: 'tether', tokenId: row._id, address: row.network === 'tron' ? TRON_DEPOSIT : ETH_DEPOSIT })
        .expect(200);
    }
    customer = await signUp(t.http);
    await fund(t, customer._id, 'solana', 500);
    await fund(t, customer._id, 'tether', 100);
    browser = await launchBrowser();
    ({ page } = await newPage(browser, t.url!));
    await page.goto('/login');
    await page.getByLabel('Email').fill(customer.email);
    await page.getByLabel('Password', { exact: true }).fill(customer.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('**/wallet');
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('saves a Solana address in the address book and turns the allowlist on', async () => {
    await page.getByRole('button', { name: 'Address book' }).click();
    const panel = page.getByRole('region', { name: 'Address book' });
    await panel.getByText('No saved addresses yet.').waitFor();
    await panel.getByLabel('Label').fill('My Phantom');
    await panel.getByLabel('Token').selectOption('solana');
    await panel.getByLabel('Address', { exact: true }).fill(SOL_RECIPIENT);
    await panel.getByRole('button', { name: 'Save address' }).click();
    await toast(page, 'Address saved');
    await panel.getByText('My Phantom').waitFor();
    expect(await panel.locator('.address-book').textContent()).toContain('Solana');
    await panel.getByLabel('Allowlist: send only to saved addresses').check();
    await toast(page, 'Allowlist turned on');
    await page.getByRole('button', { name: 'Back' }).click();
  });

  it('sends SOL to the saved address picked from the book; the Transfer screen shows the network', async () => {
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page
      .getByRole('region', { name: 'Choose a token to send' })
      .getByRole('button', { name: /Solana/ })
      .click();
    const saved = page.getByLabel('Saved addresses');
    const option = await saved.locator('option', { hasText: 'My Phantom' }).getAttribute('value');
    await saved.selectOption(option!);
    expect(await page.getByLabel('Address', { exact: true }).inputValue()).toBe(SOL_RECIPIENT);
    await page.getByLabel('Amount in USD').fill('50');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Transfer' }).waitFor();
    expect(await page.getByTestId('confirm-network').textContent()).toBe('Network: Solana');
    const summary = await page.locator('dl.summary').textContent();
    // The payment comes from Coinpurse, never from the customer's own deposit address.
    expect(summary).not.toContain(SOL_DEPOSIT);
    expect(summary).toContain('FromYour Coinpurse balance');
    expect(summary).toContain(SOL_RECIPIENT);
    const sent = page.waitForResponse((r) => r.url().includes('/api/crypto/send-crypto/solana'));
    await page.getByRole('button', { name: 'Confirm' }).click();
    const response = await sent;
    expect(response.status()).toBe(201);
    expect((await response.json()).transaction).toMatchObject({ network: 'solana', address: SOL_RECIPIENT, coinAmount: '0.500' });
    await toast(page, 'Sent and Pending Check Status in History');
    await page.waitForEvent('load'); // the page reloads after a send
    await page.getByRole('button', { name: 'History' }).click();
    const item = page.locator(`[data-testid="history-item"][data-address="${SOL_RECIPIENT}"]`);
    await item.waitFor();
    expect(await item.getByTestId('history-network').textContent()).toBe('Solana');
    await page.getByRole('button', { name: 'Back' }).click();
  });

  it('receive tether: switching to Tron shows the Tron address and a QR of it, and the warning names the network', async () => {
    await page.getByRole('button', { name: 'Receive', exact: true }).click();
    await page
      .getByRole('region', { name: 'Choose a token to receive' })
      .getByRole('button', { name: /Tether/ })
      .click();
    expect(await page.getByTestId('receive-address').textContent()).toBe(ETH_DEPOSIT);
    await page.getByLabel('Network').selectOption('tron');
    await expect.poll(() => page.getByTestId('receive-address').textContent()).toBe(TRON_DEPOSIT);
    expect(await page.getByTestId('receive-network').textContent()).toBe('Network: Tron (TRC-20)');
    await page.getByText('This address accepts Tether (USDT) only. Anything else sent to it will be lost.').waitFor();
    expect(await page.getByTestId('receive-network-warning').textContent()).toContain('Tron (TRC-20)');
    const shot = await page.getByTestId('receive-qr').screenshot();
    const png = PNG.sync.read(shot);
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(decoded?.data).toBe(TRON_DEPOSIT);
  });
});
