// Browser end-to-end of the four-eyes back office (issue 12): admin A asks for a 50,000 USD deposit, admin B approves it on
// the Approvals screen and the customer has the balance; then an admin finds the customer by typing part of the email and
// works from the per-user page.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../src/db/database';
import { addAdministrator } from '../../src/modules/admin/add-administrator';
import { launchBrowser, newPage } from '../support/browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, signUp } from '../support/test-app';
import { startWalletApp, type WalletApp } from '../support/wallet';

const SECOND = { name: 'Checker Admin', email: 'checker@test.local', password: 'checker-password-1' };

describe('four-eyes approvals and the per-user page in Chromium', () => {
  let t: WalletApp;
  let browser: Browser;
  let pageA: Page;
  let pageB: Page;
  let customer: Awaited<ReturnType<typeof signUp>>;

  const signIn = async (page: Page, email: string, password: string) => {
    await page.goto('/login-admin');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/admin$/);
  };
  const toast = (page: Page, text: string) => page.locator('[role="status"]').filter({ hasText: text }).first().waitFor();
  const sidebar = (page: Page, name: string | RegExp) => page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name }).click();
  const bitcoinHeld = async () => {
    const balance = (await t.http.get('/api/user/get-user-balance').set(bearer(customer.token)).expect(200)).body;
    return Number(balance.balances.find((b: { token: string }) => b.token === 'bitcoin').coinAmount);
  };

  beforeAll(async () => {
    t = await startWalletApp('pglite', { APPROVAL_THRESHOLD_USD: '10000' }, { listen: true });
    customer = await signUp(t.http, { name: 'Katherine Johnson', email: 'katherine.johnson@nasa.example' });
    // With four-eyes on, the second admin is added on the server (pnpm admin:add).
    await addAdministrator(t.app.get(DATABASE), SECOND);
    browser = await launchBrowser();
    pageA = (await newPage(browser, t.url!)).page;
    pageB = (await newPage(browser, t.url!)).page;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('admin A requests a 50,000 USD deposit: it is sent for approval and nothing moves', async () => {
    await signIn(pageA, ADMIN_EMAIL, ADMIN_PASSWORD);
    await sidebar(pageA, /^Transaction$/);
    await pageA.getByRole('button', { name: 'Create Deposit' }).click();
    const dialog = pageA.getByRole('dialog', { name: 'Create Deposit Transaction' });
    const picker = dialog.getByRole('combobox', { name: 'User' });
    await picker.fill('katherine.j');
    await expect.poll(() => picker.getAttribute('aria-expanded')).toBe('true');
    await picker.press('ArrowDown');
    await picker.press('Enter');
    expect(await picker.inputValue()).toBe('Katherine Johnson (katherine.johnson@nasa.example)');
    await dialog.getByLabel('Amount (USD)').fill('50000');
    await dialog.getByLabel('Status').selectOption('approved');
    await dialog.getByLabel('Network', { exact: true }).fill('bitcoin');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await toast(pageA, 'Sent for approval by a second admin.');
    expect(await bitcoinHeld()).toBe(0);

    // The requester sees it waiting, with no Approve button of their own.
    await sidebar(pageA, /^Approvals/);
    const row = pageA.getByRole('row').filter({ hasText: '($50,000.00) for katherine.johnson@nasa.example' });
    await row.getByText('Waiting for another admin').waitFor();
    expect(await row.getByRole('button', { name: /^Approve/ }).count()).toBe(0);
    await pageA.getByRole('navigation', { name: 'Admin' }).locator('.admin-badge').filter({ hasText: '1' }).waitFor();
  });

  it('admin B approves it on the Approvals screen and the customer has the balance', async () => {
    await signIn(pageB, SECOND.email, SECOND.password);
    await sidebar(pageB, /^Approvals/);
    const row = pageB.getByRole('row').filter({ hasText: 'katherine.johnson@nasa.example' });
    await row.getByRole('cell', { name: '$50,000.00', exact: true }).waitFor();
    // The approver sees why it waits and exactly what approving moves.
    await row.getByText('Why: Its value is at or above the approval threshold.').waitFor();
    const lines = row.getByRole('list', { name: 'Ledger lines this approval applies' }).getByRole('listitem');
    expect(await lines.allInnerTexts()).toEqual([
      expect.stringMatching(/^Platform deposits: −1\.0+ BTC \(\$50,000\.00\)$/),
      expect.stringMatching(/^Customer \(katherine\.johnson@nasa\.example\): \+1\.0+ BTC \(\$50,000\.00\)$/),
    ]);
    await row.getByRole('button', { name: /^Approve/ }).click();
    await toast(pageB, 'Approved and applied.');
    await pageB.getByText('Nothing is waiting for approval').waitFor();
    expect(await bitcoinHeld()).toBe(1);
    const history = (await t.http.get('/api/user/get-transaction').set(bearer(customer.token)).expect(200)).body;
    expect(history[0]).toMatchObject({ type: 'deposit', status: 'approved', amount: 50000 });
  });

  it('an admin finds the customer by typing part of the email and works from the per-user page', async () => {
    await sidebar(pageB, /^Users$/);
    await pageB.getByLabel('Search users').fill('JOHNSON@nasa');
    await pageB.getByRole('link', { name: 'Katherine Johnson' }).click();
    await pageB.waitForURL(`**/admin/users/${customer._id}`);
    await pageB.getByRole('heading', { name: 'Katherine Johnson' }).waitFor();
    const balances = pageB.getByRole('region', { name: /^Balances/ });
    await balances.getByRole('row').filter({ hasText: 'Bitcoin' }).filter({ hasText: '$50,000.00' }).waitFor();
    await pageB.getByRole('region', { name: 'Audit entries about this customer' }).getByText('approval.approve').waitFor();

    await pageB.getByRole('button', { name: 'Notify', exact: true }).click();
    const notify = pageB.getByRole('dialog', { name: 'Notify Katherine Johnson' });
    await notify.getByLabel('Title').fill('Deposit received');
    await notify.getByLabel('Message').fill('Your 50,000 USD deposit is credited.');
    await notify.getByRole('button', { name: 'Send' }).click();
    await toast(pageB, 'User Notified Successfully');
    await pageB.getByRole('region', { name: 'Notifications' }).getByText('Deposit received').waitFor();

    // A small credit from the same page applies at once (below the threshold).
    await pageB.getByRole('button', { name: 'Edit Balance', exact: true }).click();
    const edit = pageB.getByRole('dialog', { name: 'Edit balance: Katherine Johnson' });
    await edit.getByLabel('Token').selectOption('tether');
    await edit.getByLabel('Deposit Action').selectOption('yes');
    await edit.getByLabel('Amount (USD)').fill('25');
    await edit.getByRole('button', { name: 'Submit' }).click();
    await toast(pageB, 'Balance updated successfully');
    await balances.getByRole('row').filter({ hasText: 'Tether' }).filter({ hasText: '$25.00' }).waitFor();
    const notes = (await t.http.get('/api/user/get-notifications').set(bearer(customer.token)).expect(200)).body as Array<{ title: string }>;
    expect(notes.map((n) => n.title)).toEqual(expect.arrayContaining(['Deposit received', 'Balance updated', 'Deposit approved']));
  });
});
