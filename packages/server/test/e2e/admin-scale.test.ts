// The admin tables stay fast with 10,000 customers: the users and transactions lists page on the server (keyset cursor),
// so the browser only ever receives one page. Prints the measured times (2 shared cores: compare, don't gate tightly).
import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { launchBrowser, newPage } from '../support/browser';
import { seedCoins } from '../support/market';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, loginAdmin, startTestApp, type TestApp } from '../support/test-app';

const CUSTOMERS = 10_000;
const CREDITED = 60;

describe('admin tables with 10,000 customers', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    t = await startTestApp('pglite', {}, { listen: true });
    await seedCoins(t, { bitcoin: '50000', ethereum: '2500', tether: '1', solana: '50' });
    const db = t.app.get<Database>(DATABASE);
    // A syntactically valid hash nobody can sign in with: these rows only exercise the lists.
    await db.execute(
      sql`insert into users (name, email, email_normalized, password_hash, country)
          select 'Customer ' || n, 'customer' || n || '@scale.test', 'customer' || n || '@scale.test', 'x', 'Germany' from generate_series(1, ${CUSTOMERS}) as n`,
    );
    const admin = await loginAdmin(t.http);
    await t.http.post('/api/crypto/add-token').set(bearer(admin.token)).send({ name: 'solana', address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' });
    const ids = (await t.http.get(`/api/user/get-users?limit=${CREDITED}`).set(bearer(admin.token)).expect(200)).body as { _id: string }[];
    for (const { _id } of ids) {
      await t.http.post(`/api/admin/update-balance/${_id}`).set(bearer(admin.token)).send({ token: 'solana', amount: '10', type: 'yes' }).expect(200);
      await t.http
        .post(`/api/crypto/deposit/${_id}`)
        .set(bearer(admin.token))
        .send({ amount: '5', status: 'pending', network: 'solana' })
        .expect((r) => expect(r.status).toBeLessThan(300));
    }
    browser = await launchBrowser();
    ({ page } = await newPage(browser, t.url!));
    await page.goto('/login-admin');
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/admin$/);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('answers one page of users quickly from the API, whatever the page', async () => {
    const admin = await loginAdmin(t.http);
    const times: number[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 20; i += 1) {
      const started = performance.now();
      const response = await t.http
        .get('/api/user/get-users')
        .query({ limit: '50', ...(cursor ? { cursor } : {}) })
        .set(bearer(admin.token))
        .expect(200);
      times.push(performance.now() - started);
      expect(response.body).toHaveLength(50);
      cursor = response.headers['x-next-cursor'];
      expect(cursor).toBeTruthy();
    }
    times.sort((a, b) => a - b);
    console.log(`GET /api/user/get-users?limit=50 over ${CUSTOMERS} customers: median ${times[10].toFixed(0)} ms, max ${times[19].toFixed(0)} ms`);
    expect(times[10]).toBeLessThan(500);
  });

  it('shows the first page of /admin/users and pages forward and back, 50 rows at a time', async () => {
    const rows = page.locator('tbody tr');
    let started = performance.now();
    await page.goto('/admin/users');
    await expect.poll(() => rows.count()).toBe(50);
    const firstMs = performance.now() - started;
    const first = await rows.first().textContent();

    const nextTimes: number[] = [];
    for (let i = 2; i <= 6; i += 1) {
      started = performance.now();
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText(`Page ${i}`).waitFor();
      await expect.poll(() => rows.count()).toBe(50);
      nextTimes.push(performance.now() - started);
    }
    expect(await rows.first().textContent()).not.toBe(first);
    for (let i = 0; i < 5; i += 1) await page.getByRole('button', { name: 'Previous' }).click();
    await expect.poll(() => rows.first().textContent()).toBe(first);
    console.log(
      `/admin/users with ${CUSTOMERS} customers: first page ${firstMs.toFixed(0)} ms, Next median ${[...nextTimes].sort((a, b) => a - b)[2].toFixed(0)} ms`,
    );
    expect(await page.locator('tbody tr').count()).toBe(50);
    expect(firstMs).toBeLessThan(5000);
  });

  it('pages the transactions table the same way', async () => {
    const rows = page.locator('tbody tr');
    const started = performance.now();
    await page.goto('/admin/transactions');
    await expect.poll(() => rows.count()).toBe(50);
    const firstMs = performance.now() - started;
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2').waitFor();
    await expect.poll(() => rows.count()).toBe(50);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 3').waitFor();
    await expect.poll(() => rows.count()).toBe(2 * CREDITED - 100);
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    console.log(`/admin/transactions (${2 * CREDITED} rows): first page ${firstMs.toFixed(0)} ms`);
  });
});
