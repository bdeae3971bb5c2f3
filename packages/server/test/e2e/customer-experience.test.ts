// Browser tests for the customer-experience issues (13, 15): the unread dot, charts, market search and sort,
// Max on swap, history paging, dark mode and axe on each screen.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage } from '../support/browser';
import { bearer, signUp } from '../support/test-app';
import { startWalletApp, type WalletApp } from '../support/wallet';

/** Opens the app signed in as `session` (the stored user, as the login screen stores it). */
async function signedInPage(browser: Browser, url: string, session: object): Promise<Page> {
  const { page } = await newPage(browser, url);
  await page.addInitScript((user) => {
    if (!localStorage.getItem('user')) localStorage.setItem('user', user);
  }, JSON.stringify(session));
  return page;
}

describe('customer experience in Chromium', () => {
  let t: WalletApp;
  let browser: Browser;

  beforeAll(async () => {
    t = await startWalletApp('pglite', {}, { listen: true });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('issue 15: an unread notification shows a visible dot named "Unread" that goes away once opened', async () => {
    const customer = await signUp(t.http);
    await t.http
      .post(`/api/admin/send-notifiction/${customer._id}`)
      .set(bearer(t.admin))
      .send({ title: 'Welcome aboard', message: 'Your account is ready.', userId: customer._id })
      .expect((response) => expect(response.status).toBeLessThan(300));
    const page = await signedInPage(browser, t.url!, customer);
    await page.goto('/notifications');
    const item = page.getByTestId('notification-item').filter({ hasText: 'Welcome aboard' });
    await item.waitFor();
    const dot = item.getByTestId('unread-dot');
    const box = await dot.boundingBox();
    expect(box?.width).toBeGreaterThan(0);
    expect(box?.height).toBeGreaterThan(0);
    expect(await item.getByRole('img', { name: 'Unread' }).count()).toBe(1);
    if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/notifications-unread-dot.png` });
    await item.click();
    await page.getByRole('dialog').waitFor();
    await expect.poll(() => item.getAttribute('data-read')).toBe('true');
    expect(await dot.count()).toBe(0);
    await page.context().close();
  });
});
