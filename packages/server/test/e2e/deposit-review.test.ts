// Browser walks of the rest of issue 24: a customer's destination tag on Receive (memo networks), the admin finding a
// deposit's customer by its tag in the deposit form, and the admin's decision on deposits a real regtest litecoind
// orphaned after credit — "Take back" and "Keep (accept loss)" on the Chain status screen.
import { sql } from 'drizzle-orm';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { ReferenceDataCache } from '../../src/modules/reference-data/reference-data.cache';
import { newPage } from '../support/browser';
import { type ChainE2e, openWallet, startChainE2e } from '../support/chain-e2e';
import { litecoindInstalled } from '../support/litecoind';
import { seedCoins } from '../support/market';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, signUp } from '../support/test-app';
import { supportTokens } from '../support/wallet';

const XRP_ADDRESS = 'rG1QQv2nh2gr7RCZ1P8YYcBUKCCN633jCn';

const toast = (page: Page, text: string) => page.locator('[role="status"]').filter({ hasText: text }).first().waitFor();

describe.skipIf(!litecoindInstalled)('destination tags and deposit reviews in Chromium', () => {
  let e2e: ChainE2e;
  let db: Database;
  let admin: Page;

  beforeAll(async () => {
    e2e = await startChainE2e();
    db = e2e.t.app.get(DATABASE);
    // XRP is supported with the operator's shared address: each customer pays it with their own destination tag.
    await seedCoins(e2e.t, { ripple: '0.5' });
    await supportTokens(e2e.t, ['ripple']);
    await db.execute(sql`update token_networks set address = ${XRP_ADDRESS} where network = 'xrp'`);
    await db.execute(sql`update supported_tokens set address = ${XRP_ADDRESS} where coin_id = 'ripple' and deleted_at is null`);
    await db.execute(sql`update coins set name = 'XRP' where id = 'ripple'`);
    e2e.t.app.get(ReferenceDataCache).invalidate();
    ({ page: admin } = await newPage(e2e.browser, e2e.t.url!));
    await admin.goto('/login-admin');
    await admin.getByLabel('Email').fill(ADMIN_EMAIL);
    await admin.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await admin.getByRole('button', { name: 'Sign in', exact: true }).click();
    await admin.waitForURL(/\/admin$/);
  }, 180_000);

  afterAll(async () => {
    await e2e?.close();
  });

  it('Receive on XRP shows the shared address with the customer’s destination tag (QR with ?dt=, copy button); the admin finds the customer by it', async () => {
    const { page } = e2e;
    const customer = await signUp(e2e.t.http);
    await openWallet(e2e, customer);
    await page.getByRole('button', { name: 'Receive', exact: true }).click();
    await page.getByRole('region', { name: 'Choose a token to receive' }).getByRole('button', { name: 'XRP (XRP)' }).click();
    expect(await page.getByTestId('receive-address').textContent()).toBe(XRP_ADDRESS);
    const tag = (await page.getByTestId('receive-memo-value').textContent())!;
    expect(tag).toMatch(/^\d{9}$/);
    expect(await page.getByTestId('receive-memo').textContent()).toBe(`Destination tag: ${tag} — include it or the deposit cannot be credited to you`);
    const shot = PNG.sync.read(await page.getByTestId('receive-qr').screenshot());
    expect(jsQR(new Uint8ClampedArray(shot.data), shot.width, shot.height)?.data).toBe(`${XRP_ADDRESS}?dt=${tag}`);
    await page.getByRole('button', { name: 'Copy Destination tag' }).click();
    await toast(page, 'Destination tag copied to clipboard!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(tag);

    // The back office: a deposit arrived with this tag; the admin finds whose it is in the deposit form and records it.
    await admin.goto('/admin/transactions');
    await admin.getByRole('button', { name: 'Create Deposit' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Create Deposit Transaction' });
    await dialog.getByLabel('Tag network').selectOption('xrp');
    await dialog.getByLabel('Destination tag or memo').fill('42');
    await dialog.getByRole('button', { name: 'Find customer' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'No customer has destination tag 42 on XRP.' }).waitFor();
    await dialog.getByLabel('Destination tag or memo').fill(tag);
    await dialog.getByLabel('Destination tag or memo').press('Enter');
    expect(await dialog.getByTestId('deposit-tag-owner').textContent()).toBe(`Destination tag ${tag} is ${customer.name} (${customer.email}).`);
    expect(await dialog.getByRole('combobox', { name: 'User' }).inputValue()).toBe(`${customer.name} (${customer.email})`);
    expect(await dialog.getByLabel('Network', { exact: true }).inputValue()).toBe('xrp');
    await dialog.getByLabel('Amount (USD)').fill('25');
    await dialog.getByLabel('Status').selectOption('approved');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await toast(admin, 'Transaction Created Successfully');
    const [row] = (await e2e.t.http.get('/api/user/get-transaction').set(bearer(customer.token)).expect(200)).body as Array<Record<string, string>>;
    expect(row).toMatchObject({ type: 'deposit', token: 'ripple', network: 'xrp', status: 'approved' });
  });

  it('deposits orphaned after credit: the admin takes one back and keeps the other from the Chain status screen', async () => {
    const { ltc, t } = e2e;
    const [taken, kept] = [await signUp(t.http), await signUp(t.http)];
    const addressOf = async (token: string) =>
      ((await t.http.get('/api/crypto/get-wallet-tokens').set(bearer(token)).expect(200)).body as Array<{ id: string; address: string }>).find(
        (row) => row.id === 'litecoin',
      )!.address;
    const txid = await ltc.wallet.call<string>('sendmany', ['', { [await addressOf(taken.token)]: '0.5', [await addressOf(kept.token)]: '0.25' }]);
    const [block] = await ltc.mine(3);
    const states = async () =>
      (
        (await db.execute(sql`select state, review from chain_deposits where txid = ${txid}`)) as unknown as {
          rows: Array<{ state: string; review: string | null }>;
        }
      ).rows;
    // The app's own watcher (every second) credits both, then sees their block orphaned.
    await expect.poll(async () => (await states()).map((row) => row.state), { timeout: 30_000 }).toEqual(['credited', 'credited']);
    await ltc.invalidate(block);
    await expect.poll(async () => (await states()).map((row) => row.review), { timeout: 30_000 }).toEqual(['orphaned_after_credit', 'orphaned_after_credit']);

    await admin.goto('/admin/chain');
    const reviews = admin.getByRole('region', { name: 'Deposits to review' });
    const rows = reviews.getByTestId(`deposit-review-${txid}`);
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
    const rowOf = (email: string) => rows.filter({ hasText: email });
    expect(await rowOf(taken.email).textContent()).toContain('0.5 LTC');
    expect(await rowOf(taken.email).textContent()).toContain('In no block');

    await rowOf(taken.email).getByRole('button', { name: 'Take back' }).click();
    const takeBack = admin.getByRole('dialog', { name: 'Take back the deposit' });
    // A reason is required.
    await takeBack.getByRole('button', { name: 'Take back' }).click();
    await takeBack.getByRole('alert').filter({ hasText: 'A reason is required.' }).waitFor();
    await takeBack.getByLabel('Reason').fill('The payment was orphaned and never arrived.');
    await takeBack.getByRole('button', { name: 'Take back' }).click();
    await toast(admin, '0.5 LTC was taken back.');
    await expect.poll(() => rowOf(taken.email).textContent()).toContain(`Taken back by ${ADMIN_EMAIL}`);
    expect(await rowOf(taken.email).getByRole('button').count()).toBe(0);

    await rowOf(kept.email).getByRole('button', { name: 'Keep (accept loss)' }).click();
    const keep = admin.getByRole('dialog', { name: 'Keep the deposit (accept the loss)' });
    await keep.getByLabel('Reason').fill('Small amount: we accept the loss.');
    await keep.getByRole('button', { name: 'Keep', exact: true }).click();
    await toast(admin, 'Kept: the review is resolved.');
    await expect.poll(() => rowOf(kept.email).textContent()).toContain('Kept (loss accepted)');
    expect(await rowOf(kept.email).textContent()).toContain('Small amount: we accept the loss.');

    // The customers' balances: the first gave it back, the second keeps it.
    const ltcOf = async (token: string) =>
      ((await t.http.get('/api/user/get-user-balance').set(bearer(token)).expect(200)).body.balances as Array<{ token: string; coinAmount: string }>).find(
        (b) => b.token === 'litecoin',
      )?.coinAmount ?? '0.000';
    expect(await ltcOf(taken.token)).toBe('0.000');
    expect(await ltcOf(kept.token)).toBe('0.250');
    // The status screen no longer counts them as to review.
    const [status] = (
      await t.http
        .get('/api/admin/chain/status')
        .set(bearer((await t.http.post('/api/admin/login-admin').send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).body.token))
        .expect(200)
    ).body as Array<{ depositsToReview: number }>;
    expect(status.depositsToReview).toBe(0);
  });
});
