// Browser end-to-end (issue 33): a customer and an administrator create API keys (shown once, copied) and webhook
// endpoints, send a test event a real receiver verifies, read its delivery with the receiver's answer shown as text,
// rotate the secret, pause and revoke; each screen walked at 1366 and 375 px: no sideways scroll, nothing sticking out
// of the content, axe clean.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage } from '../support/browser';
import { bearer, signUp } from '../support/test-app';
import { axeViolations, overflowOf, pageOverflow } from '../support/visual-checks';
import { startWalletApp, type WalletApp } from '../support/wallet';
import { WebhookReceiver } from '../support/webhook-receiver';

const SIZES = [
  { width: 1366, height: 900 },
  { width: 375, height: 800 },
] as const;
const toast = (page: Page, text: string) => page.locator('[role="status"]').filter({ hasText: text }).first().waitFor();

describe('API keys and webhooks screens in Chromium', () => {
  let t: WalletApp;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let customer: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    t = await startWalletApp('pglite', { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, { listen: true });
    customer = await signUp(t.http);
    receiver = await WebhookReceiver.start();
    // The receiver answers with markup: the deliveries list must show it as text.
    receiver.answerAlways({ status: 200, body: '<b id="injected">received</b>' });
    browser = await launchBrowser();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await t?.close();
  });

  async function signedInPage(session: object): Promise<Page> {
    const { page } = await newPage(browser, t.url!);
    await page.addInitScript((user) => {
      if (!localStorage.getItem('user')) localStorage.setItem('user', user);
    }, JSON.stringify(session));
    return page;
  }

  /** At each size: the page does not scroll sideways, nothing sticks out of `content`, axe finds nothing. */
  async function walk(page: Page, content: Locator, reload: boolean) {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      if (reload) await page.reload();
      await content.waitFor();
      // E2E_SCREENSHOTS=/some/dir keeps a picture of each screen at each size.
      if (process.env.E2E_SCREENSHOTS) {
        await page.screenshot({
          path: `${process.env.E2E_SCREENSHOTS}/integrations-${new URL(page.url()).pathname.replace(/\W+/g, '-')}-${size.width}.png`,
          fullPage: true,
        });
      }
      expect(await pageOverflow(page), `page overflow at ${size.width}px`).toBeLessThanOrEqual(0);
      expect(await overflowOf(content), `clipped at ${size.width}px`).toEqual([]);
      expect(await axeViolations(page), `axe at ${size.width}px`).toEqual([]);
    }
  }

  async function createKey(page: Page, name: string, scopes: string[]) {
    await page.getByLabel('Name', { exact: true }).fill(name);
    for (const scope of scopes) await page.getByRole('checkbox', { name: new RegExp(`^${scope}\\b`) }).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    await toast(page, 'API key created');
    const key = await page.getByTestId('secret-value').inputValue();
    expect(key).toMatch(/^cp_[A-Za-z0-9_-]{40}$/);
    await page.getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    return key;
  }

  it('a customer creates a key shown once, sees its use, and revokes it', async () => {
    const page = await signedInPage(customer);
    await page.goto('/user-profile');
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await page.getByLabel('Allowed addresses (optional)').fill('127.0.0.1, ::1');
    await page.getByLabel('Expires (optional)').fill('2099-12-31T23:59');
    const key = await createKey(page, 'Bookkeeping', ['Trade']);
    await t.http.get('/api/user/get-user-balance').set(bearer(key)).expect(200);
    await page.getByRole('button', { name: 'I saved it' }).click();
    expect(await page.getByTestId('secret-value').count()).toBe(0);
    await page.reload();
    const row = page.getByTestId('api-key-row').filter({ hasText: 'Bookkeeping' });
    await row.getByText(`${key.slice(0, 12)}…`).waitFor();
    await row.getByText('read, trade').waitFor();
    await row.getByText('127.0.0.1, ::1').waitFor();
    await row.getByText(/from (::ffff:)?127\.0\.0\.1/).waitFor();
    // The key itself is nowhere on the page any more.
    expect(await page.content()).not.toContain(key.slice(12));

    await walk(page, page.locator('main'), false);

    await row.getByRole('button', { name: 'Revoke Bookkeeping' }).click();
    await row.getByRole('button', { name: 'Revoke now' }).click();
    await toast(page, 'API key revoked');
    await row.getByText('revoked', { exact: true }).waitFor();
    await t.http.get('/api/user/get-user-balance').set(bearer(key)).expect(401);
    await page.close();
  });

  it('a customer adds a webhook (secret once), tests it, reads the delivery as text, rotates, pauses and deletes it', async () => {
    const page = await signedInPage(customer);
    await page.goto('/profile/webhooks');
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByRole('checkbox', { name: 'Swap completed' }).check();
    await page.getByRole('checkbox', { name: 'Notification' }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await toast(page, 'Webhook endpoint added');
    const secret = await page.getByTestId('secret-value').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'I saved it' }).click();

    const row = page.getByTestId('webhook-row').first();
    await row.getByRole('button', { name: 'Send test' }).click();
    await toast(page, 'Test event sent');
    await expect.poll(() => receiver.events('webhook.test').length).toBe(1);
    expect(WebhookReceiver.verify(receiver.events('webhook.test')[0], secret)).toMatchObject({ type: 'webhook.test' });
    await row.getByRole('button', { name: 'Deliveries' }).click();
    const delivery = row.getByTestId('delivery-row').first();
    await delivery.getByText('HTTP 200').waitFor();
    await delivery.getByText('delivered', { exact: true }).waitFor();
    // The receiver's markup is shown as text, never as markup.
    expect(await delivery.locator('.response-body').textContent()).toBe('<b id="injected">received</b>');
    expect(await page.locator('#injected').count()).toBe(0);

    await walk(page, page.locator('main'), false);

    await delivery.getByRole('button', { name: 'Resend' }).click();
    await toast(page, 'Queued to be sent again');
    await expect.poll(() => receiver.events('webhook.test').length).toBe(2);
    expect(receiver.events('webhook.test')[1].id).toBe(receiver.events('webhook.test')[0].id);

    await row.getByRole('button', { name: 'Rotate secret' }).click();
    await toast(page, 'New signing secret made');
    expect(await page.getByTestId('secret-value').inputValue()).not.toBe(secret);
    await page.getByRole('button', { name: 'I saved it' }).click();
    await row.getByText(/signs too until/).waitFor();
    await row.getByRole('button', { name: 'Pause' }).click();
    await toast(page, 'Endpoint paused');
    await row.getByText('Paused by its owner.').waitFor();
    await row.getByRole('button', { name: 'Delete', exact: true }).click();
    await row.getByRole('button', { name: 'Delete now' }).click();
    await toast(page, 'Endpoint deleted');
    await page.getByText('No webhook endpoint yet.').waitFor();
    await page.close();
  });

  it('an administrator manages back-office keys and webhooks in the back office', async () => {
    const admin = (await t.http.post('/api/admin/login-admin').send({ email: 'admin@test.local', password: 'admin-password-123' }).expect(200)).body;
    const page = await signedInPage({ ...admin, role: 'admin' });
    await page.goto('/admin');
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    const key = await createKey(page, 'Reporting', []);
    await t.http.get('/api/admin/dashboard').set(bearer(key)).expect(200);
    await page.getByRole('button', { name: 'I saved it' }).click();
    await page.getByTestId('api-key-row').filter({ hasText: 'Reporting' }).waitFor();
    await walk(page, page.locator('main'), true);

    await page.goto('/admin/webhooks');
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByRole('checkbox', { name: 'Approval requested' }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await toast(page, 'Webhook endpoint added');
    await page.getByRole('button', { name: 'I saved it' }).click();
    const row = page.getByTestId('webhook-row').first();
    await row.getByRole('button', { name: 'Send test' }).click();
    await row.getByRole('button', { name: 'Deliveries' }).click();
    await row.getByTestId('delivery-row').getByText('HTTP 200').waitFor();
    await walk(page, page.locator('main'), false);
    await page.close();
  });
});
