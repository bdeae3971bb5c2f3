// Browser end-to-end (issue 4): the customer journey in Chromium against the real server on a fresh database.
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CoinsRepository } from '../../src/modules/market/coins.repository';
import { MarketCacheService } from '../../src/modules/market/market-cache.service';
import { outboxDirectory } from '../../src/modules/mail/mail.service';
import { launchBrowser, newPage } from '../support/browser';
import { bearer, loginAdmin, signUp, startTestApp, uniqueEmail, type TestApp } from '../support/test-app';

const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const ETH_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const RECIPIENT = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';

/** Coins with exact prices and a 7-day sparkline (the coin page's chart). */
async function seedMarket(t: TestApp) {
  const sparkline = (base: number) => Array.from({ length: 24 }, (_, i) => base * (1 + Math.sin(i / 3) / 20));
  const coins = [
    { id: 'bitcoin', symbol: 'btc', name: 'Bitcoin', price: '50000', change: '2.345' },
    { id: 'ethereum', symbol: 'eth', name: 'Ethereum', price: '2500', change: '-1.5' },
    { id: 'tether', symbol: 'usdt', name: 'Tether', price: '1', change: '0.01' },
  ];
  await t.app.get(CoinsRepository).upsertMany(
    coins.map((c, i) => ({
      id: c.id,
      symbol: c.symbol,
      name: c.name,
      image: `${c.symbol}.png`,
      currentPrice: c.price,
      marketCapRank: i + 1,
      priceChangePercentage24h: c.change,
      sparkline7d: sparkline(Number(c.price)),
      lastUpdated: new Date(),
      source: 'live' as const,
    })),
  );
  // The served market list is cached; written straight to the table, the change must drop that cache.
  t.app.get(MarketCacheService).invalidate();
}

async function setTokenAddresses(t: TestApp, adminToken: string) {
  const tokens = (await t.http.get('/api/admin/get-tokens').set(bearer(adminToken)).expect(200)).body as { _id: string; name: string }[];
  const addresses: Record<string, string> = { bitcoin: BTC_ADDRESS, ethereum: ETH_ADDRESS, tether: ETH_ADDRESS };
  for (const token of tokens) {
    if (!addresses[token.name]) continue;
    await t.http
      .put('/api/admin/edit-token')
      .set(bearer(adminToken))
      .send({ token: token.name, address: addresses[token.name], tokenId: token._id, oldToken: token.name })
      .expect(200);
  }
}

const storedUser = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null') as { token: string; _id: string } | null);
const toast = (page: Page, text: string) => page.locator('[role="status"]').filter({ hasText: text }).first().waitFor();

describe('customer journey in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let admin: { token: string };
  const email = uniqueEmail('journey');
  const password = 'password-123';

  beforeAll(async () => {
    t = await startTestApp('pglite', {}, { listen: true });
    await seedMarket(t);
    admin = await loginAdmin(t.http);
    await setTokenAddresses(t, admin.token);
    browser = await launchBrowser();
    ({ page } = await newPage(browser, t.url!));
  });
  afterEach(async (context) => {
    // A failing step leaves a screenshot and the URL behind for the next person.
    if (context.task.result?.state === 'fail' && process.env.E2E_SCREENSHOTS) {
      await page
        .screenshot({ path: join(process.env.E2E_SCREENSHOTS, `${context.task.name.replace(/\W+/g, '-')}.png`), fullPage: true })
        .catch(() => undefined);
      console.log('failed at', page.url());
    }
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('home shows the first coins with formatted change; market lists them', async () => {
    await page.goto('/');
    const bitcoin = page.getByRole('list', { name: 'Top coins' }).getByRole('listitem').filter({ hasText: 'Bitcoin' });
    await bitcoin.waitFor();
    expect(await bitcoin.textContent()).toContain('$50,000.00');
    expect(await bitcoin.locator('.up').textContent()).toBe('+2.35%');
    expect(await page.getByRole('list', { name: 'Top coins' }).getByRole('listitem').filter({ hasText: 'Ethereum' }).locator('.down').textContent()).toBe(
      '-1.50%',
    );
    expect(await page.locator('.faq details').count()).toBe(7);
    await page.getByLabel('Email').fill('news@example.com');
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await toast(page, 'Successfully signed up for our newsletters');
    expect(await page.getByLabel('Email').inputValue()).toBe('');
    await page.getByRole('link', { name: "Let's Get Started" }).click();
    await page.waitForURL('**/login');
  });

  it('signs up to an empty wallet', async () => {
    await page.goto('/signup');
    await page.getByLabel('Name').fill('Grace Hopper');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Country of Residence').selectOption('United States');
    await page.getByRole('button', { name: 'Sign Up', exact: true }).last().click();
    await page.waitForURL('**/wallet');
    await expect.poll(() => page.getByTestId('total-balance').textContent()).toBe('$0.00');
    expect(await page.getByTestId('amount-bitcoin').textContent()).toBe('0.00000000');
    expect(await page.evaluate(() => localStorage.getItem('walletTokens'))).toContain('bitcoin');
    expect(Number(await page.evaluate(() => localStorage.getItem('lastClearTime')))).toBeGreaterThan(Date.now() - 60_000);
  });

  it('a deposit (admin API) shows up live in the balance and the list, highest value first', async () => {
    const user = (await storedUser(page))!;
    await t.http.post(`/api/crypto/deposit/${user._id}`).set(bearer(admin.token)).send({ amount: 1000, status: 'approved', network: 'bitcoin' }).expect(201);
    await expect.poll(() => page.getByTestId('total-balance').textContent(), { timeout: 20_000 }).toBe('$1,000.00');
    expect(await page.getByTestId('amount-bitcoin').textContent()).toBe('0.02000000');
    expect(await page.getByTestId('usd-bitcoin').textContent()).toBe('$1,000.00');
    const first = page.locator('.token-list .token-row').first();
    expect(await first.locator('strong').textContent()).toBe('Bitcoin');
    await expect.poll(() => page.getByTestId('unread-count').textContent()).toBe('1');
  });

  it('the coin page shows the amount and a 7-day chart', async () => {
    await page.getByRole('button', { name: 'Bitcoin (BTC)' }).click();
    expect(await page.getByTestId('coin-amount').textContent()).toBe('0.02000000 BTC');
    expect(await page.getByTestId('coin-usd').textContent()).toBe('$1,000.00');
    // The 7-day chart draws the stored hourly prices (lightweight-charts on a canvas).
    await expect.poll(() => page.getByTestId('price-chart').getAttribute('data-points')).toBe('24');
    await page.getByTestId('price-chart').locator('canvas').first().waitFor();
    // panels persist across reloads
    await page.reload();
    await page.getByTestId('price-chart').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('openCoinpage'))).toBe('true');
  });

  it('swaps with the exact numbers', async () => {
    await page.getByRole('region', { name: 'Bitcoin coin page' }).getByRole('button', { name: 'Swap' }).click();
    expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe('bitcoin');
    await page.getByLabel('To', { exact: true }).selectOption('ethereum');
    const confirm = page.getByRole('button', { name: 'Confirm' });
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByLabel(/^Amount/).fill('0.03');
    await page.getByText('Insufficient BTC balance').waitFor();
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByLabel(/^Amount/).fill('0.01');
    expect(await page.getByLabel(/^You receive/).inputValue()).toBe('0.200000');
    expect(await page.getByTestId('swap-usd').textContent()).toBe('$500.00');
    await confirm.click();
    await toast(page, 'Swap successful');
    expect(await page.getByLabel(/^Amount/).inputValue()).toBe('0');
    const balance = (
      await t.http
        .get('/api/user/get-user-balance')
        .set(bearer((await storedUser(page))!.token))
        .expect(200)
    ).body;
    const byToken = Object.fromEntries(balance.balances.map((b: { token: string; coinAmount: string }) => [b.token, b.coinAmount]));
    expect(byToken).toMatchObject({ bitcoin: '0.01000000', ethereum: '0.200000' });
    await page.getByRole('button', { name: 'Back' }).click(); // back to the coin page
    await expect.poll(() => page.getByTestId('coin-amount').textContent()).toBe('0.01000000 BTC');
    await page.getByRole('button', { name: 'Back' }).click(); // back to the wallet
  });

  it("sends to a valid address through the 'Transfer' confirm screen; history shows it pending", async () => {
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const picker = page.getByRole('region', { name: 'Choose a token to send' });
    expect(await picker.locator('.token-row').count()).toBeLessThanOrEqual(8);
    await picker.getByRole('button', { name: 'Bitcoin (BTC)' }).click();
    const next = page.getByRole('button', { name: 'Next' });
    expect(await next.isDisabled()).toBe(true);
    await page.getByLabel('Address').fill(RECIPIENT);
    expect(await next.isDisabled()).toBe(true);
    await page.getByLabel('Amount in USD').fill('100');
    await next.click();
    await page.getByRole('heading', { name: 'Transfer' }).waitFor();
    expect(await page.getByTestId('confirm-coin-amount').textContent()).toBe('-0.00200000 BTC');
    expect(await page.getByTestId('confirm-usd-amount').textContent()).toBe('$100.00');
    const summary = await page.locator('dl.summary').textContent();
    // Named (no raw id); paid from the customer's balance, never from their deposit address; the fee said.
    expect(summary).toContain('AssetBitcoin (BTC)');
    expect(summary).toContain('FromYour Coinpurse balance');
    expect(summary).not.toContain(BTC_ADDRESS);
    expect(summary).toContain(RECIPIENT);
    expect(summary).toContain('Network feePaid by Coinpurse');
    expect(summary).toContain('Recipient gets0.00200000 BTC');
    const sent = page.waitForRequest((r) => r.url().includes('/api/crypto/send-crypto/bitcoin'));
    await page.getByRole('button', { name: 'Confirm' }).click();
    const request = await sent;
    expect(request.headers()['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(request.postDataJSON()).toEqual({ transferData: { address: RECIPIENT, amount: 100, symbol: 'btc', coinAmount: '0.00200000' } });
    await toast(page, 'Sent and Pending Check Status in History');
    await page.waitForEvent('load'); // the page reloads after a send
    await page.getByRole('button', { name: 'History' }).click();
    const item = page.locator(`[data-testid="history-item"][data-address="${RECIPIENT}"]`);
    await item.waitFor();
    expect(await item.getByTestId('history-title').textContent()).toBe('Sent Bitcoin');
    expect(await item.getByTestId('history-usd').textContent()).toBe('$100.00');
    expect(await item.getByTestId('history-coin').textContent()).toBe('-0.00200000 BTC');
    expect(await item.getByTestId('history-state').textContent()).toBe('Waiting for review');
    // filters go to the server; the CSV export downloads the same history
    await page.getByLabel('Status').selectOption('approved');
    await expect.poll(() => item.count()).toBe(0);
    await page.getByLabel('Status').selectOption('');
    await item.waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await (await download).path();
    const csv = readFileSync(file, 'utf8');
    expect(csv).toContain(RECIPIENT);
    expect(csv.split('\n').length).toBeGreaterThanOrEqual(3);
    await page.getByRole('button', { name: 'Back' }).click();
  });

  it('an approval (admin API) brings a notification that opens and turns read', async () => {
    const unreadNow = async () =>
      (
        (
          await t.http
            .get('/api/user/get-notifications')
            .set(bearer((await storedUser(page))!.token))
            .expect(200)
        ).body as { read: boolean }[]
      ).filter((n) => !n.read).length;
    const before = await unreadNow();
    await expect.poll(() => page.getByTestId('unread-count').textContent()).toBe(String(before));
    const transactions = (await t.http.get('/api/admin/transaction').set(bearer(admin.token)).expect(200)).body as { _id: string; address: string | null }[];
    const withdrawal = transactions.find((tx) => tx.address === RECIPIENT)!;
    await t.http.post('/api/admin/modify-transaction').set(bearer(admin.token)).send({ tId: withdrawal._id, modification: 'approved' }).expect(200);
    await expect.poll(() => page.getByTestId('unread-count').textContent(), { timeout: 20_000 }).toBe(String(before + 1));
    await page.getByRole('link', { name: /Notifications/ }).click();
    await page.waitForURL('**/notifications');
    const items = page.getByTestId('notification-item');
    await items.first().waitFor();
    const newest = items.first();
    expect(await newest.getAttribute('data-read')).toBe('false');
    expect(await newest.getByTestId('unread-dot').count()).toBe(1);
    expect(await newest.textContent()).toMatch(/[A-Z][a-z]{2} \d{1,2}, \d{4}/);
    expect(await newest.locator('.status-approved').count()).toBe(1);
    await newest.click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await expect.poll(() => newest.getAttribute('data-read')).toBe('true');
    expect(await newest.textContent()).toContain('approved');
    await expect.poll(unreadNow).toBe(before);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL('**/wallet');
  });

  it('receive shows a QR that decodes to the address, and copies the address', async () => {
    await page.getByRole('button', { name: 'Receive', exact: true }).click();
    await page.getByRole('region', { name: 'Choose a token to receive' }).getByRole('button', { name: 'Bitcoin (BTC)' }).click();
    await page.getByText('This address accepts Bitcoin (BTC) only. Anything else sent to it will be lost.').waitFor();
    expect(await page.getByTestId('receive-address').textContent()).toBe(BTC_ADDRESS);
    const shot = await page.getByTestId('receive-qr').screenshot();
    const png = PNG.sync.read(shot);
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(decoded?.data).toBe(BTC_ADDRESS);
    await page.getByRole('button', { name: 'Copy Address' }).click();
    await toast(page, 'Address copied to clipboard!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(BTC_ADDRESS);
    await page.getByRole('button', { name: 'Back' }).click();
  });

  it('hiding the balance survives a reload', async () => {
    await page.getByRole('button', { name: 'Hide balance' }).click();
    expect(await page.getByTestId('total-balance').textContent()).toBe('*****');
    await page.reload();
    await page.getByRole('button', { name: 'Show balance' }).waitFor();
    expect(await page.getByTestId('total-balance').textContent()).toBe('*****');
    expect(await page.evaluate(() => localStorage.getItem('seeBalance'))).toBe('false');
    await page.getByRole('button', { name: 'Show balance' }).click();
  });

  it('profile overview and settings: change name and country, then the password (other sessions end)', async () => {
    const before = (await storedUser(page))!.token;
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Profile Settings' }).click();
    await page.waitForURL('**/profile-setting');
    await page.getByLabel('Name').fill('Grace B. Hopper');
    await page.getByLabel('Country of Residence').selectOption('Canada');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Profile updated successfully');
    await page.getByLabel('Current password').fill(password);
    await page.getByLabel('New password').fill('changed-password-789');
    await page.getByRole('button', { name: 'Change password' }).click();
    await toast(page, 'Password Changed Successfully');
    const after = (await storedUser(page))!.token;
    expect(after).not.toBe(before);
    expect((await t.http.get('/api/user/me').set(bearer(before))).status).toBe(401);
    await page.goto('/user-profile');
    const details = page.locator('dl.details');
    await details.getByText('Grace B. Hopper').waitFor();
    expect(await details.textContent()).toContain('Canada');
    expect(await details.textContent()).toContain(email);
    expect(await details.textContent()).toMatch(/Member since[A-Z][a-z]{2} \d{1,2}, \d{4}/);
  });

  it('submits a support ticket with an image, signed out', async () => {
    const { context: fresh, page: other } = await newPage(browser, t.url!);
    await other.goto('/ticket');
    await other.getByRole('heading', { name: 'Create New Ticket' }).waitFor();
    const submit = other.getByRole('button', { name: 'Submit' });
    await other.getByLabel('Subject').fill('Deposit not showing');
    await other.getByLabel('Email').fill('not-an-email');
    await other.getByLabel('Message').fill('My deposit from yesterday is not in my wallet.');
    expect(await submit.isDisabled()).toBe(true);
    await other.getByLabel('Email').fill('visitor@example.com');
    const png = new PNG({ width: 4, height: 4 });
    await other.getByLabel('Image (optional)').setInputFiles({ name: 'proof.png', mimeType: 'image/png', buffer: PNG.sync.write(png) });
    await submit.click();
    await toast(other, 'Your support ticket has been submitted successfully');
    expect(await other.getByLabel('Subject').inputValue()).toBe('');
    const tickets = (await t.http.get('/api/admin/tickets').set(bearer(admin.token)).expect(200)).body;
    expect(JSON.stringify(tickets)).toContain('Deposit not showing');
    await fresh.close();
  });

  it('on a phone-sized screen the header menu slides in', async () => {
    const { context: phone, page: small } = await newPage(browser, t.url!, { width: 390, height: 844 });
    await small.goto('/market');
    const toggle = small.getByRole('button', { name: 'Open menu' });
    await toggle.waitFor();
    expect(await small.getByRole('link', { name: 'Contact Us' }).first().isVisible()).toBe(false);
    await toggle.click();
    expect(await small.getByRole('button', { name: 'Close menu' }).getAttribute('aria-expanded')).toBe('true');
    await small.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contact Us' }).click();
    await small.waitForURL('**/ticket');
    await phone.close();
  });

  it('forgot password → the mailed link → new password → login', async () => {
    const { context: fresh, page: other } = await newPage(browser, t.url!);
    await other.goto('/forgot-password');
    await other.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await other.getByLabel('Email').fill(email);
    await other.getByRole('button', { name: 'Submit' }).click();
    await toast(other, 'Check your email for the password reset link');
    const outbox = outboxDirectory(t.config);
    let link: string | undefined;
    await expect
      .poll(() => {
        for (const file of readdirSync(outbox)) {
          const raw = readFileSync(join(outbox, file), 'utf8')
            .replace(/=\r?\n/g, '')
            .replace(/=3D/g, '=');
          if (!raw.includes(email)) continue;
          link = /\/reset-password\?token=([A-Za-z0-9_.-]+)/.exec(raw)?.[0];
        }
        return link;
      })
      .toBeTruthy();
    await other.goto(link!);
    await other.getByRole('heading', { name: 'Change Password' }).waitFor();
    await other.getByLabel('New Password').fill('new-password-456');
    await other.getByRole('button', { name: 'Submit' }).click();
    await toast(other, 'Password Changed Successfully');
    await other.waitForURL('**/login');
    await other.getByLabel('Email').fill(email);
    await other.getByLabel('Password', { exact: true }).fill('new-password-456');
    await other.getByRole('button', { name: 'Sign in', exact: true }).click();
    await other.waitForURL('**/wallet');
    await fresh.close();
  });
});

describe('session expiry in Chromium', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestApp('pglite', { JWT_TTL: '4s' }, { listen: true });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('an expired session sends the user to /login and clears the stored user', async () => {
    const { page } = await newPage(browser, t.url!);
    const session = await signUp(t.http);
    const { password: _password, ...stored } = session;
    await page.goto('/');
    await page.evaluate((user) => localStorage.setItem('user', JSON.stringify(user)), stored);
    await page.goto('/wallet');
    await page.getByRole('button', { name: 'Open menu' }).waitFor();
    expect(page.url()).toMatch(/\/wallet$/);
    await page.waitForURL('**/login', { timeout: 10_000 });
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBe('null');
  });
});
