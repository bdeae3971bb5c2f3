// Browser end-to-end (issue 35): a customer's chain deposit held above their deposit limit on the wallet (with the words
// and the way to release it), the travel-rule questions of a large send; an administrator's Compliance screen (the
// list, what screening caught), the freeze dialog, Chain → Held deposits and its release. Each screen walked at
// 1366×850 and 375×812: no sideways scroll, nothing sticking out of the content, tables fit or scroll in their card,
// axe clean. Few page loads: each page is walked at both sizes where it stands.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import type { ConnectedChain } from '../../src/modules/chain/chain-connections';
import { DepositCreditsService } from '../../src/modules/chain/deposit-credits.service';
import { launchBrowser, newPage } from '../support/browser';
import { bearer, signUp } from '../support/test-app';
import { axeViolations, overflowOf, pageOverflow, tableProblems } from '../support/visual-checks';
import { ADDRESSES, fund, startWalletApp, type WalletApp } from '../support/wallet';

const SIZES = [
  { width: 1366, height: 850 },
  { width: 375, height: 812 },
] as const;
const LIMIT_WORDS = "Held: above your verification level's deposit limit — verify to release.";
const LISTED = '0x8589427373D6D84E98730D7795D8f6f8731FDA16';
const toast = (page: Page, text: string) => page.locator('[role="status"]').filter({ hasText: text }).first().waitFor();

describe('Compliance, freezes, travel-rule details and held deposits in Chromium', () => {
  let t: WalletApp;
  let browser: Browser;
  let customer: Awaited<ReturnType<typeof signUp>>;
  let heldTxid: string;

  beforeAll(async () => {
    t = await startWalletApp('pglite', { KYC_LIMITS: 'on', TRAVEL_RULE_THRESHOLD_USD: '1000' }, { listen: true });
    customer = await signUp(t.http, { name: 'Grace Hopper' });
    await fund(t, customer._id, 'bitcoin', 5000);
    // The customer is level 1 (sends allowed); a confirmed chain deposit of 20,000 USD passes its 10,000 a day: held.
    const db = t.app.get<Database>(DATABASE);
    await db.execute(sql`update users set verification_level = 1 where id = ${customer._id}`);
    await db.execute(sql`insert into chain_cursors (network, height, block_hash) values ('bitcoin', 100, 'b100')`);
    await db.execute(sql`insert into chain_blocks (network, height, block_hash, parent_hash) values ('bitcoin', 98, 'b98', 'b97')`);
    heldTxid = randomUUID().replaceAll('-', '').repeat(2);
    const transactionId = randomUUID();
    await db.execute(sql`
      insert into transactions (id, user_id, type, token, network, address, coin_amount, usd_amount, price, status, direction, details)
      values (${transactionId}, ${customer._id}, 'deposit', 'bitcoin', 'bitcoin', ${ADDRESSES.bitcoin}, 0.4, 20000, 50000, 'pending', 'in',
        ${JSON.stringify({ txHash: heldTxid, outputIndex: 0, confirmations: 1, requiredConfirmations: 3 })}::jsonb)`);
    const inserted = (await db.execute(sql`
      insert into chain_deposits (network, txid, output_index, user_id, token, address, amount_base, amount, block_height, block_hash, confirmations, required_confirmations, state, transaction_id)
      values ('bitcoin', ${heldTxid}, 0, ${customer._id}, 'bitcoin', ${ADDRESSES.bitcoin}, 40000000, 0.4, 98, 'b98', 1, 3, 'confirming', ${transactionId})
      returning id`)) as unknown as { rows: Array<{ id: string }> };
    expect(await t.app.get(DepositCreditsService).credit({ network: 'bitcoin', confirmations: 3 } as ConnectedChain, inserted.rows[0].id)).toBe(false);
    // A list in force, and a send it refused (what Compliance shows).
    await t.http
      .put('/api/admin/sanctions')
      .set(bearer(t.admin))
      .send({ list: `ethereum,${LISTED}\n` })
      .expect(200);
    await t.http
      .post('/api/crypto/send-crypto/tether')
      .set(bearer(customer.token))
      .send({ transferData: { address: LISTED, amount: '1' } })
      .expect(403);
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
      if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/compliance-${name}-${size.width}.png`, fullPage: true });
      expect(await pageOverflow(page), `page overflow at ${size.width}px`).toBeLessThanOrEqual(0);
      expect(await overflowOf(content), `clipped at ${size.width}px`).toEqual([]);
      expect(await tableProblems(page), `tables at ${size.width}px`).toEqual([]);
      expect(await axeViolations(page), `axe at ${size.width}px`).toEqual([]);
    }
  }

  it('the customer sees the held deposit on the wallet with why and how to release it, and answers the travel-rule questions of a large send', async () => {
    const page = await signedInPage(customer);
    await page.goto('/wallet');
    const incoming = page.getByTestId('incoming-deposits');
    await incoming.getByTestId('incoming-held').getByText(LIMIT_WORDS).waitFor();
    await incoming.getByRole('link', { name: 'Verify to release held deposits' }).waitFor();
    await walk(page, page.locator('main'), 'wallet-held');

    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('region', { name: 'Choose a token to send' }).getByRole('button', { name: 'Bitcoin (BTC)' }).click();
    await page.getByLabel('Address').fill(ADDRESSES.bitcoin);
    await page.getByLabel('Amount in USD').fill('1500');
    const next = page.getByRole('button', { name: 'Next' });
    await page.getByRole('group', { name: 'Who is this send for?' }).waitFor();
    expect(await next.isDisabled()).toBe(true);
    await page.getByLabel("Someone else's wallet").check();
    await page.getByLabel("Beneficiary's full name").fill('Alan Turing');
    await page.getByLabel('An exchange').check();
    await page.getByLabel(/exchange's name/i).fill('Example Exchange');
    await walk(page, page.locator('main'), 'send-travel-rule');
    await next.click();
    await page.getByRole('heading', { name: 'Transfer' }).waitFor();
    await page.locator('dl.summary').getByText('Alan Turing · at Example Exchange').waitFor();
    await walk(page, page.locator('main'), 'send-confirm-travel-rule');
    await page.close();
  });

  it('an administrator reads Compliance, opens the freeze dialog, and releases the held deposit from Chain → Held deposits', async () => {
    const admin = (await t.http.post('/api/admin/login-admin').send({ email: 'admin@test.local', password: 'admin-password-123' }).expect(200)).body;
    const page = await signedInPage({ ...admin, role: 'admin' });
    await page.goto('/admin/compliance');
    await page.getByRole('heading', { name: 'Caught by screening' }).waitFor();
    await page.getByText(customer.email).first().waitFor();
    await walk(page, page.locator('main'), 'admin-compliance');

    await page.goto(`/admin/users/${customer._id}`);
    await page.getByRole('button', { name: 'Freeze' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Reason (kept in the audit log)').fill('Source of funds under review');
    await walk(page, dialog, 'admin-freeze-dialog');
    await dialog.getByRole('button', { name: 'Freeze' }).click();
    await toast(page, 'Account frozen');

    await page.goto('/admin/chain#deposit-holds');
    const held = page.locator('#deposit-holds');
    const row = held.getByTestId(`deposit-hold-${heldTxid}`);
    await row.getByText("Held: above the customer's verification level's deposit limit").waitFor();
    await walk(page, page.locator('main'), 'admin-held-deposits');
    await row.getByRole('button', { name: 'Release' }).click();
    const release = page.getByRole('dialog');
    await release.getByLabel('Reason').fill('Source of funds documented');
    await walk(page, release, 'admin-release-dialog');
    await release.getByRole('button', { name: 'Release' }).click();
    await toast(page, 'was released');
    await held.getByText('No deposit is held.').waitFor();
    await page.close();

    const balances = (await t.http.get('/api/user/get-user-balance').set(bearer(customer.token)).expect(200)).body.balances as Array<{
      token: string;
      coinAmountExact: string;
    }>;
    expect(Number(balances.find((b) => b.token === 'bitcoin')!.coinAmountExact)).toBeCloseTo(0.5, 8);
  });

  it('an administrator erases a closed account’s personal data from its page (asked first), and the page says so', async () => {
    const closed = await signUp(t.http, { name: 'Ada Lovelace' });
    await t.http.delete(`/api/admin/delete-user/${closed._id}`).set(bearer(t.admin)).expect(200);
    const admin = (await t.http.post('/api/admin/login-admin').send({ email: 'admin@test.local', password: 'admin-password-123' }).expect(200)).body;
    const page = await signedInPage({ ...admin, role: 'admin' });
    await page.goto(`/admin/users/${closed._id}`);
    const erase = page.getByRole('button', { name: 'Erase personal data' });
    await erase.waitFor();
    // A closed account has no other action.
    expect(await page.getByRole('button', { name: 'Edit Balance' }).count()).toBe(0);
    await walk(page, page.locator('main'), 'admin-user-closed');
    await erase.click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Accept' }).click();
    await toast(page, 'Personal data erased');
    await page.getByText('Personal data erased', { exact: true }).last().waitFor();
    await page.getByRole('heading', { name: 'Erased customer' }).waitFor();
    expect(await erase.count()).toBe(0);
    await walk(page, page.locator('main'), 'admin-user-erased');
    const detail = (await t.http.get(`/api/admin/users/${closed._id}`).set(bearer(t.admin)).expect(200)).body;
    expect(detail.profile).toMatchObject({ name: 'Erased customer', email: `erased-${closed._id}@erased.invalid` });
    expect(detail.profile.erasedAt).toEqual(expect.any(String));
  });
});
