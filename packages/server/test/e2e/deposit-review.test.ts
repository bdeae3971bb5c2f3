// Browser walks of the rest of issue 24: a customer's destination tag on Receive (memo networks), the admin finding a
// deposit's customer by its tag in the deposit form, and the admin's decision on deposits a real regtest litecoind
// orphaned after credit — "Take back" and "Keep (accept loss)" on the Chain status screen. Then (issue 31) the
// operator's back office on that litecoind and an anvil, at 1366 and 375 px: what waits on the dashboard and where each
// link leads, Chain status, Reserves, Tokens, Approvals and Audit in words, every admin table fitting or scrolling in
// its card with no control clipped, and axe on every screen.
import { sql } from 'drizzle-orm';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { ReferenceDataCache } from '../../src/modules/reference-data/reference-data.cache';
import { newPage } from '../support/browser';
import { addAdministrator } from '../../src/modules/admin/add-administrator';
import { ReservesService } from '../../src/modules/reserves/reserves.service';
import { Anvil, EVM_XPUB } from '../support/anvil';
import { deployTestToken, setTokenContract } from '../support/test-token';
import { axeViolations, pageOverflow, pastTheRightEdge, tableProblems } from '../support/visual-checks';
import { type ChainE2e, openWallet, startChainE2e } from '../support/chain-e2e';
import { litecoindInstalled } from '../support/litecoind';
import { seedCoins } from '../support/market';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, signUp } from '../support/test-app';
import { supportTokens } from '../support/wallet';

const XRP_ADDRESS = 'rG1QQv2nh2gr7RCZ1P8YYcBUKCCN633jCn';
/** A long (valid) sign-in email: 50 characters before the @, no place to break a line. */
const LONG_EMAIL = 'katherine.coleman.goble.johnson+savings-account-26@mission-planning.langley-research-center.example';

const toast = (page: Page, text: string) => page.locator('[role="status"]').filter({ hasText: text }).first().waitFor();

describe.skipIf(!litecoindInstalled)('destination tags, deposit reviews and the operator’s screens in Chromium', () => {
  let e2e: ChainE2e;
  let anvil: Anvil;
  let db: Database;
  let admin: Page;

  beforeAll(async () => {
    // Ethereum on an anvil too (no signer: nothing pays its withdrawals by itself); four-eyes from $10,000.
    anvil = await Anvil.start();
    e2e = await startChainE2e({
      CHAIN_ETHEREUM_RPC_URL: anvil.rpcUrl,
      CHAIN_ETHEREUM_XPUB: EVM_XPUB,
      CHAIN_ETHEREUM_CHAIN: 'regtest',
      CHAIN_ETHEREUM_CONFIRMATIONS: '1',
      CHAIN_ETHEREUM_POLL_SECONDS: '1',
      APPROVAL_THRESHOLD_USD: '10000',
    });
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
    await anvil?.close();
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

  it('the operator’s back office at 1366 and 375 px: what waits, where each link leads, the screens in words, every table in its card, axe 0', async () => {
    const { ltc, t } = e2e;
    const http = t.http;
    const adminA = (await http.post('/api/admin/login-admin').send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).body as { token: string };
    const customer = await signUp(http, { name: 'Katherine Johnson', email: LONG_EMAIL });
    const ltcAddress = (
      (await http.get('/api/crypto/get-wallet-tokens').set(bearer(customer.token)).expect(200)).body as Array<{ id: string; address: string }>
    ).find((row) => row.id === 'litecoin')!.address;
    const depositStates = async (txid: string) =>
      (
        (await db.execute(sql`select state, review from chain_deposits where txid = ${txid}`)) as unknown as {
          rows: Array<{ state: string; review: string | null }>;
        }
      ).rows;

    // A deposit the watcher credits (1.5 LTC), and one whose block leaves the chain after it was credited.
    const credited = await ltc.send(ltcAddress, '1.5');
    await ltc.mine(3);
    await expect.poll(async () => (await depositStates(credited)).map((row) => row.state), { timeout: 30_000 }).toEqual(['credited']);
    const orphaned = await ltc.send(ltcAddress, '0.3');
    const [block] = await ltc.mine(3);
    await expect.poll(async () => (await depositStates(orphaned)).map((row) => row.state), { timeout: 30_000 }).toEqual(['credited']);
    await ltc.invalidate(block);
    await expect.poll(async () => (await depositStates(orphaned)).map((row) => row.review), { timeout: 30_000 }).toEqual(['orphaned_after_credit']);

    // Two LTC withdrawals: litecoin has no signer, so the first waits to be paid by hand; the second was approved and its
    // payout waits for funds (the state the payout job leaves: no signer runs on PGlite, so it is written as it writes it).
    const send = async (usd: number) =>
      (
        await http
          .post('/api/crypto/send-crypto/litecoin')
          .set(bearer(customer.token))
          .send({ transferData: { address: await ltc.newAddress(), amount: usd } })
          .expect(201)
      ).body.transaction._id as string;
    const byHand = await send(20);
    const short = await send(16);
    await http.post('/api/admin/modify-transaction').set(bearer(adminA.token)).send({ tId: short, modification: 'approved' }).expect(200);
    const reason = 'the hot wallet cannot pay 0.20000000 and its fee: Insufficient funds';
    await db.execute(
      sql`insert into payouts (transaction_id, network, address, amount_base, state, required_confirmations, last_error) values (${short}, 'litecoin', 'x', 20000000, 'awaiting_funds', 3, ${reason})`,
    );
    await db.execute(
      sql`update transactions set details = coalesce(details, '{}'::jsonb) || ${JSON.stringify({ payoutState: 'awaiting_funds', payoutReason: reason })}::jsonb where id = ${short}`,
    );

    // A second admin asks for a $50,000 credit: it waits for the first admin's approval.
    await addAdministrator(db, { name: 'Checker Second', email: 'checker.second.admin@back-office.example.com', password: 'checker-password-1' });
    const adminB = (await http.post('/api/admin/login-admin').send({ email: 'checker.second.admin@back-office.example.com', password: 'checker-password-1' }))
      .body as { token: string };
    await http
      .post(`/api/crypto/deposit/${customer._id}`)
      .set(bearer(adminB.token))
      .send({ amount: 50000, status: 'approved', network: 'litecoin' })
      .expect(202);

    // Ethereum: the customer's own address for ETH and for the test token once its contract is set.
    const contract = await deployTestToken(anvil, 6, 10n ** 12n);
    await setTokenContract(t, adminA.token, 'tether', 'ethereum', contract, anvil.accounts[1]);
    await t.app.get(ReservesService).check();

    const waiting = (await http.get('/api/admin/dashboard').set(bearer(adminA.token)).expect(200)).body.waiting;
    expect(waiting).toEqual({
      withdrawalsToReview: 0,
      withdrawalsToPayByHand: 1,
      payoutsAwaitingFunds: 1,
      payoutsNotSigned: 0,
      payoutsAwaitingColdSignature: 0,
      depositsToReview: 1,
      approvalsWaiting: 1,
    });

    const { page, context } = await newPage(e2e.browser, t.url!, { width: 1366, height: 850 });
    await page.addInitScript((user) => localStorage.setItem('user', user), JSON.stringify({ ...adminA, role: 'admin' }));
    const main = page.locator('main');
    const settled = () => page.waitForFunction(() => !document.querySelector('[aria-busy="true"], .skeleton'));
    const looksRight = async (where: string, fit: boolean) => {
      await settled();
      // E2E_SCREENSHOTS=/some/dir keeps a picture of each screen at each size there.
      if (process.env.E2E_SCREENSHOTS)
        await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/operator ${where.replace(/\//g, ' ')}.png`, fullPage: true });
      expect(await pageOverflow(page), `${where}: the page scrolls sideways (${(await pastTheRightEdge(page)).join('; ')})`).toBe(0);
      expect(await tableProblems(page, { fit }), where).toEqual([]);
      expect(await axeViolations(page), where).toEqual([]);
    };

    for (const size of [
      { width: 1366, height: 850 },
      { width: 375, height: 812 },
    ]) {
      const at = `${size.width} px`;
      const desktop = size.width === 1366;
      await page.setViewportSize(size);

      // The dashboard: each kind of waiting with its count, those with something first, each with its link.
      await page.goto('/admin');
      const item = (key: string) => page.getByTestId(`waiting-${key}`);
      await expect.poll(() => item('approvalsWaiting').locator('.waiting-count').textContent()).toBe('1');
      const expected: Record<string, [number, string, string]> = {
        withdrawalsToPayByHand: [1, 'Pay withdrawals by hand', '/admin/transactions?waiting=manual-payout'],
        payoutsAwaitingFunds: [1, 'See payouts waiting for funds', '/admin/transactions?waiting=awaiting-funds'],
        depositsToReview: [1, 'Review deposits', '/admin/chain#deposit-reviews'],
        approvalsWaiting: [1, 'Open approvals', '/admin/approvals'],
        withdrawalsToReview: [0, 'Review withdrawals', '/admin/transactions?waiting=review'],
        payoutsNotSigned: [0, 'See payouts not signed', '/admin/transactions?waiting=cannot-sign'],
        payoutsAwaitingColdSignature: [0, 'Sign cold payouts', '/admin/transactions?waiting=cold-signature'],
      };
      const shown = await page.locator('.waiting-item').evaluateAll((items) => items.map((el) => el.getAttribute('data-testid')));
      expect(shown.slice(0, 4).sort()).toEqual([
        'waiting-approvalsWaiting',
        'waiting-depositsToReview',
        'waiting-payoutsAwaitingFunds',
        'waiting-withdrawalsToPayByHand',
      ]);
      for (const [key, [count, action, href]] of Object.entries(expected)) {
        expect(await item(key).locator('.waiting-count').textContent(), `${key} (${at})`).toBe(String(count));
        expect(await item(key).getByRole('link', { name: action }).getAttribute('href'), key).toBe(href);
      }
      expect(await item('withdrawalsToReview').textContent()).toContain('Nothing waiting.');
      // Liabilities name the token as everywhere else.
      await page.getByRole('region', { name: 'Liabilities per token' }).getByRole('cell', { name: 'Litecoin (LTC)', exact: true }).waitFor();
      await looksRight(`dashboard ${at}`, desktop);
      // The account button names the admin whole, however narrow the screen.
      const account = page.getByRole('button', { name: /^Account menu/ });
      expect(await account.textContent()).toBe('Administrator ▾');
      expect(await account.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight + 1)).toBe(true);

      if (desktop) {
        // Each link opens the screen that handles it, listing what the count counts.
        await item('withdrawalsToPayByHand').getByRole('link').click();
        await page.waitForURL(/\/admin\/transactions\?waiting=manual-payout$/);
        await page.getByTestId('waiting-explained').getByText('No signer pays these withdrawals').waitFor();
        await expect.poll(() => main.locator(`tr[data-transaction-id]`).count()).toBe(1);
        expect(await main.locator(`tr[data-transaction-id="${byHand}"]`).textContent()).toContain('pending');
        expect(await page.getByLabel('Waiting for').inputValue()).toBe('manual-payout');
        await looksRight(`transactions to pay by hand ${at}`, true);
        await page.goBack();
        await item('payoutsAwaitingFunds').getByRole('link').click();
        await page.waitForURL(/\/admin\/transactions\?waiting=awaiting-funds$/);
        const funds = main.locator(`tr[data-transaction-id="${short}"]`);
        await funds.waitFor();
        // The payout's state in words, with why it waits (issue 32: payoutReason on an admin screen).
        expect(await funds.getByTestId('payout-state').textContent()).toBe(`Payout: Waiting for funds in the hot wallet${reason}`);
        expect(await funds.getByTestId('payout-reason').textContent()).toBe(reason);
        await page.goBack();
        await item('depositsToReview').getByRole('link').click();
        await page.waitForURL(/\/admin\/chain#deposit-reviews$/);
        await page.getByRole('region', { name: 'Deposits to review' }).getByTestId(`deposit-review-${orphaned}`).waitFor();
        await page.goBack();
        await item('approvalsWaiting').getByRole('link').click();
        await page.waitForURL(/\/admin\/approvals$/);
      }

      // Approvals: the other admin's request, with Approve and Reject, the table fitting its card at 1366 px.
      await page.goto('/admin/approvals');
      const request = main.getByRole('row').filter({ hasText: '$50,000.00' });
      await request.getByRole('button', { name: /^Reject/ }).waitFor();
      await request.getByRole('button', { name: /^Approve/ }).waitFor();
      await looksRight(`approvals ${at}`, desktop);

      // Chain status: named networks, amounts with their symbol and name, the blocks in words.
      await page.goto('/admin/chain');
      const ethereum = page.getByTestId('chain-ethereum');
      await ethereum.waitFor();
      expect(await ethereum.locator('td').first().textContent()).toMatch(/^Ethereumregtest/);
      const litecoin = page.getByTestId('chain-litecoin');
      expect(await litecoin.getByTestId('chain-newest-block').textContent()).toMatch(/^Block \d+(made \d+ (s|min) ago)?$/);
      expect(await litecoin.getByTestId('chain-read-up-to').textContent()).toMatch(/^Block \d+(Up to date|\d+ blocks? behind.*)$/);
      const amounts = await page.getByTestId('chain-deposit-amount').allTextContents();
      expect(amounts).toContain('1.5 LTCLitecoin');
      expect(amounts).toContain('0.3 LTCLitecoin');
      const words = (await main.textContent())!;
      expect(words).not.toMatch(/\d\.\d{9,}|Lag:|litecoin\b/);
      expect(words).toContain('A deposit lands here when the block that paid it left the blockchain');
      await looksRight(`chain status ${at}`, false);

      // Reserves: Ethereum has no signer, said in words with the guide's page (the setting only beside it).
      await page.goto('/admin/reserves');
      const ethRow = page.getByTestId('reserves-ethereum-ethereum');
      await ethRow.waitFor();
      const note = ethRow.locator('td.reserve-note');
      expect(await note.textContent()).toMatch(/^No hot wallet: no signer pays this network's withdrawals \(they are paid by hand\)\. Read at block \d+\./);
      const guide = note.getByRole('link', { name: /^Guide: The signer process/ });
      expect(await guide.getAttribute('href')).toBe('/docs/operate/signer.md');
      expect((await page.request.get('/docs/operate/signer.md')).status()).toBe(200);
      expect(await note.locator('code').textContent()).toBe('CHAIN_ETHEREUM_SIGNER_URL');
      const hotCell = ethRow.locator('td').nth(1).getByText('No hot wallet', { exact: true });
      expect(await hotCell.evaluate((el) => getComputedStyle(el).fontFamily)).not.toMatch(/mono/i);
      expect(await page.getByTestId('reserves-litecoin').locator('td').first().textContent()).toBe('Litecoin (LTC)');
      await looksRight(`reserves ${at}`, false);

      // Tokens: where each token's deposits go, its network's label and its contract.
      await page.goto('/admin/tokens');
      const eth = page.getByTestId('token-ethereum-ethereum');
      await eth.waitFor();
      expect(await eth.locator('td').allTextContents()).toEqual([
        'Ethereum (ETH)ethereum',
        'Ethereum',
        "Each customer's own address (the network is connected to a node)",
        '—',
        'EditDelete',
      ]);
      const usdt = await page.getByTestId('token-tether-ethereum').locator('td').allTextContents();
      expect(usdt.slice(1, 4)).toEqual(['Ethereum (ERC-20)', "Each customer's own address (the network is connected to a node)", contract]);
      expect((await page.getByTestId('token-bitcoin-bitcoin').locator('td').allTextContents())[2]).toBe(
        'Not set up: customers cannot deposit on this network yet.',
      );
      await looksRight(`tokens ${at}`, desktop);
      if (desktop) {
        await page.getByTestId('token-tether-ethereum').getByRole('button', { name: /^Edit/ }).click();
        const dialog = page.getByRole('dialog', { name: 'Edit Token' });
        await dialog.getByRole('button', { name: 'Save', exact: true }).waitFor();
        expect(await dialog.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0);
        await page.keyboard.press('Escape');
      }

      // Audit: the customer's own send names them as its actor, with their role.
      await page.goto('/admin/audit');
      const sendRow = main.getByRole('row').filter({ hasText: 'wallet.send' }).first();
      await sendRow.waitFor();
      expect(await main.getByRole('columnheader').allTextContents()).toContain('Actor');
      expect(await sendRow.getByTestId('audit-actor').textContent()).toBe(`${LONG_EMAIL}Customer`);
      expect(await main.getByRole('row').filter({ hasText: 'admin.create' }).getByTestId('audit-actor').textContent()).toBe('The systemSystem');
      await looksRight(`audit ${at}`, false);

      // Every other admin screen: the page never scrolls sideways, every table fits or scrolls in its card, axe 0.
      const others: Array<[string, () => Promise<unknown>]> = [
        ['/admin/users', () => main.getByRole('row').filter({ hasText: 'Katherine Johnson' }).waitFor()],
        [`/admin/users/${customer._id}`, () => main.getByRole('region', { name: 'Transactions' }).getByRole('row').nth(1).waitFor()],
        ['/admin/transactions', () => main.locator('tr[data-transaction-id]').first().waitFor()],
        ['/admin/custom-tokens', () => main.getByText('No Custom Token').waitFor()],
        ['/admin/notify', () => main.getByRole('heading', { level: 1 }).waitFor()],
        ['/admin/tickets', () => main.getByRole('heading', { level: 1 }).waitFor()],
        ['/admin/admins', () => main.getByRole('row').filter({ hasText: 'Checker Second' }).waitFor()],
        ['/admin/api-keys', () => main.getByRole('heading', { level: 1 }).waitFor()],
        ['/admin/webhooks', () => main.getByRole('heading', { level: 1 }).waitFor()],
      ];
      for (const [path, ready] of others) {
        await page.goto(path);
        await ready();
        await looksRight(`${path} ${at}`, desktop && path !== `/admin/users/${customer._id}`);
      }
    }
    await context.close();
  });

  it('Receive ETH and USDT on the anvil: one address, each naming every asset it takes and the network, at 1366 and 375 px, axe 0', async () => {
    // Runs after the back office walk, which gave tether its contract on the anvil (USDT is an ERC-20 token there).
    const { page } = e2e;
    await openWallet(e2e, await signUp(e2e.t.http));
    const receive = async (token: string) => {
      await page.getByRole('button', { name: 'Receive', exact: true }).click();
      await page.getByRole('region', { name: 'Choose a token to receive' }).getByRole('button', { name: token }).click();
      return {
        address: (await page.getByTestId('receive-address').textContent())!,
        accepts: (await page.getByTestId('receive-accepts').textContent())!,
        network: (await page.getByTestId('receive-network').textContent())!,
      };
    };
    for (const viewport of [
      { width: 1366, height: 850 },
      { width: 375, height: 812 },
    ]) {
      await page.setViewportSize(viewport);
      const eth = await receive('Ethereum (ETH)');
      expect(eth.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(eth.network).toBe('Network: Ethereum');
      // Both assets this address takes, on Ethereum only (never "other assets will be lost" on one and not the other).
      expect(eth.accepts).toBe(
        'This address accepts Ethereum (ETH) and Tether (USDT) only. Anything else sent to it will be lost. Use the Ethereum network only: other networks will lose them too.',
      );
      expect(await pageOverflow(page)).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Back' }).click();
      const usdt = await receive('Tether (USDT)');
      // The same address, and the same two assets (the chosen one first); the token's network named with its standard.
      expect(usdt).toEqual({
        address: eth.address,
        accepts:
          'This address accepts Tether (USDT) and Ethereum (ETH) only. Anything else sent to it will be lost. Use the Ethereum (ERC-20) network only: other networks will lose them too.',
        network: 'Network: Ethereum (ERC-20)',
      });
      expect(await pageOverflow(page)).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Back' }).click();
    }
  });
});
