// Browser walk (issue 24): a customer opens Receive, the test pays the shown address on a real regtest litecoind and
// mines; the customer watches the deposit count its confirmations and land in the balance — the app's own watcher,
// polling every second, with nothing driven by hand.
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainE2e, openWallet, startChainE2e } from '../support/chain-e2e';
import { litecoindInstalled } from '../support/litecoind';
import { signUp } from '../support/test-app';

describe.skipIf(!litecoindInstalled)('a deposit from the chain in Chromium', () => {
  let e2e: ChainE2e;

  beforeAll(async () => {
    e2e = await startChainE2e();
  });

  afterAll(async () => {
    await e2e?.close();
  });

  it('Receive shows the customer’s own address with its QR; the payment counts 1, 2 of 3 confirmations in History and lands in the balance', async () => {
    const { ltc, page } = e2e;
    await openWallet(e2e, await signUp(e2e.t.http));
    await page.getByRole('button', { name: 'Receive', exact: true }).click();
    await page.getByRole('region', { name: 'Choose a token to receive' }).getByRole('button', { name: 'Litecoin (LTC)' }).click();
    const address = (await page.getByTestId('receive-address').textContent())!;
    expect(address).toMatch(/^rltc1q/);
    expect(await page.getByTestId('receive-confirmations').textContent()).toBe('Credited after 3 confirmations');
    const shot = PNG.sync.read(await page.getByTestId('receive-qr').screenshot());
    expect(jsQR(new Uint8ClampedArray(shot.data), shot.width, shot.height)?.data).toBe(address);
    await page.getByRole('button', { name: 'Back' }).click();

    // The payment, on the chain, to the address the customer was shown.
    await ltc.send(address, '0.5');
    await ltc.mine(1);
    await page.getByRole('button', { name: 'History' }).click();
    const item = page.getByTestId('history-item').filter({ hasText: address });
    // Live: the watcher's writes reach the open page through the SSE balance event (no reload).
    await expect
      .poll(async () => (await item.count()) && item.getByTestId('history-confirmations').textContent(), { timeout: 20_000 })
      .toBe('1 of 3 confirmations');
    expect(await item.locator('.status-pending').textContent()).toBe('pending');
    await ltc.mine(1);
    await expect.poll(() => item.getByTestId('history-confirmations').textContent(), { timeout: 20_000 }).toBe('2 of 3 confirmations');
    await ltc.mine(1);
    await expect.poll(() => item.locator('.status-approved').count(), { timeout: 20_000 }).toBe(1);
    await item.click();
    const detail = page.getByTestId('transaction-detail');
    expect(await detail.textContent()).toContain('3 of 3');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Back' }).click();
    // 0.5 LTC at $80.
    await expect.poll(() => page.getByTestId('total-balance').textContent(), { timeout: 20_000 }).toContain('$40.00');
  });
});
