// Browser end-to-end (issue 9): a customer turns on two-factor sign-in from the QR code, signs in and sends with a code,
// and ends another session from the session list.
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage } from '../support/browser';
import { seedCoins } from '../support/market';
import { Authenticator } from '../support/totp';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, loginAdmin, signUp, startTestApp, type TestApp } from '../support/test-app';
import { ADDRESSES, PRICES, supportTokens } from '../support/wallet';

const toast = (page: Page, text: string) => page.locator('[role="status"]').filter({ hasText: text }).first().waitFor();

describe('two-factor sign-in and sessions in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let customer: Awaited<ReturnType<typeof signUp>>;
  let authenticator: Authenticator;
  let recoveryCodes: string[] = [];

  beforeAll(async () => {
    t = await startTestApp('pglite', {}, { listen: true });
    await seedCoins(t, PRICES);
    await supportTokens(t, Object.keys(PRICES));
    // Signed up elsewhere (another device): that session stays open and shows in the list later.
    customer = await signUp(t.http);
    const admin = await loginAdmin(t.http);
    await t.http
      .post(`/api/crypto/deposit/${customer._id}`)
      .set(bearer(admin.token))
      .send({ amount: 1000, status: 'approved', network: 'bitcoin' })
      .expect(201);
    browser = await launchBrowser();
    ({ page } = await newPage(browser, t.url!));
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signIn(code?: () => Promise<string>) {
    await page.goto('/login');
    await page.getByLabel('Email').fill(customer.email);
    await page.getByLabel('Password', { exact: true }).fill(customer.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    if (code) {
      await page.getByLabel('Authenticator code').fill(await code());
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    }
    await page.waitForURL('**/wallet');
  }

  it('turns on two-factor sign-in from the QR code and keeps the recovery codes', async () => {
    await signIn();
    await page.goto('/profile-setting');
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    authenticator = new Authenticator(secret);
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    // The QR code carries the same secret.
    const qr = PNG.sync.read(await page.locator('.qr-box').screenshot());
    const decoded = jsQR(new Uint8ClampedArray(qr.data), qr.width, qr.height);
    expect(decoded?.data).toBe(`otpauth://totp/Coinpurse:${encodeURIComponent(customer.email)}?secret=${secret}&issuer=Coinpurse`);

    await page.getByLabel('Authenticator code').fill(await authenticator.code());
    await page.getByRole('button', { name: 'Turn on' }).click();
    await toast(page, 'Two-factor sign-in is on');
    const codes = page.getByTestId('recovery-codes').locator('li');
    await expect.poll(() => codes.count()).toBe(10);
    recoveryCodes = await codes.allTextContents();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download recovery codes' }).click();
    expect((await download).suggestedFilename()).toBe('coinpurse-recovery-codes.txt');
    await page.getByRole('button', { name: 'I saved them' }).click();
    await page.getByText('recovery codes left').waitFor();
  });

  it('signs out, then signs in with the password and the code', async () => {
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    await signIn(() => authenticator.code());
  });

  it('sends with the code on the confirm screen', async () => {
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('region', { name: 'Choose a token to send' }).getByRole('button', { name: 'Bitcoin (BTC)' }).click();
    await page.getByLabel('Address').fill(ADDRESSES.bitcoin);
    await page.getByLabel('Amount in USD').fill('100');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Transfer' }).waitFor();
    const confirm = page.getByRole('button', { name: 'Confirm' });
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByLabel('Authenticator code').fill(await authenticator.code());
    const sent = page.waitForRequest((r) => r.url().includes('/api/crypto/send-crypto/bitcoin'));
    await confirm.click();
    expect((await sent).postDataJSON()).toMatchObject({ transferData: { address: ADDRESSES.bitcoin, amount: 100 }, code: expect.stringMatching(/^\d{6}$/) });
    await toast(page, 'Sent and Pending Check Status in History');
    await page.waitForEvent('load'); // the page reloads after a send
  });

  it('sees two sessions and ends the other one', async () => {
    await page.goto('/profile-setting');
    const rows = page.getByTestId('session-row');
    await expect.poll(() => rows.count()).toBe(2);
    await rows.filter({ hasText: 'This device' }).waitFor();
    await t.http.get('/api/user/me').set(bearer(customer.token)).expect(200);
    await rows.filter({ hasNotText: 'This device' }).getByRole('button', { name: 'Sign out' }).click();
    await toast(page, 'Signed out on that device');
    await expect.poll(() => rows.count()).toBe(1);
    await t.http.get('/api/user/me').set(bearer(customer.token)).expect(401);
    // This device is still signed in.
    await page.reload();
    await page.getByText('Where you are signed in').waitFor();
    expect(page.url()).toContain('/profile-setting');
    expect(recoveryCodes).toHaveLength(10);
  });

  it('changes the sign-in email with the code; the profile shows the new address', async () => {
    const newEmail = `moved.${Date.now().toString(36)}@example.com`;
    await page.getByLabel('New email').fill(newEmail);
    const change = page.getByRole('button', { name: 'Change email' });
    // With two-factor sign-in on, the code field is there and the button waits for it.
    await page.getByLabel('Authenticator code').last().waitFor();
    expect(await change.isDisabled()).toBe(true);
    // The authenticator's codes of this minute are spent (each is accepted once): a recovery code works too.
    await page.locator('#email-code').fill(recoveryCodes[0]);
    await change.click();
    await toast(page, 'Email updated. We told your previous address too.');
    await page.getByText(`Now: ${newEmail}`).waitFor();
    expect(
      (await t.http.post('/api/user/login-user').send({ email: newEmail, password: customer.password, code: recoveryCodes[1] }).expect(200)).body.email,
    ).toBe(newEmail);
  });
});

describe('administrator enrolment in Chromium (ADMIN_REQUIRE_2FA)', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let authenticator: Authenticator;

  beforeAll(async () => {
    t = await startTestApp('pglite', { ADMIN_REQUIRE_2FA: 'true' }, { listen: true });
    browser = await launchBrowser();
    ({ page } = await newPage(browser, t.url!));
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function adminSignIn() {
    await page.goto('/login-admin');
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  it('takes an administrator without two-factor sign-in to the enrolment screen, then into the back office', async () => {
    await adminSignIn();
    await page.waitForURL(/\/admin$/);
    await page.getByRole('heading', { name: 'Set up two-factor authentication first.' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Admin' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    authenticator = new Authenticator((await page.getByTestId('totp-secret').textContent())!.trim());
    await page.getByLabel('Authenticator code').fill(await authenticator.code());
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect.poll(() => page.getByTestId('recovery-codes').locator('li').count()).toBe(10);
    await page.getByRole('button', { name: 'I saved them' }).click();
    await page.getByRole('navigation', { name: 'Admin' }).waitFor();
  });

  it('signs the administrator in with the password and then the code', async () => {
    await page.evaluate(() => localStorage.clear());
    await adminSignIn();
    await page.getByLabel('Authenticator code').fill(await authenticator.code());
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/admin$/);
    await page.getByRole('navigation', { name: 'Admin' }).waitFor();
  });
});
