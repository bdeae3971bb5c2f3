// Browser test of the operator's business (issue 34): the operator sets a 0.5 % spread on the Fees screen, a customer
// sees the quote (rate, fee, you get, its countdown) on the Swap screen and accepts it, and the operator reads the
// revenue per day; each screen walked at 1366 and 375 px: no sideways scroll, nothing sticking out, axe 0.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage } from '../support/browser';
import { bearer, signUp } from '../support/test-app';
import { axeViolations, overflowOf, pageOverflow } from '../support/visual-checks';
import { fund, holdings, startWalletApp, type WalletApp } from '../support/wallet';

const SIZES = [
  { width: 1366, height: 900 },
  { width: 375, height: 800 },
] as const;

describe('Fees, the swap quote and Revenue in Chromium', () => {
  let t: WalletApp;
  let browser: Browser;

  beforeAll(async () => {
    t = await startWalletApp('pglite', {}, { listen: true });
    browser = await launchBrowser();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signedInPage(session: object): Promise<Page> {
    const { page } = await newPage(browser, t.url!);
    await page.addInitScript((user) => {
      if (!localStorage.getItem('user')) localStorage.setItem('user', user);
    }, JSON.stringify(session));
    return page;
  }

  async function walk(page: Page, content: Locator) {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await content.waitFor();
      if (process.env.E2E_SCREENSHOTS) {
        await page.screenshot({
          path: `${process.env.E2E_SCREENSHOTS}/fees-${new URL(page.url()).pathname.replace(/\W+/g, '-')}-${size.width}.png`,
          fullPage: true,
        });
      }
      expect(await pageOverflow(page), `page overflow at ${size.width}px`).toBeLessThanOrEqual(0);
      expect(await overflowOf(content), `clipped at ${size.width}px`).toEqual([]);
      expect(await axeViolations(page), `axe at ${size.width}px`).toEqual([]);
    }
    await page.setViewportSize(SIZES[0]);
  }

  it('the operator sets a 0.5 % spread, the customer accepts a quote, the operator reads the revenue', async () => {
    const admin = (await t.http.post('/api/admin/login-admin').send({ email: 'admin@test.local', password: 'admin-password-123' }).expect(200)).body;
    const adminPage = await signedInPage({ ...admin, role: 'admin' });
    await adminPage.goto('/admin');
    await adminPage.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Fees', exact: true }).click();
    await adminPage.getByRole('heading', { name: 'Fees', level: 1 }).waitFor();
    await adminPage.getByRole('button', { name: 'Edit the fees of Every token' }).click();
    await adminPage.getByLabel('Swap spread (basis points)').fill('50');
    await walk(adminPage, adminPage.locator('main'));
    await adminPage.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await adminPage.getByTestId('fees-*').locator('td').allTextContents())[1]).toBe('50');
    await walk(adminPage, adminPage.locator('main'));

    const customer = await signUp(t.http);
    await fund(t, customer._id, 'bitcoin', 200);
    const page = await signedInPage(customer);
    await page.goto('/wallet');
    await page.getByRole('navigation', { name: 'Wallet actions' }).getByRole('button', { name: 'Swap' }).click();
    await page.getByLabel('From').selectOption('bitcoin');
    await page.getByLabel('To', { exact: true }).selectOption('ethereum');
    await page.getByLabel(/^Amount/).fill('0.002');
    const quote = page.getByTestId('swap-quote');
    await expect.poll(async () => (await quote.textContent()) ?? '').toMatch(/you get 0\.039800 ETH.*Quote holds for \d+ s/);
    await expect.poll(async () => (await page.getByTestId('swap-rate').textContent()) ?? '').toBe('1 BTC = 19.9 ETH');
    await walk(page, page.getByRole('region', { name: 'Swap' }));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByTestId('swap-executed').waitFor();
    expect(await holdings(t, customer.token)).toMatchObject({ bitcoin: '0.00200000', ethereum: '0.039800' });

    await adminPage.goto('/admin/revenue');
    await adminPage.getByRole('heading', { name: 'Revenue', level: 1 }).waitFor();
    await adminPage.getByRole('cell', { name: 'Swap spread' }).waitFor();
    await walk(adminPage, adminPage.locator('main'));
    const revenue = (await t.http.get('/api/admin/revenue').set(bearer(admin.token)).expect(200)).body;
    expect(revenue.rows).toEqual([expect.objectContaining({ token: 'ethereum', kind: 'swap_spread', coinAmount: '0.0002', usd: '0.5' })]);
  });

  it('the Send confirm step shows the withdrawal fee and what the recipient gets', async () => {
    await t.http.put('/api/admin/fees/bitcoin').set(bearer(t.admin)).send({ withdrawalFee: '0.0001' }).expect(200);
    const customer = await signUp(t.http);
    await fund(t, customer._id, 'bitcoin', 200);
    // The one answer the screen reads: the schedule's fee, and the amount less it (Coinpurse settles BTC by hand here).
    const fee = (await t.http.get('/api/crypto/network-fee/bitcoin').query({ coinAmount: '0.002' }).set(bearer(customer.token)).expect(200)).body;
    expect(fee).toMatchObject({ withdrawalFee: '0.0001', estimatedFee: '0', feePaidBy: 'platform', recipientGets: '0.0019' });
    const tooSmall = (await t.http.get('/api/crypto/network-fee/bitcoin').query({ coinAmount: '0.0001' }).set(bearer(customer.token)).expect(200)).body;
    expect(tooSmall).toMatchObject({ recipientGets: '0', refusal: 'The amount does not cover the withdrawal fee of 0.0001 BTC.' });

    const page = await signedInPage(customer);
    await page.goto('/wallet');
    await page.getByRole('navigation', { name: 'Wallet actions' }).getByRole('button', { name: 'Send' }).click();
    await page.getByRole('region', { name: 'Choose a token to send' }).getByRole('button', { name: 'Bitcoin (BTC)' }).click();
    await page.getByLabel('Address').fill('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2');
    await page.getByLabel('Amount in USD').fill('100');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Transfer' }).waitFor();
    expect(await page.getByTestId('confirm-coin-amount').textContent()).toBe('-0.00200000 BTC');
    await expect.poll(() => page.getByTestId('confirm-withdrawal-fee').textContent()).toBe('0.0001 BTC');
    expect(await page.getByTestId('confirm-network-fee').textContent()).toBe('Paid by Coinpurse');
    expect(await page.getByTestId('confirm-recipient-gets').textContent()).toBe('0.0019 BTC');
    await walk(page, page.getByRole('region', { name: 'Transfer' }));
    await page.getByRole('button', { name: 'Confirm' }).click();
    // The whole amount leaves the balance: the fee to the house's revenue, the rest held for the payout.
    await expect.poll(async () => (await holdings(t, customer.token)).bitcoin).toBe('0.00200000');
  });

  it('the Fees screen sets a fixed withdrawal fee on a network; the Send confirm step charges it alone', async () => {
    const admin = (await t.http.post('/api/admin/login-admin').send({ email: 'admin@test.local', password: 'admin-password-123' }).expect(200)).body;
    const adminPage = await signedInPage({ ...admin, role: 'admin' });
    await adminPage.goto('/admin/fees');
    await adminPage.getByRole('heading', { name: 'Fees', level: 1 }).waitFor();
    await adminPage.getByRole('button', { name: 'Edit the fees of Bitcoin' }).click();
    const form = adminPage.getByRole('form', { name: 'Fees of Bitcoin' });
    await form.getByLabel('Bitcoin: how the withdrawal fee is charged').selectOption('fixed');
    await form.getByLabel('Bitcoin: withdrawal fee (coins)').fill('0.0002');
    await walk(adminPage, adminPage.locator('main'));
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await adminPage.getByTestId('fees-bitcoin-bitcoin').textContent()) ?? '').toBe('Bitcoin: 0.0002 fixed');
    await walk(adminPage, adminPage.locator('main'));

    const customer = await signUp(t.http);
    await fund(t, customer._id, 'bitcoin', 200);
    const page = await signedInPage(customer);
    await page.goto('/wallet');
    await page.getByRole('navigation', { name: 'Wallet actions' }).getByRole('button', { name: 'Send' }).click();
    await page.getByRole('region', { name: 'Choose a token to send' }).getByRole('button', { name: 'Bitcoin (BTC)' }).click();
    await page.getByLabel('Address').fill('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2');
    await page.getByLabel('Amount in USD').fill('100');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByTestId('confirm-withdrawal-fee').textContent()).toBe('0.0002 BTC');
    expect(await page.getByTestId('confirm-network-fee').textContent()).toBe('Paid by Coinpurse');
    expect(await page.getByTestId('confirm-recipient-gets').textContent()).toBe('0.0018 BTC');
    await walk(page, page.getByRole('region', { name: 'Transfer' }));
  });
});
