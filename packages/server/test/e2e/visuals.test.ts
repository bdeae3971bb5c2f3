// Browser tests of what a person sees on the newer screens (issue 26): where a label is drawn, how big a checkbox is,
// whether anything sticks out of its card at 1366 and 375 px in light and dark, what the chart's range label claims,
// what a token without a deposit address says, and axe on the Approvals screen. Boxes are measured, not just found.
// E2E_SCREENSHOTS=/some/dir saves a screenshot of each screen in each size and colour scheme there.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PriceHistoryRepository } from '../../src/modules/market/price-history.repository';
import { launchBrowser, newPage } from '../support/browser';
import { Authenticator } from '../support/totp';
import { axeViolations, overflowOf, pageOverflow } from '../support/visual-checks';
import { bearer, signUp } from '../support/test-app';
import { ADDRESSES, fund, startWalletApp, type WalletApp } from '../support/wallet';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SIZES = [
  { width: 1366, height: 900 },
  { width: 375, height: 800 },
] as const;
const SCHEMES = ['light', 'dark'] as const;
/** A long (valid) sign-in email: 61 characters before the @, no place to break a line. */
const LONG_EMAIL = 'katherine.coleman.goble.johnson.longname+savings-account-2026@mission-planning.langley-research-center.example';

/** A checkbox's box, and where its label's text is drawn relative to it. */
function checkboxGeometry(checkbox: Locator) {
  return checkbox.evaluate((input) => {
    const label = input.closest('label')!;
    const texts = Array.from(label.childNodes).filter((node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim());
    const range = document.createRange();
    range.setStartBefore(texts[0]!);
    range.setEndAfter(texts[texts.length - 1]!);
    const text = range.getClientRects()[0]!;
    const box = input.getBoundingClientRect();
    return {
      width: box.width,
      height: box.height,
      gapToText: text.left - box.right,
      // The box is on the text's first line.
      sameLine: box.bottom > text.top && box.top < text.bottom,
    };
  });
}

async function expectCheckboxLooksLikeOne(checkbox: Locator) {
  const geometry = await checkboxGeometry(checkbox);
  expect(geometry.width).toBeGreaterThanOrEqual(12);
  expect(geometry.width).toBeLessThanOrEqual(32);
  expect(geometry.height).toBeLessThanOrEqual(32);
  expect(geometry.gapToText).toBeGreaterThanOrEqual(0);
  expect(geometry.gapToText).toBeLessThanOrEqual(16);
  expect(geometry.sameLine).toBe(true);
}

async function shoot(page: Page, name: string) {
  if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/${name}.png`, fullPage: true });
}

/**
 * Runs `check` in each size and colour scheme. The back office has one palette (light only there) and is reloaded at
 * each size, as a phone would open it (its sidebar starts closed on a narrow screen).
 */
async function inEachLook(
  page: Page,
  name: string,
  check: (size: (typeof SIZES)[number], scheme: string) => Promise<void>,
  { schemes = SCHEMES, reload = false }: { schemes?: readonly string[]; reload?: boolean } = {},
) {
  for (const size of SIZES) {
    for (const scheme of schemes) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme as 'light' | 'dark' });
      if (reload) await page.reload();
      await check(size, scheme);
      await shoot(page, `${name}-${size.width}-${scheme}`);
    }
  }
}

describe('what a person sees (issue 26) in Chromium', () => {
  let t: WalletApp;
  let browser: Browser;
  let customer: Awaited<ReturnType<typeof signUp>>;

  async function signedInPage(session: object): Promise<Page> {
    const { page } = await newPage(browser, t.url!);
    await page.addInitScript((user) => {
      if (!localStorage.getItem('user')) localStorage.setItem('user', user);
    }, JSON.stringify(session));
    return page;
  }
  const adminPage = async () =>
    signedInPage({ ...(await t.http.post('/api/admin/login-admin').send({ email: 'admin@test.local', password: 'admin-password-123' })).body, role: 'admin' });

  beforeAll(async () => {
    t = await startWalletApp('pglite', { ADDRESS_HOLD_HOURS: '0', APPROVAL_THRESHOLD_USD: '10000' }, { listen: true });
    customer = await signUp(t.http, { name: 'Katherine Johnson', email: LONG_EMAIL });
    await fund(t, customer._id, 'bitcoin', 1000);
    await fund(t, customer._id, 'tether', 100);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('Profile Settings: "This device" is drawn on its own row, and no card overflows with a long email', async () => {
    // A second session (another device) so the list has a row with a Sign out button too.
    await t.http.post('/api/user/login-user').send({ email: customer.email, password: customer.password }).expect(200);
    const page = await signedInPage(customer);
    await page.goto('/profile-setting');
    const rows = page.getByTestId('session-row');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(2);
    await page.getByText(`Now: ${LONG_EMAIL}`).waitFor();
    await inEachLook(page, 'profile-settings', async (size, scheme) => {
      const row = rows.filter({ hasText: 'This device' });
      const label = row.getByText('This device', { exact: true });
      await label.scrollIntoViewIfNeeded();
      const [rowBox, labelBox] = [await row.boundingBox(), await label.boundingBox()];
      expect(labelBox, `label drawn (${size.width} px, ${scheme})`).not.toBeNull();
      expect(labelBox!.x).toBeGreaterThanOrEqual(rowBox!.x);
      expect(labelBox!.y).toBeGreaterThanOrEqual(rowBox!.y);
      expect(labelBox!.x + labelBox!.width).toBeLessThanOrEqual(rowBox!.x + rowBox!.width + 0.5);
      expect(labelBox!.y + labelBox!.height).toBeLessThanOrEqual(rowBox!.y + rowBox!.height + 0.5);
      // Nothing is drawn over it (the sticky header covered the old one).
      const center = { x: labelBox!.x + labelBox!.width / 2, y: labelBox!.y + labelBox!.height / 2 };
      expect(await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.textContent, center)).toBe('This device');
      // No card sticks out of the page's content column, and nothing sticks out of a card.
      expect(await overflowOf(page.locator('main')), `${size.width} px, ${scheme}`).toEqual([]);
      for (const card of await page.locator('main .card').all()) expect(await overflowOf(card), `${size.width} px, ${scheme}`).toEqual([]);
      expect(await pageOverflow(page)).toBe(0);
    });
    await page.context().close();
  });

  it('Address book and Send → Transfer: checkboxes are checkbox-sized with their label beside them; the asset is named', async () => {
    const page = await signedInPage(customer);
    await page.goto('/wallet');
    await page.getByRole('button', { name: 'Address book' }).click();
    const allowlist = page.getByRole('region', { name: 'Address book' }).getByLabel('Allowlist: send only to saved addresses');
    await inEachLook(page, 'address-book', async () => expectCheckboxLooksLikeOne(allowlist));
    await page.getByRole('button', { name: 'Back' }).click();

    await page.getByRole('navigation', { name: 'Wallet actions' }).getByRole('button', { name: 'Send' }).click();
    await page
      .getByRole('region', { name: 'Choose a token to send' })
      .getByRole('button', { name: /^Tether \(USDT\)/ })
      .click();
    await page.getByLabel('Network').selectOption('tron');
    await page.getByLabel('Address', { exact: true }).fill(ADDRESSES.tetherTron);
    await page.getByLabel('Amount in USD').fill('10');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Transfer' }).waitFor();
    const summary = page.locator('dl.summary');
    expect(await summary.locator('dt').first().textContent()).toBe('Asset');
    const asset = page.getByTestId('confirm-asset');
    // Named, without a raw id under it; the source is the customer's balance, never a deposit address.
    expect(await asset.textContent()).toBe('Tether (USDT)');
    expect(await page.getByTestId('confirm-from').textContent()).toBe('Your Coinpurse balance');
    const save = page.getByLabel('Save this address');
    await inEachLook(page, 'send-transfer', async () => {
      await expectCheckboxLooksLikeOne(save);
      expect(await overflowOf(page.getByRole('region', { name: 'Transfer' }))).toEqual([]);
    });
    await page.context().close();
  });

  it('Two-factor set-up: the new recovery codes are shown alone, with one "I saved them" step', async () => {
    const enrolling = await signUp(t.http);
    const page = await signedInPage(enrolling);
    await page.goto('/profile-setting');
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    await page.getByLabel('Authenticator code').fill(await new Authenticator(secret).code());
    await page.getByRole('button', { name: 'Turn on' }).click();
    const card = page.getByRole('region', { name: 'Two-factor sign-in' });
    await expect.poll(() => page.getByTestId('recovery-codes').locator('li').count()).toBe(10);
    await inEachLook(page, 'recovery-codes', async () => {
      expect(await card.getByLabel('Authenticator code').count()).toBe(0);
      expect(await card.getByRole('button', { name: 'Turn off' }).count()).toBe(0);
      expect(await card.getByRole('button', { name: 'New recovery codes' }).count()).toBe(0);
      expect(await card.getByText(/Two-factor sign-in is/).count()).toBe(0);
      expect(await card.getByRole('button').allTextContents()).toEqual(['Download recovery codes', 'I saved them']);
    });
    await card.getByRole('button', { name: 'I saved them' }).click();
    await card.getByText('recovery codes left').waitFor();
    expect(await page.getByTestId('recovery-codes').count()).toBe(0);
    await card.getByRole('button', { name: 'Turn off' }).waitFor();
    await page.context().close();
  });

  it('chart: with live prices and a week of stored history, 1M, 1Y and All name the week they draw and say history is shorter', async () => {
    const now = Date.now();
    const week: Array<[number, number]> = [];
    for (let at = now - 7 * DAY + HOUR; at < now; at += HOUR) week.push([at, 2400 + Math.sin(at / DAY) * 50]);
    await t.app.get(PriceHistoryRepository).insertMany('ethereum', week);
    const page = await signedInPage(customer);
    await page.goto('/wallet');
    await page.getByRole('button', { name: /^Ethereum \(ETH\)/ }).click();
    const chart = page.getByTestId('price-chart');
    const change = page.getByTestId('chart-change');
    const note = page.getByTestId('chart-history-note');
    await expect.poll(async () => Number(await chart.getAttribute('data-points'))).toBeGreaterThan(150);
    // The week is there in full: labelled as the range, no note.
    expect(await change.textContent()).toMatch(/ 1 week$/);
    expect(await note.count()).toBe(0);
    for (const [label, range] of [
      ['1M', '30d'],
      ['1Y', '1y'],
      ['All', 'all'],
    ] as const) {
      await page.getByRole('button', { name: label }).click();
      await expect.poll(() => chart.getAttribute('data-range')).toBe(range);
      await expect.poll(() => note.count()).toBe(1);
      const drawnDays = (Number(await chart.getAttribute('data-last')) - Number(await chart.getAttribute('data-first'))) / DAY;
      expect(drawnDays).toBeGreaterThan(5.5);
      expect(drawnDays).toBeLessThan(7.5);
      // The label names the span drawn (6 or 7 days), never "1 month", "1 year" or "all time".
      const spanLabel = (await change.textContent())!.replace(/^.*\) /, '');
      expect(spanLabel).toBe(`${Math.round(drawnDays)} days`);
      const first = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }).format(
        Number(await chart.getAttribute('data-first')),
      );
      expect(await note.textContent()).toBe(`Price history here starts ${first}: the chart shows ${spanLabel}.`);
      // The offline note is for snapshot prices only.
      expect(await page.getByTestId('chart-offline-note').count()).toBe(0);
    }
    await inEachLook(page, 'coin-chart-all', async () => {
      await note.waitFor();
    });
    await page.context().close();
  });

  it('Receive and get-wallet-tokens: a network without a deposit address says deposits are not set up (no QR, no null)', async () => {
    const tokens = (await t.http.get('/api/crypto/get-wallet-tokens').set(bearer(customer.token)).expect(200)).body as Array<{
      id: string;
      address: string | null;
      depositNote: string | null;
      networks: Array<{ network: string; address: string | null; depositNote: string | null }>;
    }>;
    const bitcoin = tokens.find((token) => token.id === 'bitcoin')!;
    expect(bitcoin.address).toBeNull();
    expect(bitcoin.depositNote).toBe('Deposits are not set up for the Bitcoin network yet.');
    expect(bitcoin.networks).toEqual([
      { network: 'bitcoin', name: 'Bitcoin', address: null, depositNote: 'Deposits are not set up for the Bitcoin network yet.' },
    ]);

    const page = await signedInPage(customer);
    await page.goto('/wallet');
    await page.getByRole('navigation', { name: 'Wallet actions' }).getByRole('button', { name: 'Receive' }).click();
    await page
      .getByRole('region', { name: 'Choose a token to receive' })
      .getByRole('button', { name: /^Bitcoin \(BTC\)/ })
      .click();
    const panel = page.getByRole('region', { name: 'Receive Bitcoin' });
    await inEachLook(page, 'receive-not-set-up', async () => {
      await panel.getByText('Deposits are not set up for the Bitcoin network yet.').waitFor();
      expect(await panel.getByTestId('receive-qr').count()).toBe(0);
      expect(await panel.getByTestId('receive-address').count()).toBe(0);
      expect(await panel.getByRole('button', { name: 'Copy Address' }).count()).toBe(0);
      // No "send here" warning either: there is no address to send to.
      expect(await panel.getByText(/This address accepts Bitcoin/).count()).toBe(0);
      expect(await panel.textContent()).not.toMatch(/null|—/);
    });
    await page.context().close();

    const admin = await adminPage();
    await admin.goto('/admin/tokens');
    const row = admin.getByRole('row').filter({ hasText: 'bitcoin' });
    await inEachLook(
      admin,
      'admin-tokens',
      async () => {
        await row.getByText('Not set up: customers cannot deposit on this network yet.').waitFor();
        expect(await admin.locator('main').textContent()).not.toContain('null');
      },
      { schemes: ['light'], reload: true },
    );
    await admin.context().close();
  });

  it('admin per-user page: the transactions table fits its card at 1366 px, deposits show no null, networks by name; nothing overflows at 375 px', async () => {
    await t.http.post(`/api/crypto/deposit/${customer._id}`).set(bearer(t.admin)).send({ amount: 250, status: 'approved', network: 'bitcoin' }).expect(201);
    await t.http
      .post('/api/crypto/send-crypto/bitcoin')
      .set(bearer(customer.token))
      .set('Idempotency-Key', 'visuals-withdrawal')
      .send({ transferData: { address: ADDRESSES.bitcoin, amount: 50, symbol: 'btc', coinAmount: '0.00100000' } })
      .expect(201);
    const page = await adminPage();
    await page.goto(`/admin/users/${customer._id}`);
    const transactions = page.getByRole('region', { name: 'Transactions' });
    const deposit = transactions.getByRole('row').filter({ hasText: 'deposit' }).filter({ hasText: '$250.00' });
    await deposit.waitFor();
    const cells = deposit.getByRole('cell');
    const headers = await transactions.getByRole('columnheader').allTextContents();
    expect(await cells.nth(headers.indexOf('Network')).textContent()).toBe('Bitcoin');
    expect(await cells.nth(headers.indexOf('Address')).textContent()).toBe('—');
    expect(await transactions.textContent()).not.toContain('null');
    await inEachLook(
      page,
      'admin-user-detail',
      async (size) => {
        await deposit.waitFor();
        for (const section of await page.locator('.admin-section').all()) expect(await overflowOf(section), `${size.width} px`).toEqual([]);
        expect(await pageOverflow(page)).toBe(0);
        if (size.width === 1366) {
          const wrap = transactions.locator('.table-wrap');
          expect(await wrap.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
          const row = transactions.getByRole('row').filter({ hasText: 'withdrawal' });
          const [edit, remove] = [
            await row.getByRole('button', { name: /^Edit status/ }).boundingBox(),
            await row.getByRole('button', { name: /^Delete transaction/ }).boundingBox(),
          ];
          // Delete sits beside Edit, inside the card.
          expect(Math.abs(remove!.y - edit!.y)).toBeLessThan(2);
          expect(remove!.x).toBeGreaterThan(edit!.x + edit!.width);
          const card = (await wrap.boundingBox())!;
          expect(remove!.x + remove!.width).toBeLessThanOrEqual(card.x + card.width);
        }
      },
      { schemes: ['light'], reload: true },
    );
    await page.context().close();
  });

  it('admin Approvals: the explanation has AA contrast and axe finds nothing', async () => {
    await t.http.post(`/api/crypto/deposit/${customer._id}`).set(bearer(t.admin)).send({ amount: 50000, status: 'approved', network: 'bitcoin' }).expect(202);
    const page = await adminPage();
    await page.goto('/admin/approvals');
    await page.getByRole('row').filter({ hasText: '$50,000.00' }).waitFor();
    await inEachLook(
      page,
      'admin-approvals',
      async () => {
        await page.getByRole('row').filter({ hasText: '$50,000.00' }).waitFor();
        await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
        expect(await axeViolations(page)).toEqual([]);
      },
      { schemes: ['light'], reload: true },
    );
    await page.context().close();
  });
});
