// Browser test of the Reserves screen (issue 25): an admin opens Back office → Reserves and reads, per token, the coins
// a regtest litecoind reports (hot wallet, a customer's deposit address, a cold address) next to the ledger's
// liabilities and the difference; a network without a node shows liabilities only.
import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { ChainWatcherService } from '../../src/modules/chain/chain-watcher.service';
import { JsonRpcClient } from '../../src/chain-core/json-rpc';
import { plain, toMoney } from '../../src/modules/ledger/money';
import { PayoutsService } from '../../src/modules/payouts/payouts.service';
import { ReservesService } from '../../src/modules/reserves/reserves.service';
import { launchBrowser, newPage } from '../support/browser';
import { RegtestLitecoind, litecoindInstalled } from '../support/litecoind';
import { seedCoins } from '../support/market';
import { HOT_SIGNER_NEEDS_POSTGRES } from '../support/chain-e2e';
import { startTestAppWithSigner } from '../support/signer-process';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, loginAdmin, signUp, type TestApp } from '../support/test-app';
import { supportTokens } from '../support/wallet';

/** BIP84 account key m/84'/1'/0' of the "abandon … about" test mnemonic. */
const TPUB = 'tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M';

// The hot wallet is read as the signer process names it: PostgreSQL only (TEST_DATABASE_URL).
describe.skipIf(!litecoindInstalled || HOT_SIGNER_NEEDS_POSTGRES)('the Reserves screen in Chromium', () => {
  let ltc: RegtestLitecoind;
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let cold = '';

  beforeAll(async () => {
    ltc = await RegtestLitecoind.start();
    await ltc.node.call('createwallet', ['cold']);
    cold = await new JsonRpcClient({ rpcUrl: `${ltc.rpcUrl}/wallet/cold`, rpcUrlForLogs: 'cold', timeoutMs: 60_000 }).call<string>('getnewaddress', [
      '',
      'bech32',
    ]);
    await ltc.send(cold, '0.25');
    await ltc.mine(1);
    t = await startTestAppWithSigner(
      {
        CHAIN_LITECOIN_RPC_URL: ltc.rpcUrl,
        CHAIN_LITECOIN_XPUB: TPUB,
        CHAIN_LITECOIN_CHAIN: 'regtest',
        CHAIN_LITECOIN_CONFIRMATIONS: '1',
        // The miner's wallet is the hot wallet here: it does not hold the deposit keys.
        CHAIN_LITECOIN_WALLET: 'miner',
        CHAIN_LITECOIN_COLD_ADDRESSES: cold,
      },
      { listen: true },
    );
    t.app.get(ChainWatcherService).stop();
    t.app.get(PayoutsService).stop();
    t.app.get(ReservesService).stop();
    await seedCoins(t, { bitcoin: '50000', ethereum: '2500', tether: '1', litecoin: '80' });
    await supportTokens(t, ['bitcoin', 'litecoin']);
    browser = await launchBrowser();
    ({ page } = await newPage(browser, t.url!));
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await ltc?.close();
  });

  it('shows holdings per network, the liabilities and the difference for each token', async () => {
    // A customer deposits 1.5 LTC on chain (credited), and is credited BTC by an admin (no node for bitcoin).
    const customer = await signUp(t.http);
    const tokens = (await t.http.get('/api/crypto/get-wallet-tokens').set(bearer(customer.token)).expect(200)).body as Array<{ id: string; address: string }>;
    const address = tokens.find((x) => x.id === 'litecoin')!.address;
    const watcher = t.app.get(ChainWatcherService);
    await watcher.pollOnce('litecoin');
    await ltc.send(address, '1.5');
    await ltc.mine(1);
    await expect
      .poll(
        async () => {
          await watcher.pollOnce('litecoin');
          const rows = (await t.app.get<Database>(DATABASE).execute(sql`select state from chain_deposits where address = ${address}`)) as unknown as {
            rows: Array<{ state: string }>;
          };
          return rows.rows.map((r) => r.state);
        },
        { timeout: 30_000 },
      )
      .toEqual(['credited']);
    const admin = (await loginAdmin(t.http)).token;
    await t.http
      .post(`/api/admin/update-balance/${customer._id}`)
      .set(bearer(admin))
      .send({ token: 'bitcoin', amount: 100, type: 'yes', msg: 'test funding', coinAmount: '0', symbol: 'btc' })
      .expect(200);
    await t.app.get(ReservesService).check();
    const hot = toMoney((await ltc.wallet.call<number>('getbalance')).toFixed(8));
    const total = hot.add('1.5').add('0.25');

    await page.goto('/login-admin');
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/admin$/);
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Reserves', exact: true }).click();
    await page.waitForURL(/\/admin\/reserves$/);
    await page.getByRole('heading', { name: 'Reserves' }).waitFor();

    const cells = async (testId: string) => page.getByTestId(testId).locator('td').allTextContents();
    const grouped = (value: string) => {
      const [whole, fraction] = plain(value).split('.');
      return `${Number(whole).toLocaleString('en-US')}${fraction ? `.${fraction}` : ''}`;
    };
    await page.getByTestId('reserves-litecoin').waitFor();
    expect(await cells('reserves-litecoin')).toEqual(['Litecoin (LTC)', grouped(plain(total)), '1.5', '0', '1.5', grouped(plain(total.sub('1.5'))), 'Covered']);
    const network = await cells('reserves-litecoin-litecoin');
    expect(network[0]).toBe('LTC on Litecoin');
    expect(network[1]).toBe(`${grouped(plain(hot))}miner`);
    expect(network[2]).toBe('1.51 address');
    expect(network[3]).toBe(`0.25${cold.slice(0, 8)}…${cold.slice(-4)}: 0.25`);
    expect(network[4]).toBe(grouped(plain(total)));
    expect(network[5]).toContain('1 deposit address not held by the node wallet "miner"');

    // Bitcoin: no node, liabilities only.
    expect(await cells('reserves-bitcoin')).toEqual(['Bitcoin (BTC)', 'Not connected', '0.002', '0', '0.002', '—', 'liabilities only']);
    expect((await cells('reserves-bitcoin-bitcoin')).slice(1, 5)).toEqual(['Not connected', 'Not connected', 'Not connected', 'Not connected']);
    // Why, in words, with the guide's page; the setting only beside them.
    expect((await cells('reserves-bitcoin-bitcoin'))[5]).toBe(
      'Not connected to a node: holdings are not read.Guide: Chain nodes and deposits (opens in a new tab) Setting: CHAIN_BITCOIN_RPC_URL',
    );
  });
});
