// Browser tests for the customer-experience issues (13, 15): the unread dot, charts, market search and sort,
// Max on swap, history paging, dark mode and axe on each screen.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage } from '../support/browser';
import { PriceHistoryRepository } from '../../src/modules/market/price-history.repository';
import { bearer, signUp } from '../support/test-app';
import { fund, startWalletApp, type WalletApp } from '../support/wallet';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

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

  it('the coin page chart draws each range and shows the price under the crosshair', async () => {
    const now = Date.now();
    const points: Array<[number, number]> = [];
    for (let at = now - 700 * DAY; at < now - 30 * DAY; at += DAY) points.push([at, 30000 + (at % 7) * 100]);
    for (let at = now - 30 * DAY; at < now - HOUR; at += HOUR) points.push([at, 45000 + Math.sin(at / DAY) * 2000]);
    await t.app.get(PriceHistoryRepository).insertMany('bitcoin', points);
    const customer = await signUp(t.http);
    await fund(t, customer._id, 'bitcoin', 1000);
    const page = await signedInPage(browser, t.url!, customer);
    await page.goto('/wallet');
    await page.getByRole('button', { name: 'Bitcoin (BTC)' }).click();
    const chart = page.getByTestId('price-chart');
    await expect.poll(() => chart.getAttribute('data-points')).not.toBe('0');
    await chart.locator('canvas').first().waitFor();
    const week = Number(await chart.getAttribute('data-points'));
    expect(week).toBeGreaterThanOrEqual(160);
    expect(await page.getByRole('button', { name: '1W' }).getAttribute('aria-pressed')).toBe('true');

    await page.getByRole('button', { name: '1Y' }).click();
    await expect.poll(() => chart.getAttribute('data-range')).toBe('1y');
    await expect.poll(() => chart.getAttribute('data-points')).not.toBe(String(week));
    const year = Number(await chart.getAttribute('data-points'));
    expect(Number(await chart.getAttribute('data-first'))).toBeLessThan(now - 300 * DAY);
    await page.getByRole('button', { name: 'All' }).click();
    await expect.poll(async () => Number(await chart.getAttribute('data-points'))).toBeGreaterThan(year);
    await page.getByRole('button', { name: '1D' }).click();
    await expect.poll(async () => Number(await chart.getAttribute('data-points'))).toBeLessThan(30);
    expect(await page.getByTestId('chart-change').textContent()).toMatch(/^[+-]?\d+\.\d{2}% \([+-]\$[\d,]+\.\d{2}\) 1 day$/);

    // The crosshair: hovering the plot shows a price and a time.
    await page.getByRole('button', { name: '1M' }).click();
    await expect.poll(() => chart.getAttribute('data-range')).toBe('30d');
    const box = (await chart.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.move(box.x + box.width / 2 + 5, box.y + box.height / 2);
    await expect.poll(() => page.getByTestId('chart-crosshair').textContent()).toMatch(/^\$[\d,]+\.\d{2} · [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    await page.context().close();
  });
});
