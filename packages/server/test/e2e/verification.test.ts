// Browser end-to-end (issue 35): a customer at level 0 reads Profile → Verification (each level's limits, what is
// missing, what is left today), fills the level-1 form and uploads the documents; an administrator works the review
// queue (documents shown from the admin-only route), rejects with a reason the customer then reads; each screen walked
// at 1366×850 and 375×812: no sideways scroll, nothing sticking out of the content, axe clean.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage } from '../support/browser';
import { signUp } from '../support/test-app';
import { axeViolations, overflowOf, pageOverflow, tableProblems } from '../support/visual-checks';
import { startWalletApp, type WalletApp } from '../support/wallet';

const SIZES = [
  { width: 1366, height: 850 },
  { width: 375, height: 812 },
] as const;
// A real 1×1 PNG, so the browser can show it.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const toast = (page: Page, text: string) => page.locator('[role="status"]').filter({ hasText: text }).first().waitFor();

describe('Verification and the review queue in Chromium', () => {
  let t: WalletApp;
  let browser: Browser;
  let customer: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    t = await startWalletApp('pglite', { KYC_LIMITS: 'on' }, { listen: true });
    customer = await signUp(t.http, { name: 'Ada Lovelace' });
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

  /** At each size: the page does not scroll sideways, nothing sticks out of `content`, every table fits or scrolls in its card, axe finds nothing. */
  async function walk(page: Page, content: Locator, name: string) {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await content.waitFor();
      if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/verification-${name}-${size.width}.png`, fullPage: true });
      expect(await pageOverflow(page), `page overflow at ${size.width}px`).toBeLessThanOrEqual(0);
      expect(await overflowOf(content), `clipped at ${size.width}px`).toEqual([]);
      expect(await tableProblems(page), `tables at ${size.width}px`).toEqual([]);
      expect(await axeViolations(page), `axe at ${size.width}px`).toEqual([]);
    }
  }

  it('the customer reads their level and limits, fills the level-1 form, uploads the documents and sends it', async () => {
    const page = await signedInPage(customer);
    // The wallet says what is left today, and where to raise it.
    await page.goto('/wallet');
    await page.getByTestId('limits-left').getByText('Left today: sends none · swaps $1,000.00 · deposits $1,000.00.').waitFor();
    await page.getByRole('link', { name: 'Level 0: raise your limits' }).waitFor();
    await page.goto('/user-profile');
    await page.getByRole('link', { name: 'Verification' }).click();
    await page.getByRole('heading', { name: 'Your level: 0' }).waitFor();
    await page.getByText('The front of your identity document').waitFor();
    await page.getByRole('heading', { name: 'Left today' }).waitFor();
    await walk(page, page.locator('main'), 'customer-level-0');

    await page.getByLabel('Legal name').fill('Ada Lovelace');
    await page.getByLabel('Date of birth').fill('1990-04-21');
    await page.getByLabel('Residential address').fill('12 St James’s Square, London');
    await page.getByLabel('Country of residence').selectOption('GB');
    await page.getByLabel('Identity document', { exact: true }).selectOption('id_card');
    await page.getByLabel('Identity document, front').setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: PNG });
    await toast(page, 'Identity document, front uploaded');
    await page.getByLabel('Identity document, back').setInputFiles({ name: 'back.png', mimeType: 'image/png', buffer: PNG });
    await toast(page, 'Identity document, back uploaded');
    await page.getByLabel('Selfie').setInputFiles({ name: 'selfie.png', mimeType: 'image/png', buffer: PNG });
    await toast(page, 'Selfie uploaded');
    await page.getByRole('button', { name: 'Send for review' }).click();
    await page.getByText('In review').first().waitFor();
    expect(await page.getByRole('button', { name: 'Send for review' }).count()).toBe(0);
    await walk(page, page.locator('main'), 'customer-in-review');
    await page.close();
  });

  it('an administrator reviews the queue, sees the documents, and rejects with a reason the customer then reads', async () => {
    const admin = (await t.http.post('/api/admin/login-admin').send({ email: 'admin@test.local', password: 'admin-password-123' }).expect(200)).body;
    const page = await signedInPage({ ...admin, role: 'admin' });
    await page.goto('/admin');
    await page.getByRole('link', { name: 'Verifications' }).first().click();
    await page.getByRole('heading', { name: 'Verifications', level: 1 }).waitFor();
    await page.getByText('Ada Lovelace').first().waitFor();
    await walk(page, page.locator('main'), 'admin-queue');

    await page.getByRole('button', { name: "Review Ada Lovelace's verification" }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('12 St James’s Square, London').waitFor();
    // Each document is shown from the admin-only route (fetched with the session, never a public URL).
    const images = dialog.locator('.verification-documents img');
    await expect.poll(() => images.count()).toBe(3);
    for (const src of await images.evaluateAll((nodes) => nodes.map((n) => (n as HTMLImageElement).src))) expect(src).toMatch(/^blob:/);
    expect(await images.first().evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(1);
    await dialog.getByRole('button', { name: 'Assign to me' }).click();
    await toast(page, 'Assigned to you');
    await walk(page, dialog, 'admin-review');
    await dialog.getByLabel('Reason (to reject; the customer reads it)').fill('The selfie does not show the document');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await toast(page, 'Verification rejected');
    await dialog.getByText('Level 1').last().waitFor();
    await page.close();

    const customerPage = await signedInPage(customer);
    await customerPage.goto('/profile/verification');
    await customerPage.getByText('The selfie does not show the document').waitFor();
    await customerPage.getByRole('button', { name: 'Send for review' }).waitFor();
    await walk(customerPage, customerPage.locator('main'), 'customer-rejected');
    await customerPage.close();
  });
});
