import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { addAdministrator } from '../../src/modules/admin/add-administrator';
import { ChainWatcherService } from '../../src/modules/chain/chain-watcher.service';
import { JsonRpcClient } from '../../src/chain-core/json-rpc';
import { PayoutsService } from '../../src/modules/payouts/payouts.service';
import { RegtestLitecoind, litecoindInstalled } from '../support/litecoind';
import { seedCoins } from '../support/market';
import { type SignedTestApp, SIGNER_DATABASE_KINDS, skipOnPglite, startTestAppWithSigner } from '../support/signer-process';
import { bearer, loginAdmin, signUp } from '../support/test-app';
import { supportTokens } from '../support/wallet';

const TPUB = 'tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M';

/**
 * Four-eyes before the chain (issues 22 and 25): a withdrawal above APPROVAL_THRESHOLD_USD that one admin settles is
 * only a request, and the payout job signs nothing for it; once a second admin approves, it is paid once.
 */
skipOnPglite('a large withdrawal waits for a second admin before it is signed');

describe.skipIf(!litecoindInstalled).each(SIGNER_DATABASE_KINDS)('a large withdrawal waits for a second admin before it is signed, on %s', () => {
  let ltc: RegtestLitecoind;
  let t: SignedTestApp;
  let recipient: JsonRpcClient;

  beforeAll(async () => {
    ltc = await RegtestLitecoind.start();
    await ltc.node.call('createwallet', ['recipient']);
    recipient = new JsonRpcClient({ rpcUrl: `${ltc.rpcUrl}/wallet/recipient`, rpcUrlForLogs: 'recipient', timeoutMs: 60_000 });
    t = await startTestAppWithSigner({
      CHAIN_LITECOIN_RPC_URL: ltc.rpcUrl,
      CHAIN_LITECOIN_XPUB: TPUB,
      CHAIN_LITECOIN_CHAIN: 'regtest',
      CHAIN_LITECOIN_CONFIRMATIONS: '1',
      CHAIN_LITECOIN_POLL_SECONDS: '1',
      CHAIN_LITECOIN_WALLET: 'miner',
      APPROVAL_THRESHOLD_USD: '100',
    });
    // The test drives the runs itself.
    t.app.get(PayoutsService).stop();
    t.app.get(ChainWatcherService).stop();
    await seedCoins(t, { litecoin: '80' });
    await supportTokens(t, ['litecoin']);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await ltc?.close();
  });

  it('one admin settling it only asks; nothing is signed until a second admin approves; then it is paid once', async () => {
    const a = await loginAdmin(t.http);
    await addAdministrator(t.app.get(DATABASE), { name: 'Checker', email: 'checker@test.local', password: 'checker-password-1' });
    const b = (await t.http.post('/api/admin/login-admin').send({ email: 'checker@test.local', password: 'checker-password-1' }).expect(200)).body;
    const approveRequest = (id: string) => t.http.post(`/api/admin/approvals/${id}/approve`).set(bearer(b.token)).expect(200);

    const customer = await signUp(t.http);
    const funding = await t.http
      .post(`/api/admin/update-balance/${customer._id}`)
      .set(bearer(a.token))
      .send({ token: 'litecoin', amount: 400, type: 'yes', msg: 'test funding' })
      .expect(202);
    await approveRequest(funding.body.approvalId);
    const address = await recipient.call<string>('getnewaddress', ['', 'bech32']);
    const sent = await t.http
      .post('/api/crypto/send-crypto/litecoin')
      .set(bearer(customer.token))
      .send({ transferData: { address, amount: 200 } })
      .expect(201);
    const id = sent.body.transaction._id as string;

    const settle = await t.http.post('/api/admin/modify-transaction').set(bearer(a.token)).send({ tId: id, modification: 'approved' }).expect(202);
    const payouts = t.app.get(PayoutsService);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ created: 0, signed: 0, broadcast: 0 });
    const none = (await t.app.get<Database>(DATABASE).execute(sql`select count(*)::int as n from payouts where transaction_id = ${id}`)) as unknown as {
      rows: Array<{ n: number }>;
    };
    expect(none.rows[0].n).toBe(0);
    expect(await ltc.node.call<string[]>('getrawmempool')).toEqual([]);

    await approveRequest(settle.body.approvalId);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ created: 1, signed: 1, broadcast: 1 });
    await ltc.mine(1);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ completed: 1 });
    expect(await payouts.runOnce('litecoin')).toMatchObject({ created: 0, signed: 0, broadcast: 0, completed: 0 });
    const paid = await recipient.call<Array<{ amount: number }>>('listunspent', [0, 9999999, [address]]);
    // The approved amount less the network fee charged to the customer when it was signed.
    const charged = (await t.app
      .get<Database>(DATABASE)
      .execute(sql`select charged_fee_base::int as fee from payouts where transaction_id = ${id}`)) as unknown as {
      rows: Array<{ fee: number }>;
    };
    expect(charged.rows[0].fee).toBeGreaterThan(0);
    expect(paid.map((u) => u.amount.toFixed(8))).toEqual([((250_000_000 - charged.rows[0].fee) / 1e8).toFixed(8)]);
  });
});
