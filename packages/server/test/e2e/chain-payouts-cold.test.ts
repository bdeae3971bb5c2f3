// Browser walk of the cold path (issue 25, "Hot and cold"): a withdrawal above CHAIN_LITECOIN_HOT_LIMIT waits for a
// cold signature; on the Transactions screen the admin downloads its unsigned PSBT, has it signed by the cold wallet
// (the test's second litecoind wallet), uploads a forged one (refused, the reason shown) and then the signed one; the
// app's own payout job broadcasts it and the customer's withdrawal completes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonRpcClient } from '../../src/chain-core/json-rpc';
import { type ChainE2e, HOT_SIGNER_NEEDS_POSTGRES, startChainE2e } from '../support/chain-e2e';
import { createColdWallet, type RegtestColdWallet } from '../support/cold-wallet';
import { litecoindInstalled } from '../support/litecoind';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, loginAdmin, signUp } from '../support/test-app';

// The hot wallet is the signer process's: PostgreSQL only (TEST_DATABASE_URL).
describe.skipIf(!litecoindInstalled || HOT_SIGNER_NEEDS_POSTGRES)('a withdrawal signed offline from the back office in Chromium', () => {
  let e2e: ChainE2e;
  let coldWallet: RegtestColdWallet;
  const files = mkdtempSync(join(tmpdir(), 'coinpurse-cold-files-'));

  beforeAll(async () => {
    // The node's own wallet ("miner") is the hot wallet; the cold wallet is created right after the node starts.
    e2e = await startChainE2e({ CHAIN_LITECOIN_WALLET: 'miner', CHAIN_LITECOIN_COLD_WALLET: 'cold-watch', CHAIN_LITECOIN_HOT_LIMIT: '1' });
    coldWallet = await createColdWallet(e2e.ltc);
    await e2e.ltc.send(await coldWallet.watch.call<string>('getnewaddress', ['', 'bech32']), '10');
    await e2e.ltc.mine(1);
  });

  afterAll(async () => {
    await e2e?.close();
    rmSync(files, { recursive: true, force: true });
  });

  const signIn = async (page: Page) => {
    await page.goto('/login-admin');
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/admin$/);
  };
  const uploadFile = async (page: Page, id: string, path: string) => {
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.locator(`[data-cold-payout="${id}"]`).getByRole('button', { name: 'Upload signed' }).click(),
    ]);
    await chooser.setFiles(path);
  };

  it('Download unsigned, sign offline, Upload signed: a forged file is refused with its reason, the signed one is paid', async () => {
    const { ltc, t, page } = e2e;
    const admin = (await loginAdmin(t.http)).token;
    const customer = await signUp(t.http);
    await t.http
      .post(`/api/admin/update-balance/${customer._id}`)
      .set(bearer(admin))
      .send({ token: 'litecoin', amount: 240, type: 'yes', msg: 'test funding', coinAmount: '0', symbol: 'ltc' })
      .expect(200);
    const address = await ltc.newAddress();
    const sent = await t.http
      .post('/api/crypto/send-crypto/litecoin')
      .set(bearer(customer.token))
      .send({ transferData: { address, amount: 200, symbol: 'ltc' } })
      .expect(201);
    const id = sent.body.transaction._id as string;
    await t.http.post('/api/admin/modify-transaction').set(bearer(admin)).send({ tId: id, modification: 'approved' }).expect(200);
    const payoutState = async () =>
      ((await t.http.get('/api/user/get-transaction').set(bearer(customer.token)).expect(200)).body as Array<{ _id: string; payoutState?: string }>).find(
        (tx) => tx._id === id,
      )?.payoutState;
    // 2.5 LTC is above the hot limit (1 LTC): the app's job (every second) leaves it for a cold signature.
    await expect.poll(payoutState, { timeout: 20_000 }).toBe('awaiting_cold_signature');

    await signIn(page);
    await page.goto('/admin/transactions');
    const row = page.locator(`[data-cold-payout="${id}"]`);
    await row.getByText('above the hot limit of 1 LTC per payout').waitFor();
    expect(await row.getByRole('button', { name: 'Upload signed' }).isDisabled()).toBe(true);
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Download unsigned' }).click()]);
    expect(download.suggestedFilename()).toBe(`withdrawal-${id}.psbt`);
    // A binary BIP 174 file ("psbt" 0xff).
    const unsigned = readFileSync((await download.path())!);
    expect([...unsigned.subarray(0, 5)]).toEqual([0x70, 0x73, 0x62, 0x74, 0xff]);
    const psbt = unsigned.toString('base64');

    // A forged file: the same coins, signed by the cold key, paying someone else.
    const decoded = await ltc.node.call<{
      tx: { vin: Array<{ txid: string; vout: number }>; vout: Array<{ value: number; scriptPubKey: { address?: string; addresses?: string[] } }> };
    }>('decodepsbt', [psbt]);
    const change = decoded.tx.vout.find((o) => (o.scriptPubKey.address ?? o.scriptPubKey.addresses?.[0]) !== address)!;
    await ltc.node.call('createwallet', ['outsider']);
    const attacker = await new JsonRpcClient({ rpcUrl: `${ltc.rpcUrl}/wallet/outsider`, rpcUrlForLogs: 'outsider' }).call<string>('getnewaddress', [
      '',
      'bech32',
    ]);
    const forgedUnsigned = await ltc.node.call<string>('createpsbt', [
      decoded.tx.vin.map((input) => ({ txid: input.txid, vout: input.vout })),
      [{ [attacker]: '2.5' }, { [change.scriptPubKey.address ?? change.scriptPubKey.addresses![0]]: change.value.toFixed(8) }],
    ]);
    const forged = await coldWallet.cold.call<{ psbt: string }>('walletprocesspsbt', [forgedUnsigned, true, 'ALL']);
    writeFileSync(join(files, 'forged.txt'), forged.psbt);
    await expect.poll(() => row.getByRole('button', { name: 'Upload signed' }).isDisabled()).toBe(false);
    await uploadFile(page, id, join(files, 'forged.txt'));
    await page
      .getByRole('alert')
      .filter({ hasText: `The signed transaction pays 2.50000000 to ${attacker}, which is neither the approved payment (2.50000000 to ${address})` })
      .waitFor();
    expect(await payoutState()).toBe('awaiting_cold_signature');

    // The cold wallet signs the downloaded PSBT (offline in production); its binary file is uploaded.
    const signed = await coldWallet.cold.call<{ psbt: string; complete: boolean }>('walletprocesspsbt', [psbt, true, 'ALL']);
    expect(signed.complete).toBe(true);
    writeFileSync(join(files, 'signed.psbt'), Buffer.from(signed.psbt, 'base64'));
    await uploadFile(page, id, join(files, 'signed.psbt'));
    await page.locator('[role="status"]').filter({ hasText: 'Signed transaction accepted: it will be broadcast shortly.' }).first().waitFor();
    // The app's job broadcasts the stored bytes; three blocks later the withdrawal is completed.
    await expect.poll(async () => (await ltc.node.call<string[]>('getrawmempool')).length, { timeout: 20_000 }).toBe(1);
    await ltc.mine(3);
    await expect.poll(payoutState, { timeout: 30_000 }).toBe('completed');
    const paid = await ltc.wallet.call<Array<{ amount: number }>>('listunspent', [1, 9999999, [address]]);
    expect(paid.map((u) => u.amount)).toEqual([2.5]);
  });

  it('a prepared transaction is discarded, then the withdrawal failed with a reason: the customer gets the amount back', async () => {
    const { ltc, t, page } = e2e;
    const admin = (await loginAdmin(t.http)).token;
    const customer = await signUp(t.http);
    await t.http
      .post(`/api/admin/update-balance/${customer._id}`)
      .set(bearer(admin))
      .send({ token: 'litecoin', amount: 240, type: 'yes', msg: 'test funding', coinAmount: '0', symbol: 'ltc' })
      .expect(200);
    const sent = await t.http
      .post('/api/crypto/send-crypto/litecoin')
      .set(bearer(customer.token))
      .send({ transferData: { address: await ltc.newAddress(), amount: 200, symbol: 'ltc' } })
      .expect(201);
    const id = sent.body.transaction._id as string;
    await t.http.post('/api/admin/modify-transaction').set(bearer(admin)).send({ tId: id, modification: 'approved' }).expect(200);
    const withdrawal = async () =>
      (
        (await t.http.get('/api/user/get-transaction').set(bearer(customer.token)).expect(200)).body as Array<{
          _id: string;
          status: string;
          payoutState?: string;
        }>
      ).find((tx) => tx._id === id);
    await expect.poll(async () => (await withdrawal())?.payoutState, { timeout: 20_000 }).toBe('awaiting_cold_signature');

    await page.goto('/admin/transactions');
    const row = page.locator(`[data-cold-payout="${id}"]`);
    await row.getByText('above the hot limit of 1 LTC per payout').waitFor();
    expect(await row.getByRole('button', { name: 'Discard unsigned' }).isDisabled()).toBe(true);
    await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Download unsigned' }).click()]);
    await expect.poll(() => row.getByRole('button', { name: 'Discard unsigned' }).isDisabled()).toBe(false);
    await row.getByRole('button', { name: 'Discard unsigned' }).click();
    await page.locator('[role="status"]').filter({ hasText: 'Unsigned transaction discarded' }).first().waitFor();
    await expect.poll(() => row.getByRole('button', { name: 'Upload signed' }).isDisabled()).toBe(true);

    await row.getByRole('button', { name: 'Fail withdrawal' }).click();
    const dialog = page.getByRole('dialog', { name: 'Fail the withdrawal' });
    await dialog.getByLabel('Reason').fill('The cold wallet is being moved.');
    await dialog.getByRole('button', { name: 'Fail withdrawal' }).click();
    await page.locator('[role="status"]').filter({ hasText: 'The withdrawal failed: its amount was returned to the customer.' }).first().waitFor();
    await row.waitFor({ state: 'detached' });
    expect(await withdrawal()).toMatchObject({ status: 'rejected', payoutState: 'failed' });
    const balances = (await t.http.get('/api/user/get-user-balance').set(bearer(customer.token)).expect(200)).body.balances as Array<{ coinAmount: string }>;
    expect(balances[0].coinAmount).toBe('3.000');
  });
});
