// Browser tests for the customer-experience issues (13, 15): the unread dot, charts, market search and sort,
// Max on swap, history paging, dark mode and axe on each screen.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage } from '../support/browser';
import { axeViolations } from '../support/visual-checks';
import { eq, inArray } from 'drizzle-orm';
import { DATABASE, type Database } from '../../src/db/database';
import { coins } from '../../src/db/schema';
import { PriceHistoryRepository } from '../../src/modules/market/price-history.repository';
import { bearer, signUp } from '../support/test-app';
import { fund, holdings, startWalletApp, type WalletApp } from '../support/wallet';

/** The client's date style in the test locale (en-US): Nov 14, 2026. */
const formatDay = (at: number) => new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }).format(at);

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

  it('issue 15: the dot stays visible in dark mode', async () => {
    const customer = await signUp(t.http);
    await t.http
      .post(`/api/admin/send-notifiction/${customer._id}`)
      .set(bearer(t.admin))
      .send({ title: 'Night notice', message: 'Seen in the dark.', userId: customer._id })
      .expect((response) => expect(response.status).toBeLessThan(300));
    const page = await signedInPage(browser, t.url!, customer);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/notifications');
    const item = page.getByTestId('notification-item').filter({ hasText: 'Night notice' });
    const dot = item.getByTestId('unread-dot');
    await dot.waitFor();
    expect((await dot.boundingBox())?.width).toBeGreaterThan(0);
    const [dotColour, itemColour] = await Promise.all([
      dot.evaluate((el) => getComputedStyle(el).backgroundColor),
      item.evaluate((el) => getComputedStyle(el).backgroundColor),
    ]);
    expect(dotColour).not.toBe(itemColour);
    expect(itemColour).not.toBe('rgb(255, 255, 255)');
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
    // Live prices: a short history is not blamed on being offline.
    expect(await page.getByTestId('chart-offline-note').count()).toBe(0);
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

  it('offline, a coin with only a stored week says so on longer ranges and draws what exists', async () => {
    // The offline machine: every market price from the snapshot, ethereum with an hourly week (as the snapshot's).
    const db = t.app.get<Database>(DATABASE);
    const live = (await db.select({ id: coins.id }).from(coins).where(eq(coins.source, 'live'))).map((c) => c.id);
    await db.update(coins).set({ source: 'snapshot' }).where(inArray(coins.id, live));
    const now = Date.now();
    const week: Array<[number, number]> = [];
    for (let at = now - 7 * DAY + HOUR; at < now; at += HOUR) week.push([at, 2400 + Math.sin(at / DAY) * 50]);
    await t.app.get(PriceHistoryRepository).insertMany('ethereum', week);
    const customer = await signUp(t.http);
    const page = await signedInPage(browser, t.url!, customer);
    try {
      await page.goto('/wallet');
      await page.getByRole('button', { name: /^Ethereum \(ETH\)/ }).click();
      const chart = page.getByTestId('price-chart');
      await expect.poll(async () => Number(await chart.getAttribute('data-points'))).toBeGreaterThan(150);
      const weekPoints = Number(await chart.getAttribute('data-points'));
      const note = page.getByTestId('chart-offline-note');
      expect(await note.count()).toBe(0);
      // The month draws the stored week hourly; a year and all time daily (one point a day).
      for (const [label, range, points] of [
        ['1M', '30d', weekPoints - 1],
        ['1Y', '1y', 7],
        ['All', 'all', 7],
      ] as const) {
        await page.getByRole('button', { name: label }).click();
        await expect.poll(() => chart.getAttribute('data-range')).toBe(range);
        await expect.poll(() => note.count()).toBe(1);
        // What exists is drawn, and the note names its first day.
        expect(Number(await chart.getAttribute('data-points'))).toBeGreaterThanOrEqual(points);
        expect(await note.textContent()).toBe(`History before ${formatDay(Number(await chart.getAttribute('data-first')))} is not available offline.`);
      }
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await db.update(coins).set({ source: 'live' }).where(inArray(coins.id, live));
      await page.context().close();
    }
  });

  it('lists show skeleton rows (no spinner) while their first load is held back, then the data', async () => {
    const held = async (page: Page, pattern: string) => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      await page.route(pattern, async (route) => {
        await gate;
        await route.continue();
      });
      return release;
    };
    const visitor = (await newPage(browser, t.url!)).page;
    const releaseMarket = await held(visitor, '**/api/crypto/get-crypto*');
    await visitor.goto('/market');
    await visitor.getByRole('status').filter({ hasText: 'Loading market coins' }).waitFor();
    expect(await visitor.getByTestId('skeleton-row').count()).toBeGreaterThan(0);
    expect(await visitor.locator('.spinner').count()).toBe(0);
    releaseMarket();
    await visitor.getByTestId('market-row').first().waitFor();
    expect(await visitor.getByTestId('skeleton-row').count()).toBe(0);
    await visitor.context().close();

    const customer = await signUp(t.http);
    const page = await signedInPage(browser, t.url!, customer);
    const releaseNotifications = await held(page, '**/api/user/get-notifications*');
    await page.goto('/notifications');
    await page.getByRole('status').filter({ hasText: 'Loading notifications' }).waitFor();
    expect(await page.getByTestId('skeleton-row').count()).toBeGreaterThan(0);
    expect(await page.locator('.spinner').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    releaseNotifications();
    await page.getByText('You have no notifications yet.').waitFor();
    expect(await page.getByTestId('skeleton-row').count()).toBe(0);
    await page.context().close();
  });

  it('market: search by name or symbol, sort by price and 24h change, a table on wide screens', async () => {
    const page = (await newPage(browser, t.url!)).page;
    await page.goto('/market');
    const rows = page.getByTestId('market-row');
    await expect.poll(() => rows.count()).toBe(3);
    const names = () => rows.locator('strong').allTextContents();
    expect(await names()).toEqual(['Bitcoin', 'Ethereum', 'Tether']);
    await page.getByLabel('Search coins').fill('bit');
    await expect.poll(names).toEqual(['Bitcoin']);
    // Names match anywhere: "eth" is in Ethereum and in Tether.
    await page.getByLabel('Search coins').fill('eth');
    await expect.poll(names).toEqual(['Ethereum', 'Tether']);
    await page.getByLabel('Search coins').fill('USDT');
    await expect.poll(names).toEqual(['Tether']);
    await page.getByLabel('Search coins').fill('dogecoin');
    await page.getByText('No coin matches “dogecoin”.').waitFor();
    await page.getByLabel('Search coins').fill('');
    await page.getByLabel('Sort by').selectOption('price:asc');
    await expect.poll(names).toEqual(['Tether', 'Ethereum', 'Bitcoin']);
    // The column header toggles the direction.
    await page.getByRole('button', { name: 'Price' }).click();
    await expect.poll(names).toEqual(['Bitcoin', 'Ethereum', 'Tether']);
    expect(await page.getByRole('columnheader', { name: /Price/ }).getAttribute('aria-sort')).toBe('descending');
    // On a phone: cards, the full name shown.
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await page.getByTestId('market-table').isVisible()).toBe(false);
    const card = page.getByRole('list', { name: 'Market coins' }).getByRole('listitem').filter({ hasText: 'Ethereum' });
    expect(await card.locator('.coin-name').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await page.context().close();
  });

  it('swap: Max fills the whole balance, shows the rate, and Confirm moves all of it', async () => {
    const customer = await signUp(t.http);
    await fund(t, customer._id, 'bitcoin', 1000);
    const page = await signedInPage(browser, t.url!, customer);
    await page.goto('/wallet');
    await page.getByRole('navigation', { name: 'Wallet actions' }).getByRole('button', { name: 'Swap' }).click();
    await page.getByLabel('From').selectOption('bitcoin');
    await page.getByLabel('To', { exact: true }).selectOption('ethereum');
    await page.getByRole('button', { name: 'Max', exact: true }).click();
    expect(await page.getByLabel('Amount (BTC)').inputValue()).toBe('0.02000000');
    expect(await page.getByTestId('swap-rate').textContent()).toBe('1 BTC = 20 ETH');
    expect(await page.getByTestId('swap-usd').textContent()).toBe('$1,000.00');
    expect(await page.getByTestId('swap-output-usd').textContent()).toBe('$1,000.00');
    expect(await page.getByLabel('You receive (ETH)').inputValue()).toBe('0.400000');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('status').filter({ hasText: 'Swap successful' }).first().waitFor();
    expect(await page.getByTestId('swap-executed').textContent()).toBe('Swapped 0.02000000 BTC for 0.400000 ETH ($1,000.00)');
    const held = await holdings(t, customer.token);
    expect(held.bitcoin ?? '0').toMatch(/^0(\.0+)?$/);
    expect(held.ethereum).toMatch(/^0\.4(0*)$/);
    await page.context().close();
  });

  it('history: "Load more" brings the next page; a transaction opens in a detail view', async () => {
    const customer = await signUp(t.http);
    for (let i = 1; i <= 23; i++) await fund(t, customer._id, 'tether', i);
    const page = await signedInPage(browser, t.url!, customer);
    await page.goto('/wallet');
    await page.getByRole('navigation', { name: 'Wallet actions' }).getByRole('button', { name: 'History' }).click();
    const items = page.getByTestId('history-item');
    await expect.poll(() => items.count()).toBe(20);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => items.count()).toBe(23);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    // Newest first: the last one is the first funding ($1.00).
    expect(await items.last().textContent()).toContain('$1.00');
    await items.first().getByRole('button').click();
    const detail = page.getByTestId('transaction-detail');
    await detail.waitFor();
    expect(await detail.textContent()).toContain('Value at the time$23.00');
    expect(await page.getByTestId('transaction-amount').textContent()).toBe('+23.00 USDT · $23.00');
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => detail.count()).toBe(0);
    await page.context().close();
  });

  it('dark mode: follows the system, toggles, and the choice persists', async () => {
    const { context, page } = await newPage(browser, t.url!);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Dark mode' });
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const dark = await background();
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    const light = await background();
    expect(light).not.toBe(dark);
    await page.reload();
    expect(await page.getByRole('button', { name: 'Dark mode' }).getAttribute('aria-pressed')).toBe('false');
    expect(await background()).toBe(light);
    await page.getByRole('button', { name: 'Dark mode' }).click();
    await page.emulateMedia({ colorScheme: 'light' });
    await page.reload();
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    expect(await background()).toBe(dark);
    expect(await axeViolations(page)).toEqual([]);
    await context.close();

    // The back office keeps the light palette whatever the customer chose (dark stored, dark system).
    const admin = await signedInPage(browser, t.url!, { ...(await loginAdminSession()), role: 'admin' });
    await admin.emulateMedia({ colorScheme: 'dark' });
    await admin.addInitScript(() => localStorage.setItem('theme', 'dark'));
    await admin.goto('/admin/users');
    await admin.locator('main h1').first().waitFor({ state: 'attached' });
    const adminColours = () =>
      admin.evaluate(() => [getComputedStyle(document.querySelector('.admin-shell')!).backgroundColor, getComputedStyle(document.body).backgroundColor]);
    expect(await adminColours()).toEqual([light, light]);
    expect(await admin.evaluate(() => document.documentElement.dataset.area)).toBe('admin');
    await admin.context().close();
  });

  it('axe: no WCAG 2.1 A/AA or best-practice violation on any customer or admin screen', async () => {
    const customer = await signUp(t.http);
    await fund(t, customer._id, 'bitcoin', 500);
    const found: Record<string, string[]> = {};
    const check = async (page: Page, name: string) => {
      // Loaded: nothing marked busy (the wallet keeps an event stream open, so "network idle" never comes).
      await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
      const violations = await axeViolations(page);
      if (violations.length) found[name] = violations;
    };
    const visitor = (await newPage(browser, t.url!)).page;
    // The check can fail: a button whose name does not contain its visible text is reported.
    await visitor.goto('/');
    await visitor.locator('main').waitFor();
    await visitor.evaluate(() =>
      document.querySelector('main')!.insertAdjacentHTML('beforeend', '<button type="button" aria-label="Coinpurse home">Admin</button>'),
    );
    expect(await axeViolations(visitor)).toEqual([expect.stringMatching(/^label-content-name-mismatch: /)]);
    for (const path of ['/', '/market', '/login', '/signup', '/forgot-password', '/ticket', '/login-admin']) {
      await visitor.goto(path);
      await visitor.locator('h1').first().waitFor({ state: 'attached' });
      await check(visitor, path);
    }
    await visitor.context().close();

    const page = await signedInPage(browser, t.url!, customer);
    const backToWallet = async () => {
      for (let i = 0; i < 3 && (await page.getByRole('button', { name: 'Back' }).count()); i++) await page.getByRole('button', { name: 'Back' }).click();
    };
    await page.goto('/wallet');
    await page.getByRole('button', { name: /^Bitcoin \(BTC\)/ }).waitFor();
    await check(page, '/wallet');
    await page.getByRole('button', { name: /^Bitcoin \(BTC\)/ }).click();
    await page.getByTestId('price-chart').locator('canvas').first().waitFor();
    await check(page, 'coin page');
    await backToWallet();
    const actions = page.getByRole('navigation', { name: 'Wallet actions' });
    await actions.getByRole('button', { name: 'Receive' }).click();
    await page.getByRole('region', { name: 'Choose a token to receive' }).waitFor();
    await check(page, 'receive picker');
    await page
      .getByRole('region', { name: 'Choose a token to receive' })
      .getByRole('button', { name: /^Bitcoin \(BTC\)/ })
      .click();
    // This app's bitcoin has no deposit address yet: the view says so (no QR, no address).
    await page.getByTestId('receive-not-set-up').waitFor();
    await check(page, 'receive view');
    await backToWallet();
    await actions.getByRole('button', { name: 'Send' }).click();
    await page
      .getByRole('region', { name: 'Choose a token to send' })
      .getByRole('button', { name: /^Bitcoin \(BTC\)/ })
      .click();
    await page.getByLabel('Amount in USD').waitFor();
    await check(page, 'send form');
    await backToWallet();
    await actions.getByRole('button', { name: 'Swap' }).click();
    await page.getByLabel('From').waitFor();
    await check(page, 'swap');
    await backToWallet();
    await actions.getByRole('button', { name: 'History' }).click();
    await page.getByTestId('history-item').first().waitFor();
    await check(page, 'history');
    for (const path of ['/notifications', '/user-profile', '/profile-setting']) {
      await page.goto(path);
      await page.locator('h1').first().waitFor({ state: 'attached' });
      await check(page, path);
    }
    await page.context().close();

    const admin = await signedInPage(browser, t.url!, { ...(await loginAdminSession()), role: 'admin' });
    for (const path of [
      '/admin',
      '/admin/users',
      '/admin/tokens',
      '/admin/custom-tokens',
      '/admin/notify',
      '/admin/transactions',
      '/admin/tickets',
      '/admin/audit',
    ]) {
      await admin.goto(path);
      // The page's own chunk has arrived once its heading is there.
      await admin.locator('main h1').first().waitFor({ state: 'attached' });
      await check(admin, path);
    }
    await admin.context().close();
    expect(found).toEqual({});
  });

  async function loginAdminSession() {
    return (await t.http.post('/api/admin/login-admin').send({ email: 'admin@test.local', password: 'admin-password-123' }).expect(200)).body as object;
  }
});
