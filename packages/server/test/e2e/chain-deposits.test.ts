// Browser walk (issues 24 and 31): a customer opens Receive on a phone, the test pays the shown address on a real
// regtest litecoind and mines; the customer watches the deposit count its confirmations on the wallet itself, and land
// in the balance to its last unit — the app's own watcher, polling every second, with nothing driven by hand. Then
// History and the transaction's detail on the phone and on a desktop: words, geometry, axe.
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainE2e, openWallet, startChainE2e } from '../support/chain-e2e';
import { litecoindInstalled } from '../support/litecoind';
import { signUp } from '../support/test-app';
import { axeViolations, overflowOf, pageOverflow, tallValues } from '../support/visual-checks';

const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1366, height: 850 };

describe.skipIf(!litecoindInstalled)('a deposit from the chain in Chromium', () => {
  let e2e: ChainE2e;

  beforeAll(async () => {
    e2e = await startChainE2e();
  });

  afterAll(async () => {
    await e2e?.close();
  });

  it('on a phone: Receive, then the deposit counts 1, 2 of 3 on the wallet and its row (never "empty"), and lands to its last unit', async () => {
    const { ltc, page } = e2e;
    await page.setViewportSize(PHONE);
    await openWallet(e2e, await signUp(e2e.t.http));
    await page.getByRole('button', { name: 'Receive', exact: true }).click();
    await page.getByRole('region', { name: 'Choose a token to receive' }).getByRole('button', { name: 'Litecoin (LTC)' }).click();
    const address = (await page.getByTestId('receive-address').textContent())!;
    expect(address).toMatch(/^rltc1q/);
    expect(await page.getByTestId('receive-confirmations').textContent()).toBe('Credited after 3 confirmations');
    const shot = PNG.sync.read(await page.getByTestId('receive-qr').screenshot());
    expect(jsQR(new Uint8ClampedArray(shot.data), shot.width, shot.height)?.data).toBe(address);
    await page.getByRole('button', { name: 'Back' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Your wallet is empty' }).count()).toBe(1);

    // The payment, on the chain, to the address the customer was shown: more decimals than the display's 3.
    await ltc.send(address, '0.50140001');
    await ltc.mine(1);
    // Live on the wallet (the SSE balance event, no reload): incoming, with its amount and confirmations.
    const incoming = page.getByTestId('incoming-deposit');
    await expect
      .poll(async () => (await incoming.count()) && incoming.getByTestId('incoming-confirmations').textContent(), { timeout: 20_000 })
      .toBe('1 of 3 confirmations');
    expect(await incoming.textContent()).toContain('Receiving Litecoin');
    expect(await incoming.getByTestId('incoming-amount').textContent()).toBe('+0.501 LTC');
    expect(await page.getByTestId('incoming-litecoin').textContent()).toBe('Incoming +0.501 · 1 of 3 confirmations');
    expect(await page.getByRole('heading', { name: 'Your wallet is empty' }).count()).toBe(0);
    expect(await pageOverflow(page)).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await ltc.mine(1);
    await expect.poll(() => incoming.getByTestId('incoming-confirmations').textContent(), { timeout: 20_000 }).toBe('2 of 3 confirmations');
    await ltc.mine(1);
    await expect.poll(() => incoming.count(), { timeout: 20_000 }).toBe(0);
    // 0.50140001 LTC at $80.
    await expect.poll(() => page.getByTestId('total-balance').textContent(), { timeout: 20_000 }).toContain('$40.11');

    // The coin page: the display amount and, beside it, every unit.
    await page.locator('[data-token="litecoin"]').click();
    expect(await page.getByTestId('coin-amount').textContent()).toBe('0.501 LTC');
    expect(await page.getByTestId('coin-amount-exact').textContent()).toBe('Exactly 0.50140001 LTC');
    expect(await pageOverflow(page)).toBe(0);
    await page.getByRole('button', { name: 'Back' }).click();
  });

  it('History says what happened, with the coin amount, its value and its state; the detail fits at 375 and 1366 px', async () => {
    const { page } = e2e;
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await page.getByRole('button', { name: 'History' }).click();
      const item = page.getByTestId('history-item').first();
      expect(await item.getByTestId('history-title').textContent()).toBe('Received Litecoin');
      expect(await item.getByTestId('history-coin').textContent()).toBe('+0.501 LTC');
      expect(await item.getByTestId('history-usd').textContent()).toBe('$40.11');
      expect(await item.getByTestId('history-state').textContent()).toBe('Received');
      // The customer's own deposit address says nothing on the row.
      expect(await item.textContent()).not.toContain('rltc1q');
      expect(await pageOverflow(page)).toBe(0);
      expect(await overflowOf(page.getByTestId('history-list'))).toEqual([]);
      await item.click();
      const detail = page.getByRole('dialog');
      expect(await detail.getByRole('heading').textContent()).toBe('Received Litecoin');
      const text = await page.getByTestId('transaction-detail').textContent();
      expect(text).toContain('Confirmations3 of 3');
      expect(text).toContain('Exact amount0.50140001 LTC');
      // Long values on lines of their own, shortened in the middle, with a copy button; nothing else over two lines.
      expect(await detail.getByTestId('detail-hash').getByRole('button', { name: 'Copy the transaction hash' }).count()).toBe(1);
      expect(await detail.getByTestId('detail-address').locator('[aria-hidden="true"]').textContent()).toMatch(/^rltc1q\w{4}…\w{10}$/);
      expect(await tallValues(detail, '.detail-row dd')).toEqual([]);
      expect(await overflowOf(detail.locator('.modal-card'))).toEqual([]);
      // The top of the dialog is on screen.
      expect((await detail.getByRole('heading').boundingBox())!.y).toBeGreaterThanOrEqual(0);
      expect(await pageOverflow(page)).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      // No explorer link on a regtest chain (a mainnet explorer would answer "not found").
      expect(await detail.getByTestId('detail-hash').getByRole('link').count()).toBe(0);
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Back' }).click();
    }
  });
});
