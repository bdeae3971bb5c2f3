// Browser test of the Token Contract field of the admin token forms (issue 24): an ERC-20 token's contract on an EVM
// network is typed in Add Coin and Edit Token; a malformed one, or one on a network without contracts, is explained
// under the field and never sent; a valid one is stored on the token's network row and prefilled by the edit.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage } from '../support/browser';
import { seedCoins } from '../support/market';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, loginAdmin, startTestApp, type TestApp } from '../support/test-app';

const DEPOSIT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
/** Tether's contract on BNB Smart Chain (checksummed). */
const USDT_BSC = '0x55d398326f99059fF775485246999027B3197955';
const FORMAT = 'A contract address is 0x followed by 40 hexadecimal characters (0-9, a-f).';
const BSC = 'BNB Smart Chain (BEP-20)';

describe('admin token contract field in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  const tokenRequests: string[] = [];

  const toast = (text: string) => page.locator('[role="status"]').filter({ hasText: text }).first().waitFor();
  const tetherRows = async () => {
    const admin = await loginAdmin(t.http);
    const rows = (await t.http.get('/api/admin/get-tokens').set(bearer(admin.token)).expect(200)).body as Array<Record<string, string | null>>;
    return rows.filter((row) => row.name === 'tether');
  };

  beforeAll(async () => {
    t = await startTestApp('pglite', {}, { listen: true });
    await seedCoins(t, { bitcoin: '50000', ethereum: '2500', tether: '1' });
    browser = await launchBrowser();
    ({ page } = await newPage(browser, t.url!));
    page.on('request', (request) => {
      if (/\/api\/(crypto\/add-token|admin\/edit-token)/.test(request.url())) tokenRequests.push(request.postData() ?? '');
    });
    await page.goto('/login-admin');
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/admin$/);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('Add Coin: a malformed contract, or one on a network without contracts, is explained under the field and not sent', async () => {
    await page.goto('/admin/tokens');
    await page.getByRole('button', { name: 'Add Coin' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Coin' });
    const contract = dialog.getByLabel('Token Contract');
    await dialog.getByLabel('Coin Id').fill('tether');
    await dialog.getByLabel('Network').selectOption({ label: BSC });
    await dialog.getByLabel('Wallet Address').fill(DEPOSIT);

    // Typing is not interrupted: the message comes when the field is left.
    await contract.fill(USDT_BSC.slice(0, -1));
    expect(await dialog.getByRole('alert').count()).toBe(0);
    await dialog.getByLabel('Wallet Address').focus();
    const message = dialog.getByRole('alert').filter({ hasText: FORMAT });
    await message.waitFor();
    expect(await contract.getAttribute('aria-invalid')).toBe('true');
    // Under the field, tied to it, in the form's error colour.
    const describedBy = (await contract.getAttribute('aria-describedby'))!.split(' ');
    expect(describedBy).toContain(await message.getAttribute('id'));
    const [inputBox, messageBox] = [(await contract.boundingBox())!, (await message.boundingBox())!];
    expect(messageBox.y).toBeGreaterThanOrEqual(inputBox.y + inputBox.height);
    expect(await message.evaluate((node) => getComputedStyle(node).color)).toBe('rgb(185, 28, 28)');

    await dialog.getByRole('button', { name: 'Add Coin' }).click();
    await dialog.getByLabel('Network').selectOption({ label: 'Tron (TRC-20)' });
    await contract.fill(USDT_BSC);
    await dialog.getByRole('alert').filter({ hasText: 'Tron (TRC-20) has no token contracts: leave the contract address empty.' }).waitFor();
    await dialog.getByRole('button', { name: 'Add Coin' }).click();
    expect(tokenRequests).toEqual([]);
    expect((await tetherRows()).map((row) => row.network)).toEqual(['ethereum']);

    await dialog.getByLabel('Network').selectOption({ label: BSC });
    expect(await dialog.getByRole('alert').count()).toBe(0);
    expect(await contract.getAttribute('aria-invalid')).toBeNull();
    await dialog.getByRole('button', { name: 'Add Coin' }).click();
    await toast('Coin added successfully');
    await dialog.waitFor({ state: 'detached' });
    expect(tokenRequests.map((body) => JSON.parse(body))).toEqual([{ name: 'tether', address: DEPOSIT, network: 'bsc', contractAddress: USDT_BSC }]);
    expect(await tetherRows()).toContainEqual(expect.objectContaining({ network: 'bsc', address: DEPOSIT, contractAddress: USDT_BSC }));
  });

  it('Edit Token: prefilled with the stored contract; the server refuses a bad checksum; emptying it removes it', async () => {
    tokenRequests.length = 0;
    const row = page.getByRole('row').filter({ hasText: BSC });
    await row.getByRole('button', { name: 'Edit tether' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Token' });
    const contract = dialog.getByLabel('Token Contract');
    expect(await contract.inputValue()).toBe(USDT_BSC);

    // Well-formed but mistyped: the server's reason shows as the form's error.
    await contract.fill(USDT_BSC.replace('fF', 'ff'));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog
      .getByRole('alert')
      .filter({ hasText: 'This BNB Smart Chain contract address has an invalid checksum (check for a mistyped character).' })
      .waitFor();
    expect((await tetherRows()).find((r) => r.network === 'bsc')!.contractAddress).toBe(USDT_BSC);

    await contract.fill('');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast('Token updated successfully');
    await dialog.waitFor({ state: 'detached' });
    expect(JSON.parse(tokenRequests.at(-1)!)).toMatchObject({ token: 'tether', network: 'bsc', contractAddress: '' });
    expect((await tetherRows()).find((r) => r.network === 'bsc')!.contractAddress).toBeNull();
  });
});
