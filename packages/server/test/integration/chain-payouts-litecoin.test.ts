import { sql } from 'drizzle-orm';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { ChainWatcherService } from '../../src/modules/chain/chain-watcher.service';
import { JsonRpcClient } from '../../src/chain-core/json-rpc';
import { SignerRefusal } from '../../src/chain-core/signer-contract';
import { PayoutsService } from '../../src/modules/payouts/payouts.service';
import { RegtestLitecoind, litecoindInstalled } from '../support/litecoind';
import { seedCoins } from '../support/market';
import { WebhookReceiver } from '../support/webhook-receiver';
import { type SignedTestApp, SIGNER_DATABASE_KINDS, SIGNER_TOKEN, skipOnPglite, startTestAppWithSigner } from '../support/signer-process';
import { bearer, loginAdmin, signUp, type TestApp } from '../support/test-app';
import { parseMetrics, sample } from '../support/prometheus';
import { supportTokens } from '../support/wallet';

/** BIP84 account key m/84'/1'/0' of the "abandon … about" test mnemonic (deposits; payouts come from the node's wallet). */
const TPUB = 'tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M';
const CONFIRMATIONS = 3;

interface Tx {
  _id: string;
  type: string;
  status: string;
  coinAmount: string;
  txHash?: string;
  payoutState?: string;
  fee?: string;
  recipientGets?: string;
  confirmations?: number;
  requiredConfirmations?: number;
}

/**
 * Withdrawals paid by the node's hot wallet ("miner", funded by 101 mined blocks) on a real litecoind -regtest: from
 * the customer's send to completed on chain, a forged signer request refused, and a process that dies between signing
 * and broadcasting followed by a fresh app: exactly one payment.
 */
skipOnPglite('withdrawals paid on a regtest litecoind');

describe.skipIf(!litecoindInstalled).each(SIGNER_DATABASE_KINDS)('withdrawals paid on a regtest litecoind on %s', (kind) => {
  let ltc: RegtestLitecoind;
  let recipient: JsonRpcClient;
  const apps: SignedTestApp[] = [];
  const logLines: string[] = [];
  let admin = '';

  const env = () => ({
    CHAIN_LITECOIN_RPC_URL: ltc.rpcUrl,
    CHAIN_LITECOIN_XPUB: TPUB,
    CHAIN_LITECOIN_CHAIN: 'regtest',
    CHAIN_LITECOIN_CONFIRMATIONS: String(CONFIRMATIONS),
    CHAIN_LITECOIN_POLL_SECONDS: '1',
    CHAIN_LITECOIN_WALLET: 'miner',
    LOG_LEVEL: 'info',
    // The webhook receiver of the first test listens on loopback over http.
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  });
  const logs = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  /** An app on the test's database with the signer process: the first one creates both; the later ones share them. */
  const startApp = async (): Promise<SignedTestApp> => {
    const first = apps[0];
    const app = first
      ? await startTestAppWithSigner(env(), { shareDatabaseWith: first, signer: first, logDestination: logs })
      : await startTestAppWithSigner(env(), { logDestination: logs });
    apps.push(app);
    return app;
  };
  /** What the signer process printed (its refusals are logged there). */
  const signerLog = () => apps[0].signer.output();
  const current = () => apps[apps.length - 1];
  const rows = async <T>(app: TestApp, query: ReturnType<typeof sql>) =>
    ((await app.app.get<Database>(DATABASE).execute(query)) as unknown as { rows: T[] }).rows;
  const payoutOf = async (app: TestApp, transactionId: string) =>
    (
      await rows<{ state: string; txid: string | null; rawTx: string | null; confirmations: number; attempts: number }>(
        app,
        sql`select state, txid, raw_tx as "rawTx", confirmations, attempts from payouts where transaction_id = ${transactionId}`,
      )
    )[0];
  /** What the recipient of a withdrawal of `amount` LTC gets: the amount less the network fee charged when it was signed. */
  const net = async (app: TestApp, transactionId: string, amount: string) => {
    const [row] = await rows<{ charged: string }>(app, sql`select charged_fee_base::text as charged from payouts where transaction_id = ${transactionId}`);
    expect(BigInt(row.charged)).toBeGreaterThan(0n);
    const base = BigInt(amount.replace('.', '')) - BigInt(row.charged);
    return `${base / 100_000_000n}.${(base % 100_000_000n).toString().padStart(8, '0')}`;
  };
  const history = async (app: TestApp, token: string) => (await app.http.get('/api/user/get-transaction').set(bearer(token)).expect(200)).body as Tx[];
  /** A customer holding `usd` of LTC who sends `sendUsd` to `address`; returns the withdrawal's id. */
  const withdrawal = async (app: TestApp, address: string, usd: number, sendUsd: number) => {
    const customer = await signUp(app.http);
    await app.http
      .post(`/api/admin/update-balance/${customer._id}`)
      .set(bearer(admin))
      .send({ token: 'litecoin', amount: usd, type: 'yes', msg: 'test funding', coinAmount: '0', symbol: 'ltc' })
      .expect(200);
    const sent = await app.http
      .post('/api/crypto/send-crypto/litecoin')
      .set(bearer(customer.token))
      .send({ transferData: { address, amount: sendUsd, symbol: 'ltc', coinAmount: String(sendUsd / 80) } })
      .expect(201);
    return { customer, id: sent.body.transaction._id as string };
  };
  const approve = (app: TestApp, id: string) =>
    app.http.post('/api/admin/modify-transaction').set(bearer(admin)).send({ tId: id, modification: 'approved' }).expect(200);
  /** Payments the recipient wallet received at `address` (txid → amount). */
  const received = async (address: string) => {
    const unspent = await recipient.call<Array<{ txid: string; amount: number; address: string }>>('listunspent', [0, 9999999, [address]]);
    return unspent.map((u) => ({ txid: u.txid, amount: u.amount.toFixed(8) }));
  };

  beforeAll(async () => {
    ltc = await RegtestLitecoind.start();
    await ltc.node.call('createwallet', ['recipient']);
    recipient = new JsonRpcClient({ rpcUrl: `${ltc.rpcUrl}/wallet/recipient`, rpcUrlForLogs: 'recipient', timeoutMs: 60_000 });
    const app = await startApp();
    // The test drives the runs itself (the scheduled ones would race its assertions).
    app.app.get(PayoutsService).stop();
    app.app.get(ChainWatcherService).stop();
    await seedCoins(app, { litecoin: '80' });
    await supportTokens(app, ['litecoin']);
    admin = (await loginAdmin(app.http)).token;
  });

  afterAll(async () => {
    // The first PostgreSQL app owns the database: close it last.
    for (const app of [...apps].reverse()) await app.close().catch(() => undefined);
    await ltc?.close();
  });

  it('an approved LTC withdrawal is signed, broadcast, confirms n of N and completes on chain with its txid and fee', async () => {
    const app = current();
    const payouts = app.app.get(PayoutsService);
    // Before any withdrawal is due: the network is enabled, nothing to do.
    expect(await payouts.runOnce('litecoin')).toEqual({ network: 'litecoin', created: 0, signed: 0, broadcast: 0, completed: 0 });
    // An administrator's webhook endpoint takes every customer's withdrawal events.
    const hook = await WebhookReceiver.start();
    const withdrawalEvents = ['withdrawal.created', 'withdrawal.approved', 'withdrawal.broadcast', 'withdrawal.completed', 'withdrawal.failed'];
    const endpoint = (await app.http.post('/api/admin/webhooks').set(bearer(admin)).send({ url: hook.url, events: withdrawalEvents }).expect(201)).body;
    const address = await recipient.call<string>('getnewaddress', ['', 'bech32']);
    const { customer, id } = await withdrawal(app, address, 40, 10);
    // Pending (held): no payout yet.
    expect(await payouts.runOnce('litecoin')).toMatchObject({ created: 0, signed: 0 });
    expect(await payoutOf(app, id)).toBeUndefined();
    await approve(app, id);
    expect(await payouts.runOnce('litecoin')).toEqual({ network: 'litecoin', created: 1, signed: 1, broadcast: 1, completed: 0 });
    const payout = await payoutOf(app, id);
    expect(payout).toMatchObject({ state: 'broadcast', confirmations: 0 });
    expect(payout.txid).toMatch(/^[0-9a-f]{64}$/);
    // In the node's mempool: the stored bytes.
    const mempool = await ltc.node.call<string[]>('getrawmempool');
    expect(mempool).toContain(payout.txid);
    expect(await ltc.node.call<string>('getrawtransaction', [payout.txid])).toBe(payout.rawTx);
    let [tx] = await history(app, customer.token);
    expect(tx).toMatchObject({
      _id: id,
      type: 'withdrawal',
      status: 'approved',
      payoutState: 'broadcast',
      txHash: payout.txid,
      confirmations: 0,
      requiredConfirmations: 3,
    });
    expect(Number(tx.fee)).toBeGreaterThan(0);
    expect(tx.fee).toMatch(/^0\.\d{8}$/);
    // A signed withdrawal cannot be moved back (its coins are on the chain): refused, nothing changes.
    const back = await app.http.post('/api/admin/modify-transaction').set(bearer(admin)).send({ tId: id, modification: 'pending' });
    expect(back.status).toBe(409);
    expect(back.body.error).toBe('This withdrawal is being paid on the chain, so its status can no longer change.');
    const voided = await app.http.delete(`/api/crypto/delete-trx/${id}`).set(bearer(admin));
    expect(voided.status).toBe(409);
    expect((await history(app, customer.token))[0].status).toBe('approved');

    await ltc.mine(1);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ completed: 0 });
    [tx] = await history(app, customer.token);
    expect(tx).toMatchObject({ payoutState: 'confirming', confirmations: 1, requiredConfirmations: 3 });
    await ltc.mine(CONFIRMATIONS - 1);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ completed: 1 });
    [tx] = await history(app, customer.token);
    expect(tx).toMatchObject({ status: 'approved', payoutState: 'completed', txHash: payout.txid, confirmations: 3 });
    // The approved amount less the network fee (the customer pays it) reached the address, once.
    expect(await received(address)).toEqual([{ txid: payout.txid, amount: await net(app, id, '0.12500000') }]);
    expect(tx.recipientGets).toBe(await net(app, id, '0.12500000'));
    const [notice] = (await app.http.get('/api/user/get-notifications').set(bearer(customer.token)).expect(200)).body as Array<{
      title: string;
      message: string;
    }>;
    expect(notice).toMatchObject({ title: 'Withdrawal completed' });
    expect(notice.message).toBe(`Your withdrawal of 0.125 LTC was paid on Litecoin and has 3 confirmations. Transaction hash: ${payout.txid}`);
    // Runs again: nothing more is paid.
    expect(await payouts.runOnce('litecoin')).toEqual({ network: 'litecoin', created: 0, signed: 0, broadcast: 0, completed: 0 });
    expect(await received(address)).toHaveLength(1);

    // Every step as a signed webhook, in order, each carrying the withdrawal as History shows it then.
    const mine = () => hook.receipts.filter((receipt) => receipt.event.data._id === id);
    await expect.poll(() => mine().length).toBe(4);
    expect(
      mine().map((receipt) => {
        WebhookReceiver.verify(receipt, endpoint.secret);
        return [receipt.event.type, receipt.event.data.status, receipt.event.data.payoutState ?? null];
      }),
    ).toEqual([
      ['withdrawal.created', 'pending', null],
      ['withdrawal.approved', 'approved', null],
      ['withdrawal.broadcast', 'approved', 'broadcast'],
      ['withdrawal.completed', 'approved', 'completed'],
    ]);
    expect(mine()[3].event.data.txHash).toBe(payout.txid);
    await app.http.delete(`/api/admin/webhooks/${endpoint.id}`).set(bearer(admin)).expect(200);
    await hook.close();
  });

  it('shows the network fee before the customer confirms: the fee the hot wallet would pay, and the amount less it for the recipient', async () => {
    const app = current();
    const customer = await signUp(app.http);
    const fee = (await app.http.get('/api/crypto/network-fee/litecoin').query({ coinAmount: '0.125' }).set(bearer(customer.token)).expect(200)).body as {
      estimatedFee: string;
      recipientGets: string;
    };
    expect(fee).toMatchObject({
      token: 'litecoin',
      network: 'litecoin',
      coinAmount: '0.12500000',
      targetBlocks: 6,
      feePaidBy: 'customer',
    });
    expect(fee.estimatedFee).toMatch(/^0\.\d{8}$/);
    expect(Number(fee.recipientGets)).toBeCloseTo(0.125 - Number(fee.estimatedFee), 8);
    // The node's fallback rate (0.0001 LTC/kvB) for a one-input, two-output P2WPKH payment: about 141 vbytes.
    expect(Number(fee.estimatedFee)).toBeGreaterThan(0.00001);
    expect(Number(fee.estimatedFee)).toBeLessThan(0.0001);
    // The estimate signs and locks nothing: the wallet's locked outputs are as before.
    expect(await ltc.wallet.call<unknown[]>('listlockunspent')).toEqual([]);
    const bad = await app.http.get('/api/crypto/network-fee/litecoin').query({ coinAmount: '0.123456789' }).set(bearer(customer.token)).expect(400);
    expect(bad.body.error).toBe('coinAmount must be a positive amount with at most 8 decimals.');
    await app.http.get('/api/crypto/network-fee/litecoin').set(bearer(customer.token)).expect(400);
    // A token settled by hand: the platform pays its network fee, the customer only the schedule's withdrawal fee.
    const other = await app.http.get('/api/crypto/network-fee/bitcoin').query({ coinAmount: '1' }).set(bearer(customer.token)).expect(200);
    expect(other.body).toMatchObject({ estimatedFee: '0', feePaidBy: 'platform', withdrawalFee: '0', recipientGets: '1' });
    const unknown = await app.http.get('/api/crypto/network-fee/nocoin').query({ coinAmount: '1' }).set(bearer(customer.token)).expect(400);
    expect(unknown.body.error).toBe('"nocoin" is not a supported token.');
    await app.http.get('/api/crypto/network-fee/litecoin').query({ coinAmount: '1' }).expect(401);
  });

  it('a withdrawal fee fixed on the network: the recipient gets the whole amount less that fee only, the platform books the network fee as its cost', async () => {
    const app = current();
    const payouts = app.app.get(PayoutsService);
    const setFees = (body: object) => app.http.put('/api/admin/fees/litecoin').set(bearer(admin)).send(body).expect(200);
    await setFees({ withdrawalNetworks: [{ network: 'litecoin', mode: 'fixed', fee: '0.001' }] });
    try {
      const address = await recipient.call<string>('getnewaddress', ['', 'bech32']);
      const customer = await signUp(app.http);
      const fee = (await app.http.get('/api/crypto/network-fee/litecoin').query({ coinAmount: '0.125' }).set(bearer(customer.token)).expect(200)).body;
      expect(fee).toMatchObject({ feePaidBy: 'platform', estimatedFee: '0', withdrawalFee: '0.001', recipientGets: '0.12400000' });
      const margin = async () =>
        Number(
          (
            await rows<{ sum: string }>(
              app,
              sql`select coalesce(sum(balance), 0)::text as sum from ledger_accounts where kind = 'platform' and split_part(platform_code, '#', 1) = 'network_fee_margin' and token = 'litecoin'`,
            )
          )[0].sum,
        );
      const marginBefore = await margin();
      const { id, customer: sender } = await withdrawal(app, address, 40, 10);
      await approve(app, id);
      expect(await payouts.runOnce('litecoin')).toMatchObject({ created: 1, signed: 1, broadcast: 1 });
      await ltc.mine(CONFIRMATIONS);
      expect(await payouts.runOnce('litecoin')).toMatchObject({ completed: 1 });
      const [row] = await rows<{ charged: string; fee: string; txid: string }>(
        app,
        sql`select charged_fee_base::text as charged, fee_base::text as fee, txid from payouts where transaction_id = ${id}`,
      );
      expect(row.charged).toBe('0');
      expect(BigInt(row.fee)).toBeGreaterThan(0n);
      // 0.125 LTC asked: 0.001 to the house, 0.124 held and paid whole; the network fee came out of the hot wallet.
      expect(await received(address)).toEqual([{ txid: row.txid, amount: '0.12400000' }]);
      const [tx] = await history(app, sender.token);
      // Nothing was taken out of the payment: History names no recipientGets (as for an ERC-20 token's).
      expect(tx).toMatchObject({ _id: id, coinAmount: '0.124', payoutState: 'completed' });
      expect(tx.recipientGets).toBeUndefined();
      // The whole network fee is the platform's cost (network_fee_margin pays it to network_fees).
      expect((await margin()) - marginBefore).toBeCloseTo(-Number(row.fee) / 1e8, 12);
    } finally {
      await setFees({ withdrawalNetworks: null });
    }
  });

  it('the signer refuses a forged request (an unapproved withdrawal, another address or amount) and logs why', async () => {
    const app = current();
    const signer = app.app.get(PayoutsService).signerOf('litecoin')!;
    const address = await recipient.call<string>('getnewaddress', ['', 'bech32']);
    const pending = await withdrawal(app, address, 40, 8);
    const before = (await ltc.wallet.call<unknown[]>('listtransactions', ['*', 1000])).length;
    const forged = { transactionId: pending.id, network: 'litecoin', address, amountBase: 10_000_000n };
    await expect(signer.sign(forged)).rejects.toThrow(SignerRefusal);
    await expect(signer.sign(forged)).rejects.toThrow('the withdrawal is pending, not approved');
    expect(signerLog()).toContain(`Refused to sign withdrawal ${pending.id} on litecoin: the withdrawal is pending, not approved`);
    // Approved, but the request names another address or amount than the approved ones.
    const approved = await withdrawal(app, address, 40, 8);
    app.app.get(PayoutsService).stop();
    await approve(app, approved.id);
    const attacker = await ltc.newAddress();
    await expect(signer.sign({ ...forged, transactionId: approved.id, address: attacker })).rejects.toThrow(
      'the address asked for is not the approved address',
    );
    await expect(signer.sign({ ...forged, transactionId: approved.id, amountBase: 10_000_001n })).rejects.toThrow(
      'the amount asked for (10000001) is not the approved amount (10000000)',
    );
    await expect(signer.sign({ ...forged, transactionId: '00000000-0000-4000-8000-000000000000' })).rejects.toThrow('no such withdrawal');
    // Nothing was signed or sent by the hot wallet, nothing reached the address.
    expect((await ltc.wallet.call<unknown[]>('listtransactions', ['*', 1000])).length).toBe(before);
    expect(await received(address)).toEqual([]);
    // The approved one is paid normally by the job (exactly its amount).
    expect(await app.app.get(PayoutsService).runOnce('litecoin')).toMatchObject({ created: 1, signed: 1, broadcast: 1 });
    await ltc.mine(1);
    expect((await received(address)).map((r) => r.amount)).toEqual([await net(app, approved.id, '0.10000000')]);
  });

  it('a payout the node refuses to fund fails: the held amount returns to the customer once, with the reason', async () => {
    const app = current();
    const payouts = app.app.get(PayoutsService);
    const address = await recipient.call<string>('getnewaddress', ['', 'bech32']);
    const { customer, id } = await withdrawal(app, address, 40, 8);
    await approve(app, id);
    expect((await app.http.get('/api/user/get-user-balance').set(bearer(customer.token)).expect(200)).body.balances[0].coinAmount).toBe('0.400');
    // A row the node cannot pay (a mainnet address slipped into the database): the node refuses it.
    await app.app.get<Database>(DATABASE).execute(sql`update transactions set address = 'LM2WMpR1Rp6j3Sa59cMXMs1SPzj9eXpGc1' where id = ${id}`);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ created: 1, signed: 0 });
    expect(await payoutOf(app, id)).toMatchObject({ state: 'failed', txid: null });
    const [tx] = await history(app, customer.token);
    expect(tx).toMatchObject({ _id: id, status: 'rejected', payoutState: 'failed' });
    expect((await app.http.get('/api/user/get-user-balance').set(bearer(customer.token)).expect(200)).body.balances[0].coinAmount).toBe('0.500');
    const reversals = await rows<{ n: number; reason: string }>(
      app,
      sql`select count(*)::int as n, max(reason) as reason from journal_entries where kind = 'payout_failed_reversal' and transaction_id = ${id}`,
    );
    expect(reversals[0].n).toBe(1);
    expect(reversals[0].reason).toContain('The signer refused: the node does not accept the address');
    const notices = (await app.http.get('/api/user/get-notifications').set(bearer(customer.token)).expect(200)).body as Array<{
      title: string;
      message: string;
    }>;
    expect(notices.map((n) => n.title)).toContain('Withdrawal failed');
    // Runs again: nothing more is returned or paid.
    await payouts.runOnce('litecoin');
    expect((await app.http.get('/api/user/get-user-balance').set(bearer(customer.token)).expect(200)).body.balances[0].coinAmount).toBe('0.500');
    const check = await app.http.get('/api/admin/ledger/check').set(bearer(admin)).expect(200);
    expect(check.body.mismatches).toEqual([]);
  });

  it('a process killed between signing and broadcast: a fresh app broadcasts the same bytes, exactly one payment on chain', async () => {
    let app = current();
    const address = await recipient.call<string>('getnewaddress', ['', 'bech32']);
    const { customer, id } = await withdrawal(app, address, 40, 16);
    await approve(app, id);
    // Signed and stored, then the process dies before broadcasting.
    expect(await app.app.get(PayoutsService).runOnce('litecoin', { stopAfterSigning: true })).toMatchObject({ created: 1, signed: 1, broadcast: 0 });
    const signed = await payoutOf(app, id);
    expect(signed.state).toBe('signed');
    expect(await ltc.node.call<string[]>('getrawmempool')).not.toContain(signed.txid);
    app.app.get(PayoutsService).stop();
    // The signer process dies too (SIGKILL) and starts again: what it signed is in its record, nothing in memory.
    await apps[0].signer.kill();
    await apps[0].restartSigner();
    // A fresh app: its own scheduled job (every second) finds the signed payout and broadcasts the stored bytes.
    app = await startApp();
    const deadline = Date.now() + 30_000;
    while ((await payoutOf(app, id)).state === 'signed' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    const sent = await payoutOf(app, id);
    expect(sent).toMatchObject({ txid: signed.txid, rawTx: signed.rawTx });
    expect(['broadcast', 'confirming', 'completed']).toContain(sent.state);
    expect(await ltc.node.call<string[]>('getrawmempool')).toContain(signed.txid);
    await ltc.mine(CONFIRMATIONS);
    while ((await payoutOf(app, id)).state !== 'completed' && Date.now() < deadline + 30_000) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await payoutOf(app, id)).toMatchObject({ state: 'completed', txid: signed.txid });
    // A second instance's run finds nothing to sign or send.
    expect(await app.app.get(PayoutsService).runOnce('litecoin')).toMatchObject({ created: 0, signed: 0, broadcast: 0 });
    expect(await received(address)).toEqual([{ txid: signed.txid, amount: await net(app, id, '0.20000000') }]);
    const login = await app.http.post('/api/user/login-user').send({ email: customer.email, password: customer.password }).expect(200);
    expect((await history(app, login.body.token))[0]).toMatchObject({ _id: id, payoutState: 'completed', txHash: signed.txid });
  });
  it('a repeated sign request gets the same bytes; their inputs stay locked (even after a node restart) until the job pays them', async () => {
    const app = current();
    const payouts = app.app.get(PayoutsService);
    payouts.stop();
    await payouts.runOnce('litecoin');
    const [first, second] = await Promise.all([0, 1].map(() => recipient.call<string>('getnewaddress', ['', 'bech32'])));
    // The hot wallet holds a few confirmed coins of its own (so two payments can be funded side by side).
    const own = await Promise.all([0, 1, 2, 3].map(() => ltc.wallet.call<string>('getnewaddress', ['', 'bech32'])));
    await ltc.wallet.call('sendmany', ['', Object.fromEntries(own.map((address) => [address, 1]))]);
    await ltc.mine(1);
    await payouts.runOnce('litecoin');
    const a = await withdrawal(app, first, 40, 12);
    const b = await withdrawal(app, second, 40, 12);
    await approve(app, a.id);
    await approve(app, b.id);
    // An API asks for A's payment and dies before it stores the answer; asked again, the signer answers the same bytes.
    const ask = () =>
      fetch(`${apps[0].signer.url}/networks/litecoin/payouts/sign`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${SIGNER_TOKEN}` },
        body: JSON.stringify({ transactionId: a.id, address: first, amountBase: '15000000' }),
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as { signed: { txid: string; rawTx: string } } }));
    const answered = await ask();
    expect(answered.status).toBe(200);
    expect(await ask()).toEqual(answered);
    const inputs = (await ltc.wallet.call<{ vin: Array<{ txid: string; vout: number }> }>('decoderawtransaction', [answered.body.signed.rawTx])).vin.map(
      (input) => `${input.txid}:${input.vout}`,
    );
    // The node restarts and forgets its locks; the next signature (B's) locks A's recorded inputs again first (whether
    // the job has stored A's payment by then or not: it is not sent yet).
    await ltc.stop();
    await ltc.start();
    await ltc.node.call('loadwallet', ['recipient']).catch(() => undefined);
    expect(await ltc.wallet.call<unknown[]>('listlockunspent')).toEqual([]);
    expect(await payouts.runOnce('litecoin', { stopAfterSigning: true })).toMatchObject({ created: 2, signed: 2 });
    const locked = (await ltc.wallet.call<Array<{ txid: string; vout: number }>>('listlockunspent')).map((input) => `${input.txid}:${input.vout}`);
    expect(locked).toEqual(expect.arrayContaining(inputs));
    // The job stored A's recorded payment (not a new one) and B's own; both go out, neither conflicts.
    expect(await payoutOf(app, a.id)).toMatchObject({ state: 'signed', txid: answered.body.signed.txid, rawTx: answered.body.signed.rawTx });
    expect(await payouts.runOnce('litecoin')).toMatchObject({ broadcast: 2 });
    await ltc.mine(CONFIRMATIONS);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ completed: 2 });
    expect(await received(first)).toEqual([{ txid: answered.body.signed.txid, amount: await net(app, a.id, '0.15000000') }]);
    expect(await received(second)).toEqual([{ txid: (await payoutOf(app, b.id)).txid, amount: await net(app, b.id, '0.15000000') }]);
  });

  it('the node down at broadcast: the run does not throw, the payout stays signed, and the same bytes go out once it is back', async () => {
    const app = current();
    const payouts = app.app.get(PayoutsService);
    payouts.stop();
    await payouts.runOnce('litecoin');
    const address = await recipient.call<string>('getnewaddress', ['', 'bech32']);
    const { id } = await withdrawal(app, address, 40, 12);
    await approve(app, id);
    await payouts.runOnce('litecoin', { stopAfterSigning: true });
    const signed = await payoutOf(app, id);
    expect(signed.state).toBe('signed');
    await ltc.stop();
    try {
      // The broadcast fails and is kept for the next run (the signer is not asked: nothing new to sign).
      expect(await payouts.runSafely('litecoin')).toMatchObject({ signed: 0, broadcast: 0 });
      expect(await payoutOf(app, id)).toMatchObject({ state: 'signed', txid: signed.txid, rawTx: signed.rawTx });
    } finally {
      await ltc.start();
      await ltc.node.call('loadwallet', ['recipient']).catch(() => undefined);
    }
    expect(await payouts.runOnce('litecoin')).toMatchObject({ signed: 0, broadcast: 1 });
    expect(await payoutOf(app, id)).toMatchObject({ state: 'broadcast', txid: signed.txid });
    await ltc.mine(CONFIRMATIONS);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ completed: 1 });
    expect(await received(address)).toEqual([{ txid: signed.txid, amount: await net(app, id, '0.15000000') }]);
    // The node's password never reached a log line (the API's or the signer's).
    expect(logLines.join('')).not.toContain(ltc.rpcPassword);
    expect(signerLog()).not.toContain(ltc.rpcPassword);
  });

  it('a payout whose block is orphaned goes back to waiting for a block, is mined again and completes: one payment', async () => {
    const app = current();
    const payouts = app.app.get(PayoutsService);
    payouts.stop();
    await payouts.runOnce('litecoin');
    const address = await recipient.call<string>('getnewaddress', ['', 'bech32']);
    const { id } = await withdrawal(app, address, 40, 20);
    await approve(app, id);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ signed: 1, broadcast: 1 });
    const [block] = await ltc.mine(1);
    await payouts.runOnce('litecoin');
    const sent = await payoutOf(app, id);
    expect(sent).toMatchObject({ state: 'confirming', confirmations: 1 });
    // The block is orphaned: the payment is back in the mempool (0 confirmations), then in a new block.
    await ltc.invalidate(block);
    await payouts.runOnce('litecoin');
    expect(await payoutOf(app, id)).toMatchObject({ state: 'broadcast', confirmations: 0, txid: sent.txid });
    await ltc.mine(CONFIRMATIONS, await ltc.newAddress());
    expect(await payouts.runOnce('litecoin')).toMatchObject({ completed: 1, signed: 0 });
    expect(await payoutOf(app, id)).toMatchObject({ state: 'completed', txid: sent.txid });
    expect(await received(address)).toEqual([{ txid: sent.txid, amount: await net(app, id, '0.25000000') }]);
  });

  it.skipIf(kind !== 'postgres')('two instances running the payout job at once pay each approved withdrawal once', async () => {
    const a = current();
    const b = await startApp();
    for (const app of [a, b]) app.app.get(PayoutsService).stop();
    // The network pays out by itself from its first run on (withdrawals approved before were settled by hand).
    await a.app.get(PayoutsService).runOnce('litecoin');
    const addresses = await Promise.all([0, 1, 2].map(() => recipient.call<string>('getnewaddress', ['', 'bech32'])));
    const ids: string[] = [];
    for (const address of addresses) {
      const { id } = await withdrawal(a, address, 40, 4);
      await approve(a, id);
      ids.push(id);
    }
    // Both instances run again and again while blocks come.
    for (let round = 0; round < CONFIRMATIONS + 2; round++) {
      await Promise.all([a, b, a, b].map((app) => app.app.get(PayoutsService).runOnce('litecoin')));
      await ltc.mine(1);
    }
    await Promise.all([a, b].map((app) => app.app.get(PayoutsService).runOnce('litecoin')));
    for (const [i, id] of ids.entries()) {
      const payout = await payoutOf(a, id);
      expect(payout.state).toBe('completed');
      expect(await received(addresses[i])).toEqual([{ txid: payout.txid, amount: await net(a, id, '0.05000000') }]);
    }
    const counts = await rows<{ n: number }>(
      a,
      sql`select count(*)::int as n from payouts where transaction_id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    );
    expect(counts[0].n).toBe(3);
  });

  // Last: it encrypts the hot wallet ("miner"), which cannot be undone (it is left unlocked for the rest of the file).
  it('an encrypted hot wallet left locked: the payout waits (no refund, no coin left locked), the operator is told once, and it is paid once unlocked', async () => {
    const app = current();
    const payouts = app.app.get(PayoutsService);
    payouts.stop();
    await payouts.runOnce('litecoin');
    await ltc.wallet.call('encryptwallet', ['a passphrase only the operator knows']);
    const address = await recipient.call<string>('getnewaddress', ['', 'bech32']);
    const { customer, id } = await withdrawal(app, address, 40, 12);
    await approve(app, id);
    const reason = 'the hot wallet "miner" is locked: unlock it with walletpassphrase';
    const count = async (query: ReturnType<typeof sql>) => (await rows<{ n: number }>(app, query))[0].n;
    const alerts = (action: string) => count(sql`select count(*)::int as n from audit_log where action = ${action} and target_id = 'litecoin'`);
    const lockedMetric = async () =>
      sample(parseMetrics((await app.http.get('/api/metrics').expect(200)).text), 'payouts_hot_wallet_locked', { network: 'litecoin' });
    for (let run = 0; run < 2; run++) {
      expect(await payouts.runOnce('litecoin')).toMatchObject({ created: run === 0 ? 1 : 0, signed: 0, broadcast: 0 });
      // Waiting, approved, with the reason; nothing of it locked in the node; nothing returned to the customer.
      expect(await payoutOf(app, id)).toMatchObject({ state: 'approved', txid: null, attempts: run + 1 });
      expect(await ltc.wallet.call<unknown[]>('listlockunspent')).toEqual([]);
    }
    const [customerView] = await history(app, customer.token);
    expect(customerView).toMatchObject({ _id: id, status: 'approved', payoutState: 'approved' });
    expect((customerView as Tx & { payoutReason?: string }).payoutReason).toBeUndefined();
    const [adminView] = (await app.http.get(`/api/admin/transaction?search=${id}`).set(bearer(admin)).expect(200)).body as Array<
      Tx & { payoutReason?: string }
    >;
    expect(adminView).toMatchObject({ _id: id, payoutState: 'approved', payoutReason: reason });
    expect(await count(sql`select count(*)::int as n from journal_entries where kind = 'payout_failed_reversal' and transaction_id = ${id}`)).toBe(0);
    // Told once for the episode, however many runs meet it: a line, an audit row, a mail per admin, the metric.
    expect(logLines.filter((line) => line.includes('ALERT hot wallet locked: litecoin payouts wait'))).toHaveLength(1);
    expect(await alerts('chain.hot_wallet_locked')).toBe(1);
    expect(await count(sql`select count(*)::int as n from mail_outbox where subject = 'ALERT: the litecoin hot wallet is locked'`)).toBe(1);
    expect(await lockedMetric()).toBe(1);
    expect(signerLog().split('Signed nothing on litecoin: the hot wallet')).toHaveLength(2);

    // The operator unlocks it: the next run pays it, the episode closes once.
    await ltc.wallet.call('walletpassphrase', ['a passphrase only the operator knows', 100000000]);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ signed: 1, broadcast: 1 });
    await payouts.runOnce('litecoin');
    expect(await alerts('chain.hot_wallet_unlocked')).toBe(1);
    expect(await lockedMetric()).toBe(0);
    await ltc.mine(CONFIRMATIONS);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ completed: 1 });
    const paid = await payoutOf(app, id);
    expect(await received(address)).toEqual([{ txid: paid.txid, amount: await net(app, id, '0.15000000') }]);
    // The fee ceiling is the signer's alone (litecoin's default here), and the API's log says which it signs under.
    expect(logLines.some((line) => line.includes('signs litecoin payouts from miner under a fee ceiling of 0.05'))).toBe(true);
  });
});
