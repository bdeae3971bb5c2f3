// Browser walk (issue 31, item 4): the notification of a deposit credited on a real regtest litecoind, read on a phone
// (375 px) and on a desktop (1366 px). The page never scrolls sideways (its 64-character hash wraps in the list), the
// hash in the dialog stays inside it (shortened in the middle, with Copy), and the notification links to its
// transaction: the link opens the wallet's History on that transaction's detail. Then a deposit replaced before it
// confirmed (item 15): the wallet counts only the real one, and History says in words that the other was not credited.
// axe stays at 0 on every screen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainE2e, openWallet, startChainE2e } from '../support/chain-e2e';
import { litecoindInstalled } from '../support/litecoind';
import { bearer, signUp } from '../support/test-app';
import { axeViolations, overflowOf, pageOverflow } from '../support/visual-checks';

const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1366, height: 850 };

describe.skipIf(!litecoindInstalled)('a notification about a chain transaction in Chromium', () => {
  let e2e: ChainE2e;

  beforeAll(async () => {
    // -mempoolreplacement=1: Litecoin Core relays no replacement (RBF) by default.
    e2e = await startChainE2e({}, { ltcArgs: ['-mempoolreplacement=1'] });
  });

  afterAll(async () => {
    await e2e?.close();
  });

  it('fits at 375 and 1366 px, keeps its hash inside the dialog, and opens the transaction in History', async () => {
    const { ltc, page, t } = e2e;
    const customer = await signUp(t.http);
    const tokens = (await t.http.get('/api/crypto/get-wallet-tokens').set(bearer(customer.token)).expect(200)).body as Array<{ id: string; address: string }>;
    const address = tokens.find((row) => row.id === 'litecoin')!.address;
    const txid = await ltc.send(address, '0.5');
    await ltc.mine(3);
    // The app's own watcher (every second) credits it and tells the customer.
    const credited = async () =>
      ((await t.http.get('/api/user/get-notifications').set(bearer(customer.token)).expect(200)).body as Array<{ title: string; transactionId?: string }>).find(
        (n) => n.title === 'Deposit approved',
      );
    await expect.poll(credited, { timeout: 30_000 }).toBeTruthy();
    const transactionId = (await credited())!.transactionId!;
    const [row] = (await t.http.get('/api/user/get-transaction').query({ id: transactionId }).set(bearer(customer.token)).expect(200)).body as Array<{
      _id: string;
      txHash: string;
    }>;
    expect(row).toMatchObject({ _id: transactionId, txHash: txid });

    await openWallet(e2e, customer);
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await page.goto('/notifications');
      const item = page.getByTestId('notification-item').filter({ hasText: 'Deposit approved' });
      await item.waitFor();
      // The list: no sideways scroll, the hash wraps inside its card.
      expect(await pageOverflow(page), `page overflow at ${viewport.width}`).toBe(0);
      expect(await overflowOf(item)).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);

      await item.click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('heading', { name: 'Deposit approved' }).waitFor();
      const hash = dialog.getByTestId('notification-hash');
      expect(await hash.locator('[aria-hidden="true"]').textContent()).toBe(`${txid.slice(0, 10)}…${txid.slice(-10)}`);
      expect(await hash.getByRole('button', { name: 'Copy the transaction hash' }).count()).toBe(1);
      // The hash inside the dialog, and nothing of the dialog outside it.
      const card = (await dialog.locator('.modal-card').boundingBox())!;
      const value = (await hash.boundingBox())!;
      expect(value.x).toBeGreaterThanOrEqual(card.x);
      expect(value.x + value.width).toBeLessThanOrEqual(card.x + card.width + 0.5);
      expect(await overflowOf(dialog.locator('.modal-card'))).toEqual([]);
      expect(await dialog.locator('.notification-message').textContent()).not.toContain(txid);
      expect(await pageOverflow(page), `page overflow with the dialog at ${viewport.width}`).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/notification-hash-${viewport.width}.png` });

      // The link opens that transaction's detail in the wallet's History.
      await dialog.getByRole('link', { name: 'View the transaction' }).click();
      await page.waitForURL((url) => url.pathname === '/wallet');
      const detail = page.getByRole('dialog');
      await detail.getByRole('heading', { name: 'Received Litecoin' }).waitFor({ timeout: 15_000 });
      expect(await detail.getByTestId('detail-hash').locator('.visually-hidden').textContent()).toBe(txid);
      expect(await page.getByRole('region', { name: 'History' }).count()).toBe(1);
      expect(new URL(page.url()).search).toBe('');
      expect(await pageOverflow(page), `page overflow in History at ${viewport.width}`).toBe(0);
      expect(await overflowOf(detail.locator('.modal-card'))).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/notification-transaction-${viewport.width}.png` });
      await detail.getByRole('button', { name: 'Close' }).click();
      await page.getByRole('button', { name: 'Back' }).first().click();
    }
  });

  it('a deposit replaced before it confirmed: the wallet counts the replacement only, History says the original was not credited', async () => {
    const { ltc, page, t } = e2e;
    const customer = await signUp(t.http);
    const tokens = (await t.http.get('/api/crypto/get-wallet-tokens').set(bearer(customer.token)).expect(200)).body as Array<{ id: string; address: string }>;
    const address = tokens.find((row) => row.id === 'litecoin')!.address;
    await page.setViewportSize(PHONE);
    await openWallet(e2e, customer);
    // An opt-in RBF payment, seen in the mempool: incoming on the wallet at 0 of 3.
    const original = await ltc.wallet.call<string>('sendtoaddress', [address, '0.3', '', '', false, true]);
    const incoming = page.getByTestId('incoming-deposit');
    await expect.poll(() => incoming.count(), { timeout: 20_000 }).toBe(1);
    // Replaced (bumpfee: the same payment with a higher fee, a new transaction).
    const bumped = (await ltc.wallet.call<{ txid: string }>('bumpfee', [original])).txid;
    const rows = async () =>
      (await t.http.get('/api/user/get-transaction').set(bearer(customer.token)).expect(200)).body as Array<{ _id: string; txHash: string; status: string }>;
    await expect
      .poll(async () => (await rows()).map((row) => [row.txHash, row.status]).sort(), { timeout: 20_000 })
      .toEqual(
        [
          [original, 'rejected'],
          [bumped, 'pending'],
        ].sort(),
      );
    // Live, without a reload: one incoming deposit (the replacement), not two.
    await expect.poll(() => incoming.count(), { timeout: 20_000 }).toBe(1);
    expect(await incoming.getByTestId('incoming-amount').textContent()).toBe('+0.300 LTC');
    expect(await pageOverflow(page)).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    const dropped = (await rows()).find((row) => row.txHash === original)!;
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await page.goto(`/wallet?transaction=${dropped._id}`);
      const detail = page.getByRole('dialog');
      await detail.getByRole('heading', { name: 'Received Litecoin' }).waitFor({ timeout: 15_000 });
      expect(await page.getByTestId('transaction-detail').textContent()).toContain('Replaced before it confirmed; nothing was credited.');
      expect(await detail.getByTestId('detail-hash').locator('.visually-hidden').textContent()).toBe(original);
      expect(await overflowOf(detail.locator('.modal-card'))).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      await detail.getByRole('button', { name: 'Close' }).click();
      const row = page
        .getByTestId('history-item')
        .filter({ has: page.getByTestId('history-state').getByText('Replaced before it confirmed; nothing was credited') });
      await row.waitFor();
      expect(await row.getByTestId('history-coin').textContent()).toBe('+0.300 LTC');
      expect(await pageOverflow(page), `page overflow in History at ${viewport.width}`).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/deposit-replaced-${viewport.width}.png` });
    }
    await ltc.mine(3);
    await expect
      .poll(async () => (await rows()).map((row) => [row.txHash, row.status]).sort(), { timeout: 20_000 })
      .toEqual(
        [
          [original, 'rejected'],
          [bumped, 'approved'],
        ].sort(),
      );
  });
});
