// Browser end-to-end (issue 2 §6): sign up → /wallet, log out, log in, admin login → /admin, customer on /admin → /login-admin.
import { get } from 'node:http';
import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { launchBrowser, newPage } from '../support/browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestApp, uniqueEmail, type TestApp } from '../support/test-app';

describe('foundation flow in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  const email = uniqueEmail('e2e');
  const password = 'password-123';

  beforeAll(async () => {
    t = await startTestApp('pglite', {}, { listen: true });
    browser = await launchBrowser();
    ({ page } = await newPage(browser, t.url!));
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('signs up and lands on /wallet with the session stored under `user`', async () => {
    await page.goto('/signup');
    const submit = page.getByRole('button', { name: 'Sign Up', exact: true }).last();
    await page.getByLabel('Name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill(email);
    await expect(page.getByLabel('Password', { exact: true }).getAttribute('placeholder')).resolves.toBe('Minimum of 8 Characters');
    await page.getByLabel('Password', { exact: true }).fill(password);
    expect(await submit.isDisabled()).toBe(true); // country still empty
    // Every ISO 3166-1 country (i18n-iso-countries), by code, named in the browser's language (English here).
    const options = await page.locator('#signup-country option').evaluateAll((list) => list.map((o) => [(o as HTMLOptionElement).value, o.textContent]));
    expect(options).toHaveLength(251);
    expect(options[0]).toEqual(['', 'Select a country']);
    expect(options).toEqual(
      expect.arrayContaining([
        ['DE', 'Germany'],
        ['US', 'United States'],
        ['CI', 'Côte d’Ivoire'],
      ]),
    );
    expect(options.slice(1).every(([code]) => /^[A-Z]{2}$/.test(code!))).toBe(true);
    await page.getByLabel('Country of Residence').selectOption('Germany');
    expect(await submit.isEnabled()).toBe(true);
    await submit.click();
    await page.waitForURL('**/wallet');
    await page.getByText('You have successfully signed up').waitFor();
    const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('user'))) ?? 'null');
    expect(stored).toMatchObject({ email, name: 'Ada Lovelace', country: 'Germany', role: 'user' });
    expect(typeof stored.token).toBe('string');
  });

  it('offers the countries in the browser language, signs up with the one picked, and the profile keeps a country from before', async () => {
    const context = await browser.newContext({ baseURL: t.url!, locale: 'de-DE' });
    try {
      const german = await context.newPage();
      await german.goto('/signup');
      const select = german.getByLabel('Country of Residence');
      await german.locator('#signup-country option[value="AT"]').waitFor({ state: 'attached' });
      const labels = await german.locator('#signup-country option').allTextContents();
      expect(labels).toEqual(expect.arrayContaining(['Deutschland', 'Österreich', 'Vereinigte Staaten']));
      // Sorted for German readers: Österreich among the O's.
      expect(labels.indexOf('Oman')).toBeLessThan(labels.indexOf('Österreich'));
      expect(labels.indexOf('Österreich')).toBeLessThan(labels.indexOf('Pakistan'));
      await german.getByLabel('Name').fill('Lise Meitner');
      const austrian = uniqueEmail('e2e.at');
      await german.getByLabel('Email').fill(austrian);
      await german.getByLabel('Password', { exact: true }).fill(password);
      await select.selectOption('Österreich');
      expect(await select.inputValue()).toBe('AT');
      await german.getByRole('button', { name: 'Sign Up', exact: true }).last().click();
      await german.waitForURL('**/wallet');
      const stored = JSON.parse((await german.evaluate(() => localStorage.getItem('user'))) ?? 'null');
      expect(stored).toMatchObject({ email: austrian, country: 'Austria' });

      // Profile Settings, same list: a country kept from before (no country of the list) stays shown and is not sent
      // back with a change of name; another one picked is saved.
      await t.app.get<Database>(DATABASE).execute(sql`update users set country = 'Atlantis' where email_normalized = ${austrian.toLowerCase()}`);
      await german.goto('/profile-setting');
      const profileCountry = german.getByLabel('Country of Residence');
      await german.locator('#profile-country option[value="Atlantis"]').waitFor({ state: 'attached' });
      expect(await profileCountry.inputValue()).toBe('Atlantis');
      await german.getByLabel('Name').fill('Lise Meitner-Frisch');
      // The save's refetch of the profile is held until a country is picked: landing then, it must not undo the pick.
      let releaseRefetch!: () => void;
      const refetchHeld = new Promise<void>((resolve) => (releaseRefetch = resolve));
      await german.route('**/api/user/me', async (route) => {
        await refetchHeld;
        await route.continue();
      });
      await german.getByRole('button', { name: 'Save changes' }).click();
      await german.getByText('Profile updated successfully').waitFor();
      await profileCountry.selectOption('Schweiz');
      const refetched = german.waitForResponse('**/api/user/me');
      releaseRefetch();
      await refetched;
      await german.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      expect(await profileCountry.inputValue()).toBe('CH');
      await german.unroute('**/api/user/me');
      await german.getByRole('button', { name: 'Save changes' }).click();
      await expect.poll(async () => JSON.parse((await german.evaluate(() => localStorage.getItem('user'))) ?? 'null')?.country).toBe('Switzerland');
      expect(JSON.parse((await german.evaluate(() => localStorage.getItem('user')))!).name).toBe('Lise Meitner-Frisch');
    } finally {
      await context.close();
    }
  });

  it('a signed-in user opening /login sees the wallet', async () => {
    await page.goto('/login');
    await page.waitForURL('**/wallet');
  });

  it('logs out: stored user null, back on /login, and the old token is revoked', async () => {
    const token = JSON.parse((await page.evaluate(() => localStorage.getItem('user')))!).token as string;
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation', { name: 'Wallet menu' }).getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBe('null');
    await expect.poll(async () => (await t.http.get('/api/user/me').set('Authorization', `Bearer ${token}`)).status).toBe(401);
    await page.goto('/wallet');
    await page.waitForURL('**/login');
  });

  it('a wrong password shows the server error; the right one signs in to /wallet', async () => {
    await page.goto('/login');
    const submit = page.getByRole('button', { name: 'Sign in', exact: true });
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await submit.click();
    const error = await page
      .locator('[role="status"]')
      .filter({ hasText: /password/i })
      .first()
      .textContent();
    expect(error).toBeTruthy();
    expect(page.url()).toMatch(/\/login$/);
    // show/hide toggle
    await page.getByRole('button', { name: 'Show password' }).click();
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('text');
    await page.getByLabel('Password', { exact: true }).fill(password);
    await submit.click();
    await page.waitForURL('**/wallet');
    await page.getByText('You have successfully signed in').waitFor();
  });

  it('a customer opening /admin/users is sent to /login-admin', async () => {
    await page.goto('/admin/users');
    await page.waitForURL('**/login-admin');
    await page.getByRole('heading', { name: 'Login as Admin' }).waitFor();
  });

  it('the admin signs in at /login-admin and lands on /admin', async () => {
    const { context, page: adminPage } = await newPage(browser, t.url!);
    await adminPage.goto('/login-admin');
    const submit = adminPage.getByRole('button', { name: 'Sign in', exact: true });
    await adminPage.getByText('Minimum of 8 characters').waitFor();
    await adminPage.getByLabel('Email').fill(ADMIN_EMAIL);
    expect(await submit.isDisabled()).toBe(true);
    await adminPage.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await submit.click();
    await adminPage.waitForURL(/\/admin$/);
    const stored = JSON.parse((await adminPage.evaluate(() => localStorage.getItem('user'))) ?? 'null');
    expect(stored.role).toBe('admin');
    await context.close();
  });

  it("a customer's credentials on the admin login are refused", async () => {
    const { context, page: other } = await newPage(browser, t.url!);
    await other.goto('/login-admin');
    await other.getByLabel('Email').fill(email);
    await other.getByLabel('Password', { exact: true }).fill(password);
    await other.getByRole('button', { name: 'Sign in', exact: true }).click();
    await other.locator('[role="status"]').filter({ hasNotText: /^$/ }).first().waitFor();
    expect(other.url()).toMatch(/\/login-admin$/);
    expect(await other.evaluate(() => localStorage.getItem('user'))).toBeNull();
    await context.close();
  });

  it('signs in by keyboard alone', async () => {
    const { context, page: kb } = await newPage(browser, t.url!);
    await kb.goto('/login');
    await kb.getByRole('heading', { name: 'Welcome back' }).waitFor();
    let presses = 0;
    while ((await kb.evaluate(() => document.activeElement?.id)) !== 'login-email') {
      await kb.keyboard.press('Tab');
      if (++presses > 20) throw new Error('the email field cannot be reached with Tab');
    }
    await kb.keyboard.type(email);
    await kb.keyboard.press('Tab');
    expect(await kb.evaluate(() => document.activeElement?.id)).toBe('login-password');
    await kb.keyboard.type(password);
    await kb.keyboard.press('Enter');
    await kb.waitForURL('**/wallet');
    await context.close();
  });

  it('serves the built scripts precompressed (br, gzip) to browsers that accept them', async () => {
    const html = await (await fetch(`${t.url}/`)).text();
    const script = /src="(\/assets\/index-[^"]+\.js)"/.exec(html)![1];
    const raw = await fetch(`${t.url}${script}`, { headers: { 'Accept-Encoding': 'identity' } });
    expect(raw.headers.get('content-encoding')).toBeNull();
    const size = (await raw.arrayBuffer()).byteLength;
    for (const encoding of ['br', 'gzip']) {
      const response = await new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        get(`${t.url}${script}`, { headers: { 'Accept-Encoding': encoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        }).on('error', reject);
      });
      expect(response.status).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers['content-type']).toMatch(/javascript/);
      expect(response.headers['vary']).toMatch(/Accept-Encoding/i);
      expect(response.body.length).toBeLessThan(size / 2);
    }
    expect((await t.http.get('/assets/../index.html').set('Accept-Encoding', 'br')).headers['content-encoding']).toBeUndefined();
  });
});
