// Browser walk (issue 25): a customer sends LTC, sees the network fee before confirming, an admin approves, and the
// app's own payout job (every second) pays it from the regtest litecoind's hot wallet; the customer watches it complete.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { JsonRpcClient } from '../../src/chain-core/json-rpc';
import { type ChainE2e, HOT_SIGNER_NEEDS_POSTGRES, openWallet, startChainE2e } from '../support/chain-e2e';
import { litecoindInstalled } from '../support/litecoind';
import { bearer, loginAdmin, signUp } from '../support/test-app';

// The hot wallet is the signer process's: PostgreSQL only (TEST_DATABASE_URL).
describe.skipIf(!litecoindInstalled || HOT_SIGNER_NEEDS_POSTGRES)('a withdrawal paid on the chain in Chromium', () => {
  let e2e: ChainE2e;

  beforeAll(async () => {
    // The regtest node's own wallet is the hot wallet.
    e2e = await startChainE2e({ CHAIN_LITECOIN_WALLET: 'miner' });
  });

  afterAll(async () => {
    await e2e?.close();
  });

  it('an amount the network fee would take entirely: the confirm step says so and Confirm is disabled', async () => {
    const { ltc, t, page } = e2e;
    const session = await signUp(t.http);
    const admin = (await loginAdmin(t.http)).token;
    await t.http
      .post(`/api/admin/update-balance/${session._id}`)
      .set(bearer(admin))
      .send({ token: 'litecoin', amount: 40, type: 'yes', msg: 'test funding', coinAmount: '0', symbol: 'ltc' })
      .expect(200);
    // Fees are high (0.01 LTC per 1,000 vbytes: about 0.0014 LTC a payout); $0.08 is 0.001 LTC.
    await ltc.wallet.call('settxfee', [0.01]);
    try {
      await openWallet(e2e, session);
      await page.getByRole('navigation', { name: 'Wallet actions' }).getByRole('button', { name: 'Send' }).click();
      await page
        .getByRole('region', { name: 'Choose a token to send' })
        .getByRole('button', { name: /^Litecoin \(LTC\)/ })
        .click();
      await page.getByLabel('Address', { exact: true }).fill(await ltc.newAddress());
      await page.getByLabel('Amount in USD').fill('0.08');
      await page.getByRole('button', { name: 'Next' }).click();
      await expect
        .poll(() => page.getByTestId('confirm-fee-refusal').textContent(), { timeout: 20_000 })
        .toMatch(/^The amount does not cover the network fee of 0\.001\d+ LTC\.$/);
      expect(await page.getByTestId('confirm-recipient-gets').textContent()).toBe('≈ 0.00000000 LTC');
      expect(await page.getByRole('button', { name: 'Confirm' }).isDisabled()).toBe(true);
    } finally {
      await ltc.wallet.call('settxfee', [0]);
      // The wallet keeps its open panels in localStorage: the next walk starts from the wallet itself.
      await page.evaluate(() => localStorage.clear());
    }
    // Nothing was sent.
    expect((await t.http.get('/api/user/get-transaction').set(bearer(session.token)).expect(200)).body).toHaveLength(1);
  });

  it('Send shows the network fee before Confirm; approved, the withdrawal is paid on chain and completes in History', async () => {
    const { ltc, t, page } = e2e;
    await ltc.node.call('createwallet', ['recipient']);
    const recipient = new JsonRpcClient({ rpcUrl: `${ltc.rpcUrl}/wallet/recipient`, rpcUrlForLogs: 'recipient', timeoutMs: 60_000 });
    const address = await recipient.call<string>('getnewaddress', ['', 'bech32']);
    const session = await signUp(t.http);
    const admin = (await loginAdmin(t.http)).token;
    await t.http
      .post(`/api/admin/update-balance/${session._id}`)
      .set(bearer(admin))
      .send({ token: 'litecoin', amount: 40, type: 'yes', msg: 'test funding', coinAmount: '0', symbol: 'ltc' })
      .expect(200);

    await openWallet(e2e, session);
    await page.getByRole('navigation', { name: 'Wallet actions' }).getByRole('button', { name: 'Send' }).click();
    await page
      .getByRole('region', { name: 'Choose a token to send' })
      .getByRole('button', { name: /^Litecoin \(LTC\)/ })
      .click();
    await page.getByLabel('Address', { exact: true }).fill(address);
    await page.getByLabel('Amount in USD').fill('10');
    await page.getByRole('button', { name: 'Next' }).click();
    // The fee the hot wallet would pay, before the customer confirms; the customer pays it out of the amount.
    await expect.poll(() => page.getByTestId('confirm-network-fee').textContent(), { timeout: 20_000 }).toMatch(/^≈ 0\.\d{8} LTC \(included in the amount\)$/);
    const estimatedFee = Number(/0\.\d{8}/.exec((await page.getByTestId('confirm-network-fee').textContent())!)![0]);
    expect(await page.getByTestId('confirm-recipient-gets').textContent()).toBe(`≈ ${(0.125 - estimatedFee).toFixed(8)} LTC`);
    await page.getByRole('button', { name: 'Confirm' }).click();

    // The admin approves; the app's own payout job signs and broadcasts it.
    let withdrawalId = '';
    await expect
      .poll(
        async () => {
          const list = (await t.http.get('/api/user/get-transaction').set(bearer(session.token)).expect(200)).body as Array<{ _id: string; type: string }>;
          withdrawalId = list.find((tx) => tx.type === 'withdrawal')?._id ?? '';
          return withdrawalId;
        },
        { timeout: 20_000 },
      )
      .not.toBe('');
    await t.http.post('/api/admin/modify-transaction').set(bearer(admin)).send({ tId: withdrawalId, modification: 'approved' }).expect(200);
    await expect.poll(async () => (await ltc.node.call<string[]>('getrawmempool')).length, { timeout: 20_000 }).toBe(1);
    const [txid] = await ltc.node.call<string[]>('getrawmempool');
    const [{ charged }] = (
      (await t.app.get<Database>(DATABASE).execute(sql`select charged_fee_base::int as charged from payouts where txid = ${txid}`)) as unknown as {
        rows: Array<{ charged: number }>;
      }
    ).rows;
    const recipientGets = ((12_500_000 - charged) / 1e8).toFixed(8);
    await ltc.mine(3);
    await expect
      .poll(
        async () => (await recipient.call<Array<{ txid: string; amount: number }>>('listunspent', [1, 9999999, [address]])).map((u) => [u.txid, u.amount]),
        {
          timeout: 20_000,
        },
      )
      .toEqual([[txid, Number(recipientGets)]]);

    // The app's job counts the confirmations: completed.
    await expect
      .poll(
        async () => {
          const list = (await t.http.get('/api/user/get-transaction').set(bearer(session.token)).expect(200)).body as Array<{
            _id: string;
            payoutState?: string;
          }>;
          return list.find((tx) => tx._id === withdrawalId)?.payoutState;
        },
        { timeout: 30_000 },
      )
      .toBe('completed');
    // In History: the withdrawal's payment, completed, with its txid and fee.
    await page.goto('/wallet');
    await page.getByRole('navigation', { name: 'Wallet actions' }).getByRole('button', { name: 'History' }).click();
    const item = page.locator(`[data-testid="history-item"][data-address="${address}"]`).first();
    await item.click();
    const detail = (await page.getByTestId('transaction-detail').textContent())!;
    expect(detail).toContain(txid);
    expect(detail).toContain('3 of 3');
    expect(detail).toContain('StatusCompleted');
    expect(await page.getByTestId('withdrawal-now').textContent()).toBe('Completed. The recipient has the coins.');
    expect(detail).toMatch(/Network fee0\.\d{8} LTC \(included in the amount\)/);
    expect(detail).toContain(`Recipient gets${recipientGets} LTC`);
  });
});
