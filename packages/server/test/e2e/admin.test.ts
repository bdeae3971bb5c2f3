// Browser end-to-end of the admin back office (issue 5): an admin logs in, adds a token with its deposit address, creates a
// custom token with an image, credits a customer, creates a deposit and changes its status, notifies the customer and deletes
// through the confirm dialog; then the customer's balance, history and notifications show every effect.
import { PNG } from 'pngjs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage } from '../support/browser';
import { seedCoins } from '../support/market';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, loginAdmin, signUp, startTestApp, type TestApp } from '../support/test-app';

/** A real 16×16 PNG (a red square), made with pngjs. */
function tinyPng(): Buffer {
  const png = new PNG({ width: 16, height: 16 });
  for (let i = 0; i < png.data.length; i += 4) {
    png.data[i] = 220;
    png.data[i + 1] = 38;
    png.data[i + 2] = 38;
    png.data[i + 3] = 255;
  }
  return PNG.sync.write(png);
}

const SOLANA_ADDRESS = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'; // real Solana addresses (the USDC mint, the wrapped SOL mint)
const SOLANA_ADDRESS_2 = 'So11111111111111111111111111111111111111112';
const CUSTOM = { coinId: 'e2e-test-coin', symbol: 'e2et', name: 'E2E Test Coin', price: '2.5', address: '0xde709f2102306220921060314715629080e2fb77' };

describe('admin back office in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let customer: Awaited<ReturnType<typeof signUp>>;

  const toast = (text: string) => page.locator('[role="status"]').filter({ hasText: text }).first().waitFor();
  const sidebar = (name: string) => page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name, exact: true }).click();
  const customerGet = async (path: string) => (await t.http.get(path).set(bearer(customer.token)).expect(200)).body;

  beforeAll(async () => {
    t = await startTestApp('pglite', {}, { listen: true });
    await seedCoins(t, { bitcoin: '50000', ethereum: '2500', tether: '1', solana: '50' });
    customer = await signUp(t.http, { name: 'Grace Hopper' });
    browser = await launchBrowser();
    ({ context, page } = await newPage(browser, t.url!));
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('logs in as admin and shows the dashboard cards with their Manage links', async () => {
    await page.goto('/login-admin');
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/admin$/);
    for (const [title, href] of [
      ['Users', '/admin/users'],
      ['Crypto Currencies', '/admin/tokens'],
      ['Notifications', '/admin/notify'],
    ]) {
      const card = page.getByRole('region', { name: title, exact: true });
      await card.waitFor();
      expect(await card.getByRole('link', { name: `Manage ${title}` }).getAttribute('href')).toBe(href);
    }
    await expect
      .poll(async () => Number(await page.getByRole('region', { name: 'Users', exact: true }).locator('.count').textContent()))
      .toBeGreaterThanOrEqual(1);
    await page.getByText('Balanced').waitFor();
    expect(await page.getByRole('link', { name: 'Coinpurse Admin home' }).getAttribute('href')).toBe('/');
    for (const name of ['Dashboard', 'Users', 'Tokens', 'Custom Tokens', 'Notify Users', 'Transaction', 'Tickets', 'Audit']) {
      await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name, exact: true }).waitFor();
    }
  });

  it('adds a token with its deposit address; a bad address is refused with the server reason', async () => {
    await sidebar('Tokens');
    await page.waitForURL('**/admin/tokens');
    await page.getByRole('button', { name: 'Add Coin' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Coin' });
    await dialog.getByLabel('Coin Id').fill('solana');
    await dialog.getByLabel('Wallet Address').fill('not-an-address');
    await dialog.getByRole('button', { name: 'Add Coin' }).click();
    await toast('Failed');
    await dialog.getByRole('alert').waitFor();
    await dialog.getByLabel('Wallet Address').fill(SOLANA_ADDRESS);
    await dialog.getByRole('button', { name: 'Add Coin' }).click();
    await toast('Coin added successfully');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: SOLANA_ADDRESS }).waitFor();
    const admin = await loginAdmin(t.http);
    const tokens = (await t.http.get('/api/admin/get-tokens').set(bearer(admin.token)).expect(200)).body as { name: string; address: string }[];
    expect(tokens).toContainEqual(expect.objectContaining({ name: 'solana', address: SOLANA_ADDRESS }));
  });

  it('creates a custom token with an image; coin id and address clear, the other fields keep their values', async () => {
    await page.goto('/admin/custom-tokens');
    await page.getByRole('heading', { name: 'Custom Tokens' }).waitFor();
    for (const header of ['Name', 'Walled Address', 'Action']) await page.getByRole('columnheader', { name: header, exact: true }).waitFor();
    await page.getByText('No Custom Token').waitFor();
    await page.getByRole('button', { name: 'Add New' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Token' });
    await dialog.getByText('Upload Any Proof of Identity').first().waitFor();
    await dialog.getByText('Drag & drop some images here, or click to select images').waitFor();
    await dialog.getByLabel('Coin Id').fill(CUSTOM.coinId);
    await dialog.getByLabel('Symbol').fill(CUSTOM.symbol);
    await dialog.getByLabel('Name', { exact: true }).fill(CUSTOM.name);
    await dialog.getByLabel('Current Price').fill(CUSTOM.price);
    await dialog.getByLabel('Low 24h').fill('2.25');
    await dialog.getByLabel('High 24h').fill('2.75');
    await dialog.getByLabel('Price Change % 24h').fill('1.5');
    await dialog.getByLabel('Coin Address').fill(CUSTOM.address);
    // Image only: a text file is refused; of two dropped images the first is used.
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
    await dialog.getByText('Only image files are accepted.').waitFor();
    await dialog.locator('.dropzone').evaluate((node, base64) => {
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'first.png', { type: 'image/png' }));
      data.items.add(new File([bytes], 'second.png', { type: 'image/png' }));
      node.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    }, tinyPng().toString('base64'));
    await dialog.getByText('first.png').waitFor();
    expect(await dialog.getByText('second.png').count()).toBe(0);
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'coin.png', mimeType: 'image/png', buffer: tinyPng() });
    await dialog.getByText('coin.png').waitFor();
    await dialog.getByRole('button', { name: 'Add New' }).click();
    await toast('Coin added successfully');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: CUSTOM.address }).waitFor();

    await page.getByRole('button', { name: 'Add New' }).click();
    expect(await dialog.getByLabel('Coin Id').inputValue()).toBe('');
    expect(await dialog.getByLabel('Coin Address').inputValue()).toBe('');
    expect(await dialog.getByLabel('Symbol').inputValue()).toBe(CUSTOM.symbol);
    expect(await dialog.getByLabel('Current Price').inputValue()).toBe(CUSTOM.price);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // The edit modal is prefilled with the record.
    await page.getByRole('button', { name: `Edit ${CUSTOM.name}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Token' });
    expect(await edit.getByLabel('Token Name').inputValue()).toBe(CUSTOM.name);
    expect(await edit.getByLabel('Address').inputValue()).toBe(CUSTOM.address);
    expect(await edit.getByLabel('Token Id').inputValue()).not.toBe('');
    await edit.getByRole('button', { name: 'Cancel' }).click();

    // It is in the market with its manual price, and its image is served.
    const market = (await t.http.get('/api/crypto/get-crypto').expect(200)).body as {
      id: string;
      current_price: number;
      image: string;
      manual_price?: boolean;
    }[];
    const coin = market.find((row) => row.id === CUSTOM.coinId);
    expect(coin).toMatchObject({ current_price: 2.5, manual_price: true });
    const imagePath = /^https?:/.test(coin!.image) ? new URL(coin!.image).pathname : coin!.image.startsWith('/') ? coin!.image : `/images/${coin!.image}`;
    const image = await t.http.get(imagePath).expect(200);
    expect(image.headers['content-type']).toMatch(/^image\/png/);
  });

  it('credits the customer with Add Balance; missing fields give "All fields are required."', async () => {
    await page.goto('/admin/users');
    await page.getByRole('button', { name: `Edit balance of ${customer.email}` }).click();
    const dialog = page.getByRole('dialog', { name: /^Edit balance/ });
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'All fields are required.' }).waitFor();
    await dialog.getByLabel('Token').selectOption('solana');
    await dialog.getByLabel('Deposit Action').selectOption({ label: 'Add Balance' });
    await dialog.getByLabel('Amount (USD)').fill('100');
    await dialog.getByLabel('Message').fill('Welcome bonus');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await toast('Balance updated successfully');
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByRole('row').filter({ hasText: customer.email });
    await row.getByText('$100.00').waitFor();
    await row.getByRole('cell', { name: 'Germany', exact: true }).waitFor(); // the Country column (stored as DE)

    const balance = await customerGet('/api/user/get-user-balance');
    expect(balance.totalBalance).toBe(100);
    expect(balance.balances).toContainEqual(expect.objectContaining({ token: 'solana', balance: 100 }));
  });

  it('creates a pending deposit and approves it; the approval reaches the balance', async () => {
    await page.goto('/admin/transactions');
    await page.getByRole('button', { name: 'Create Deposit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Deposit Transaction' });
    // The user picker searches as you type (combobox): part of the email, then the matching option.
    await dialog.getByRole('combobox', { name: 'User' }).fill(customer.email.slice(0, 12));
    await dialog.getByRole('option', { name: new RegExp(customer.email.replace(/[.+]/g, '\\$&')) }).click();
    await dialog.getByLabel('Amount (USD)').fill('50');
    await dialog.getByLabel('Status').selectOption('pending');
    expect(await dialog.getByLabel('Network', { exact: true }).getAttribute('placeholder')).toBe('bitcoin, tether');
    await dialog.getByLabel('Network', { exact: true }).fill('solana');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await toast('Transaction Created Successfully');
    await dialog.waitFor({ state: 'detached' });

    const deposit = page.getByRole('row').filter({ hasText: customer.email }).filter({ hasText: 'deposit' }).first();
    await deposit.getByText('pending', { exact: true }).waitFor();
    expect((await customerGet('/api/user/get-user-balance')).totalBalance).toBe(100);

    await deposit.getByRole('button', { name: /^Edit status/ }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Status' });
    await edit.getByLabel('Status').selectOption('approved');
    await edit.getByRole('button', { name: 'Update' }).click();
    await toast('Status updated successfully');
    await deposit.getByText('approved', { exact: true }).waitFor();
    expect((await customerGet('/api/user/get-user-balance')).totalBalance).toBe(150);

    // Server-side filters.
    await page.getByLabel('Type filter').selectOption('adjustment');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await page.locator('tbody tr').filter({ hasText: 'adjustment' }).waitFor();
    await page.getByLabel('Type filter').selectOption('');
    await page.getByLabel('Status filter').selectOption('pending');
    await page.getByText('No Transactions').waitFor();
    await page.getByLabel('Status filter').selectOption('');
  });

  it('notifies the customer', async () => {
    await page.goto('/admin/notify');
    const form = page.getByRole('region', { name: 'Notify a user' });
    await form.getByRole('combobox', { name: 'User' }).fill(customer.email.slice(0, 12));
    await form.getByRole('option', { name: new RegExp(customer.email.replace(/[.+]/g, '\\$&')) }).click();
    await form.getByLabel('Title').fill('Account review');
    await form.getByLabel('Message').fill('Your account was reviewed. Nothing to do.');
    await form.getByRole('button', { name: 'Send Notification' }).click();
    await toast('User Notified Successfully');
    // Admin toasts stay 5000 ms (longer than the 2000 ms of other success toasts), then close.
    const shown = page.locator('[role="status"]').filter({ hasText: 'User Notified Successfully' });
    await page.waitForTimeout(3000);
    expect(await shown.isVisible()).toBe(true);
    await shown.waitFor({ state: 'hidden', timeout: 6000 });

    const broadcast = page.getByRole('region', { name: 'Notify all customers' });
    await broadcast.getByLabel('Broadcast title').fill('Maintenance tonight');
    await broadcast.getByLabel('Broadcast message').fill('Trading pauses from 02:00 to 02:30 UTC.');
    await broadcast.getByRole('button', { name: 'Send to all customers' }).click();
    await toast('Notification sent to');
    const notifications = (await customerGet('/api/user/get-notifications')) as { title: string }[];
    expect(notifications).toContainEqual(expect.objectContaining({ title: 'Maintenance tonight' }));
  });

  it('deletes only after Accept in the confirm dialog (Reject keeps the record)', async () => {
    await page.goto('/admin/custom-tokens');
    // Keyboard: the dialog opens with focus on Reject, and Escape rejects.
    await page.getByRole('button', { name: `Delete ${CUSTOM.name}` }).focus();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('alertdialog', { name: 'Are you sure you want to delete?' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Reject');
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: `Delete ${CUSTOM.name}` }).click();
    await confirm.getByRole('button', { name: 'Reject' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: CUSTOM.address }).waitFor();

    await page.getByRole('button', { name: `Delete ${CUSTOM.name}` }).click();
    await confirm.getByRole('button', { name: 'Accept' }).click();
    await toast('Coin deleted successfully');
    await page.getByText('No Custom Token').waitFor();
  });

  it('edits a token address', async () => {
    await page.goto('/admin/tokens');
    await page.getByRole('button', { name: 'Edit solana' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Token' });
    expect(await dialog.getByLabel('Token Name').inputValue()).toBe('solana');
    expect(await dialog.getByLabel('Address').inputValue()).toBe(SOLANA_ADDRESS);
    await dialog.getByLabel('Address').fill(SOLANA_ADDRESS_2);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast('Token updated successfully');
    await page.getByRole('cell', { name: SOLANA_ADDRESS_2 }).waitFor();
  });

  it('deletes (voids) a deposit through the confirm dialog: the balance goes back and history hides it', async () => {
    const admin = await loginAdmin(t.http);
    const created = await t.http
      .post(`/api/crypto/deposit/${customer._id}`)
      .set(bearer(admin.token))
      .send({ amount: '25', status: 'approved', network: 'solana' });
    expect(created.status).toBeLessThan(300);
    const id = (created.body.transaction?._id ?? created.body._id) as string;
    expect((await customerGet('/api/user/get-user-balance')).totalBalance).toBe(175);

    await page.goto('/admin/transactions');
    const row = page.locator(`tr[data-transaction-id="${id}"]`);
    await row.getByRole('button', { name: /^Delete transaction/ }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Are you sure you want to delete?' });
    await confirm.getByRole('button', { name: 'Accept' }).click();
    await toast('Transaction deleted successfully');
    await row.waitFor({ state: 'detached' });
    expect((await customerGet('/api/user/get-user-balance')).totalBalance).toBe(150);
    const history = (await customerGet('/api/user/get-transaction')) as { _id: string }[];
    expect(history.map((item) => item._id)).not.toContain(id);
  });

  it('answers a ticket from the inbox: image shown, reply sent to the customer, ticket closed', async () => {
    const subject = 'Deposit question';
    await t.http
      .post('/api/user/create-ticket')
      .set(bearer(customer.token))
      .field('subject', subject)
      .field('note', 'Where is my deposit?')
      .field('email', customer.email)
      .attach('image', tinyPng(), { filename: 'proof.png', contentType: 'image/png' })
      .expect((response) => expect(response.status).toBeLessThan(300));

    await page.goto('/admin/tickets');
    await page.getByRole('button', { name: `Open ticket ${subject}` }).click();
    const dialog = page.getByRole('dialog', { name: subject });
    await dialog.getByText('Where is my deposit?').waitFor();
    const image = dialog.getByRole('img', { name: `Image attached to ${subject}` });
    await expect.poll(() => image.evaluate((node) => (node as HTMLImageElement).naturalWidth)).toBe(16);
    await dialog.getByLabel('Reply').fill('It arrived, check your wallet.');
    await dialog.getByRole('button', { name: 'Send Reply' }).click();
    await toast('Reply sent');
    await dialog.getByText('It arrived, check your wallet.').waitFor();
    await dialog.getByRole('button', { name: 'Close Ticket' }).click();
    await toast('Ticket closed');
    await dialog.getByText('closed', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('row').filter({ hasText: subject }).getByText('closed', { exact: true }).waitFor();

    const notifications = (await customerGet('/api/user/get-notifications')) as { title: string; message: string }[];
    expect(notifications).toContainEqual(expect.objectContaining({ message: 'It arrived, check your wallet.' }));
  });

  it('deletes (deactivates) a user through the confirm dialog: gone from the list, sign-in refused', async () => {
    const other = await signUp(t.http, { name: 'Leaving User' });
    await page.goto('/admin/users');
    await page.getByRole('button', { name: `Delete ${other.email}` }).click();
    await page.getByRole('alertdialog', { name: 'Are you sure you want to delete?' }).getByRole('button', { name: 'Accept' }).click();
    await toast('User deleted successfully');
    await page.getByRole('row').filter({ hasText: other.email }).waitFor({ state: 'detached' });
    const login = await t.http.post('/api/user/login-user').send({ email: other.email, password: other.password });
    expect(login.status).toBe(401);
    await t.http.get('/api/user/me').set(bearer(other.token)).expect(401);
  });

  it('the customer sees the credit, the deposit and the notification', async () => {
    const balance = await customerGet('/api/user/get-user-balance');
    expect(balance.totalBalance).toBe(150);
    const history = (await customerGet('/api/user/get-transaction')) as { type: string; status: string; amount: number; token: string; note: string | null }[];
    expect(history).toContainEqual(expect.objectContaining({ type: 'adjustment', token: 'solana', amount: 100, status: 'approved', note: 'Welcome bonus' }));
    expect(history).toContainEqual(expect.objectContaining({ type: 'deposit', token: 'solana', amount: 50, status: 'approved' }));
    const notifications = (await customerGet('/api/user/get-notifications')) as { title: string; message: string }[];
    expect(notifications).toContainEqual(expect.objectContaining({ title: 'Account review', message: 'Your account was reviewed. Nothing to do.' }));
    const admin = await loginAdmin(t.http);
    expect((await t.http.get('/api/admin/ledger/check').set(bearer(admin.token)).expect(200)).body.ok).toBe(true);

    // And in the customer's own browser.
    const own = await newPage(browser, t.url!);
    try {
      await own.page.goto('/login');
      await own.page.getByLabel('Email').fill(customer.email);
      await own.page.getByLabel('Password', { exact: true }).fill(customer.password);
      await own.page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await own.page.waitForURL('**/wallet');
      await own.page.getByText('$150.00').first().waitFor();
      await own.page.goto('/notifications');
      await own.page.getByText('Account review').first().waitFor();
    } finally {
      await own.context.close();
    }
  });

  it('every admin action left an audit row, and the audit screen filters by action', async () => {
    const admin = await loginAdmin(t.http);
    const audit = (await t.http.get('/api/admin/audit?limit=100').set(bearer(admin.token)).expect(200)).body as {
      items: { action: string; actorId: string | null }[];
    };
    const adminActions = new Set(audit.items.filter((row) => row.actorId === admin._id).map((row) => row.action));
    for (const action of [
      'token.add',
      'token.update',
      'custom_token.add',
      'custom_token.delete',
      'balance.adjust',
      'transaction.deposit',
      'transaction.status',
      'transaction.void',
      'notification.send',
      'ticket.reply',
      'ticket.close',
      'user.deactivate',
    ]) {
      expect(adminActions, action).toContain(action);
    }

    await page.goto('/admin/audit');
    await page.getByRole('row').nth(1).waitFor();
    await page.getByLabel('Action').fill('transaction.status');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await page.getByRole('cell', { name: 'transaction.status', exact: true }).waitFor();
  });

  it('pages the users table on the server (50 a page, Next / Previous)', async () => {
    for (let i = 0; i < 50; i += 1) await signUp(t.http, { name: `Bulk User ${i}` });
    await page.goto('/admin/users');
    const bodyRows = page.locator('tbody tr');
    await expect.poll(() => bodyRows.count()).toBe(50);
    const firstPage = await bodyRows.first().textContent();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2').waitFor();
    await expect.poll(() => bodyRows.count()).toBeGreaterThanOrEqual(1);
    expect(await bodyRows.count()).toBeLessThanOrEqual(50);
    expect(await bodyRows.first().textContent()).not.toBe(firstPage);
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect.poll(() => bodyRows.first().textContent()).toBe(firstPage);
  });

  it('on a phone the sidebar is collapsed until the menu toggle opens it', async () => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto('/admin');
    const nav = page.getByRole('navigation', { name: 'Admin' });
    await nav.waitFor({ state: 'hidden' });
    const toggle = page.getByRole('button', { name: 'Toggle menu' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    await nav.getByRole('link', { name: 'Users', exact: true }).click();
    await page.waitForURL('**/admin/users');
    await nav.waitFor({ state: 'hidden' });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('logs out from the user menu: the stored session is cleared and /admin sends to /login-admin', async () => {
    const token = JSON.parse((await page.evaluate(() => localStorage.getItem('user')))!).token as string;
    await page.getByRole('button', { name: /^Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL('**/login-admin');
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBe('null');
    await expect.poll(async () => (await t.http.get('/api/user/me').set(bearer(token))).status).toBe(401);
    await page.goto('/admin/users');
    await page.waitForURL('**/login-admin');
    await context.close();
  });
});
