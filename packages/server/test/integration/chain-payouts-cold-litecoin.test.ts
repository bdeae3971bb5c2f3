import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { addAdministrator } from '../../src/modules/admin/add-administrator';
import { ChainWatcherService } from '../../src/modules/chain/chain-watcher.service';
import { JsonRpcClient } from '../../src/chain-core/json-rpc';
import { PayoutsService } from '../../src/modules/payouts/payouts.service';
import { createColdWallet } from '../support/cold-wallet';
import { RegtestLitecoind, litecoindInstalled } from '../support/litecoind';
import { seedCoins } from '../support/market';
import { type SignedTestApp, SIGNER_DATABASE_KINDS, skipOnPglite, startTestAppWithSigner } from '../support/signer-process';
import { bearer, loginAdmin, signUp } from '../support/test-app';
import { supportTokens } from '../support/wallet';

/** BIP84 account key m/84'/1'/0' of the "abandon … about" test mnemonic (deposits). */
const TPUB = 'tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M';

interface Tx {
  _id: string;
  status: string;
  txHash?: string;
  payoutState?: string;
  fee?: string;
  confirmations?: number;
}

interface ColdPayout {
  transactionId: string;
  state: string;
  reason: string;
  prepared: boolean;
  txHash: string | null;
  coinAmount: string;
  address: string;
}

interface DecodedPsbt {
  tx: { vin: Array<{ txid: string; vout: number }>; vout: Array<{ value: number; scriptPubKey: { address?: string; addresses?: string[] } }> };
}

/**
 * The cold path on a real litecoind -regtest (issue 25, "Hot and cold"): the hot wallet ("hot") pays up to
 * CHAIN_LITECOIN_HOT_LIMIT per payout and _HOT_DAILY_LIMIT a day; above them, or above what it holds, a withdrawal waits
 * for a cold signature. The cold wallet is a second wallet of the node holding the keys ("cold", created from a key
 * the test holds); the app only sees its public side, a watch-only wallet ("cold-watch", CHAIN_LITECOIN_COLD_WALLET).
 * The test downloads the unsigned PSBT, signs it with the cold wallet (`walletprocesspsbt`) and uploads it; forged
 * uploads (another address, another amount, unsigned) are refused with a 400 and an audit row.
 */
skipOnPglite('cold payouts on a regtest litecoind');

describe.skipIf(!litecoindInstalled).each(SIGNER_DATABASE_KINDS)('cold payouts on a regtest litecoind on %s', () => {
  let ltc: RegtestLitecoind;
  let t: SignedTestApp;
  let db: Database;
  let payouts: PayoutsService;
  let hot: JsonRpcClient;
  let cold: JsonRpcClient;
  let coldWatch: JsonRpcClient;
  let recipient: JsonRpcClient;
  let admin = '';
  /** The customer of the payout above the hot limit (first test), whose payment the second test signs offline. */
  let largeCustomer = '';

  const wallet = (name: string) => new JsonRpcClient({ rpcUrl: `${ltc.rpcUrl}/wallet/${name}`, rpcUrlForLogs: name, timeoutMs: 60_000 });
  const payoutOf = async (id: string) =>
    (
      (await db.execute(
        sql`select state, txid, raw_tx as "rawTx", cold_reason as "coldReason", unsigned_tx as "unsignedTx" from payouts where transaction_id = ${id}`,
      )) as unknown as { rows: Array<{ state: string; txid: string | null; rawTx: string | null; coldReason: string | null; unsignedTx: string | null }> }
    ).rows[0];
  const history = async (token: string) => (await t.http.get('/api/user/get-transaction').set(bearer(token)).expect(200)).body as Tx[];
  const withdrawal = async (address: string, sendUsd: number) => {
    const customer = await signUp(t.http);
    await t.http
      .post(`/api/admin/update-balance/${customer._id}`)
      .set(bearer(admin))
      .send({ token: 'litecoin', amount: sendUsd + 40, type: 'yes', msg: 'test funding', coinAmount: '0', symbol: 'ltc' })
      .expect(200);
    const sent = await t.http
      .post('/api/crypto/send-crypto/litecoin')
      .set(bearer(customer.token))
      .send({ transferData: { address, amount: sendUsd, symbol: 'ltc' } })
      .expect(201);
    return { customer, id: sent.body.transaction._id as string };
  };
  const approve = (id: string) => t.http.post('/api/admin/modify-transaction').set(bearer(admin)).send({ tId: id, modification: 'approved' }).expect(200);
  const coldList = async () => (await t.http.get('/api/admin/payouts/cold').set(bearer(admin)).expect(200)).body as ColdPayout[];
  const download = (id: string) => t.http.post(`/api/admin/payouts/cold/${id}/unsigned`).set(bearer(admin));
  const upload = (id: string, signedTx: string) => t.http.post(`/api/admin/payouts/cold/${id}/signed`).set(bearer(admin)).send({ signedTx });
  const received = async (address: string) =>
    (await recipient.call<Array<{ txid: string; amount: number }>>('listunspent', [0, 9999999, [address]])).map((u) => ({
      txid: u.txid,
      amount: u.amount.toFixed(8),
    }));
  const refusals = async (id: string) =>
    (
      (await db.execute(
        sql`select after->>'reason' as reason from audit_log where action = 'chain.cold_payout_refused' and target_id = ${id} order by id`,
      )) as unknown as { rows: Array<{ reason: string }> }
    ).rows.map((r) => r.reason);
  /** A PSBT spending exactly `psbt`'s inputs with other outputs, signed by the cold wallet (what a forger could upload). */
  const forged = async (psbt: string, outputs: Array<Record<string, string>>) => {
    const decoded = await ltc.node.call<DecodedPsbt>('decodepsbt', [psbt]);
    const inputs = decoded.tx.vin.map((input) => ({ txid: input.txid, vout: input.vout, sequence: 0xfffffffd }));
    const unsigned = await ltc.node.call<string>('createpsbt', [inputs, outputs]);
    const signed = await cold.call<{ psbt: string; complete: boolean }>('walletprocesspsbt', [unsigned, true, 'ALL']);
    expect(signed.complete).toBe(true);
    return signed.psbt;
  };
  /** A fresh app (and database) paying out from "hot", cold side "cold-watch"; the test drives its runs. */
  const startApp = async (env: Record<string, string> = {}) => {
    t = await startTestAppWithSigner({
      CHAIN_LITECOIN_RPC_URL: ltc.rpcUrl,
      CHAIN_LITECOIN_XPUB: TPUB,
      CHAIN_LITECOIN_CHAIN: 'regtest',
      CHAIN_LITECOIN_CONFIRMATIONS: '2',
      CHAIN_LITECOIN_POLL_SECONDS: '1',
      CHAIN_LITECOIN_WALLET: 'hot',
      CHAIN_LITECOIN_COLD_WALLET: 'cold-watch',
      CHAIN_LITECOIN_HOT_LIMIT: '2',
      CHAIN_LITECOIN_HOT_DAILY_LIMIT: '3',
      ...env,
    });
    db = t.app.get(DATABASE);
    payouts = t.app.get(PayoutsService);
    payouts.stop();
    t.app.get(ChainWatcherService).stop();
    await seedCoins(t, { litecoin: '80' });
    await supportTokens(t, ['litecoin']);
    admin = (await loginAdmin(t.http)).token;
    await payouts.runOnce('litecoin');
  };
  const coins = (value: number) => value.toFixed(8);

  beforeAll(async () => {
    ltc = await RegtestLitecoind.start();
    for (const name of ['recipient', 'hot']) await ltc.node.call('createwallet', [name]);
    // The cold wallet: keys from a seed only the test holds; its watch-only twin gets the public descriptors only.
    ({ cold, watch: coldWatch } = await createColdWallet(ltc));
    hot = wallet('hot');
    recipient = wallet('recipient');
    // Cold storage holds 20 LTC; the hot wallet 1 LTC (less than some payouts below).
    await ltc.send(await coldWatch.call<string>('getnewaddress', ['', 'bech32']), '20');
    await ltc.send(await hot.call<string>('getnewaddress', ['', 'bech32']), '1');
    await ltc.mine(1);

    await startApp();
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await ltc?.close();
  });

  it('pays hot up to the limits; above the per-payout limit, past the daily one or above what the hot wallet holds it waits for a cold signature', async () => {
    // 0.5 LTC: within every limit and what the hot wallet holds: paid hot.
    const small = await withdrawal(await ltc.newAddress(), 40);
    await approve(small.id);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ created: 1, signed: 1, broadcast: 1 });
    expect(await payoutOf(small.id)).toMatchObject({ state: 'broadcast', coldReason: null });

    // 0.75 LTC: within the limits, but the hot wallet holds about 0.5 now.
    const short = await withdrawal(await ltc.newAddress(), 60);
    await approve(short.id);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ created: 1, signed: 0, broadcast: 0 });
    expect((await payoutOf(short.id)).coldReason).toMatch(/^more than the hot wallet holds \(the hot wallet cannot pay 0\.75000000 and its fee/);

    // 2.5 LTC: above the per-payout hot limit (2 LTC).
    const large = await withdrawal(await ltc.newAddress(), 200);
    largeCustomer = large.customer.token;
    await approve(large.id);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ created: 1, signed: 0 });
    expect(await payoutOf(large.id)).toMatchObject({ state: 'awaiting_cold_signature', coldReason: 'above the hot limit of 2 LTC per payout', txid: null });

    // The hot wallet is topped up: 1.5 LTC is paid hot (2 LTC over the day), then 1.2 LTC would pass the daily 3 LTC.
    await ltc.send(await hot.call<string>('getnewaddress', ['', 'bech32']), '5');
    await ltc.mine(1);
    const daily = await withdrawal(await ltc.newAddress(), 120);
    await approve(daily.id);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ created: 1, signed: 1 });
    const over = await withdrawal(await ltc.newAddress(), 96);
    await approve(over.id);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ created: 1, signed: 0 });
    expect((await payoutOf(over.id)).coldReason).toBe(
      'the hot wallet paid 2.00000000 LTC over the last 24 hours: this payment would pass its daily limit of 3 LTC',
    );
    // Waiting cold payouts stay where they are on later runs (the hot signer never signs them).
    expect(await payouts.runOnce('litecoin')).toMatchObject({ signed: 0 });

    // The customer still sees the spec's status (approved) and where the payment is.
    const [tx] = await history(large.customer.token);
    expect(tx).toMatchObject({ _id: large.id, status: 'approved', payoutState: 'awaiting_cold_signature' });
    expect(tx.txHash).toBeUndefined();
    // The back office lists them with their reasons, oldest first; the hot one is not there.
    const list = await coldList();
    expect(list.map((p) => p.transactionId)).toEqual([short.id, large.id, over.id]);
    expect(list[1]).toMatchObject({
      state: 'awaiting_cold_signature',
      reason: 'above the hot limit of 2 LTC per payout',
      prepared: false,
      coinAmount: '2.50000000',
      token: 'litecoin',
      symbol: 'LTC',
    });
    // Not prepared yet, a waiting withdrawal may still be rejected: its payout has nothing due then.
    await t.http.post('/api/admin/modify-transaction').set(bearer(admin)).send({ tId: over.id, modification: 'rejected' }).expect(200);
    expect((await coldList()).map((p) => p.transactionId)).toEqual([short.id, large.id]);
    const gone = await download(over.id).expect(409);
    expect(gone.body.error).toBe('Nothing is due for this withdrawal any more: the withdrawal is rejected, not approved.');
    expect(await payoutOf(over.id)).toBeUndefined();
    // The hot payments confirm and complete as usual.
    await ltc.mine(2);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ completed: 2 });
  });

  it('the cold round trip: the unsigned PSBT is downloaded, signed offline by the cold wallet, uploaded, broadcast and confirmed; forged uploads are refused', async () => {
    const [, large] = await coldList();
    const id = large.transactionId;
    const address = large.address;
    const first = await download(id).expect(200);
    expect(first.body).toMatchObject({
      transactionId: id,
      network: 'litecoin',
      format: 'psbt',
      from: 'cold-watch',
      address,
      coinAmount: '2.50000000',
      nonce: null,
    });
    expect(first.body.fileName).toBe(`withdrawal-${id}.psbt`);
    expect(first.body.fee).toMatch(/^0\.\d{8}$/);
    const psbt = first.body.unsignedTx as string;
    expect(psbt).toMatch(/^cHNidP8/);
    // Every later download is the same PSBT (its inputs stay reserved in the watch-only wallet).
    expect((await download(id).expect(200)).body.unsignedTx).toBe(psbt);
    const decoded = await ltc.node.call<DecodedPsbt>('decodepsbt', [psbt]);
    const locked = await coldWatch.call<Array<{ txid: string; vout: number }>>('listlockunspent');
    for (const input of decoded.tx.vin) expect(locked).toContainEqual({ txid: input.txid, vout: input.vout });
    // Handed out: the withdrawal can no longer be changed or voided (it may be signed and sent offline).
    const back = await t.http.post('/api/admin/modify-transaction').set(bearer(admin)).send({ tId: id, modification: 'rejected' });
    expect(back.status).toBe(409);
    expect(back.body.error).toBe('This withdrawal is being paid on the chain, so its status can no longer change.');
    // Its change goes back to the cold wallet.
    const change = decoded.tx.vout.find((o) => (o.scriptPubKey.address ?? o.scriptPubKey.addresses?.[0]) !== address)!;
    const changeAddress = change.scriptPubKey.address ?? change.scriptPubKey.addresses![0];
    expect((await coldWatch.call<{ ismine: boolean; iswatchonly: boolean }>('getaddressinfo', [changeAddress])).iswatchonly).toBe(true);

    // Forged uploads, each signed by the cold key over the same inputs: another address, another amount, unsigned.
    const attacker = await ltc.newAddress();
    const otherAddress = await forged(psbt, [{ [attacker]: '2.5' }, { [changeAddress]: coins(change.value) }]);
    const refusedAddress = await upload(id, otherAddress).expect(400);
    expect(refusedAddress.body.error).toBe(
      `The signed transaction pays 2.50000000 to ${attacker}, which is neither the approved payment (2.50000000 to ${address}) nor change to our own wallets.`,
    );
    const otherAmount = await forged(psbt, [{ [address]: '2.4' }, { [attacker]: '0.1' }, { [changeAddress]: coins(change.value) }]);
    const refusedAmount = await upload(id, otherAmount).expect(400);
    expect(refusedAmount.body.error).toBe(
      `The signed transaction pays 2.40000000 to ${address}, which is neither the approved payment (2.50000000 to ${address}) nor change to our own wallets.`,
    );
    // More to miners: the change shrinks, the fee grows past the prepared one.
    const moreFee = await forged(psbt, [{ [address]: '2.5' }, { [changeAddress]: coins(change.value - 0.5) }]);
    expect((await upload(id, moreFee).expect(400)).body.error).toMatch(/^The signed transaction pays a fee of 0\.5\d+, more than the 0\.\d{8} prepared\.$/);
    expect((await upload(id, psbt).expect(400)).body.error).toBe(
      'The PSBT is not completely signed: sign every input with the cold wallet, then upload it again.',
    );
    expect((await upload(id, 'not a transaction').expect(400)).body.error).toBe('The upload is neither a PSBT (base64 or hex) nor a raw transaction (hex).');
    expect(await refusals(id)).toHaveLength(5);
    expect((await refusals(id))[0]).toBe(refusedAddress.body.error);
    expect(await payoutOf(id)).toMatchObject({ state: 'awaiting_cold_signature', txid: null, rawTx: null });
    expect(await ltc.node.call<string[]>('getrawmempool')).toEqual([]);

    // The real signature: the cold wallet signs the downloaded PSBT (offline in production); the upload is accepted.
    const signed = await cold.call<{ psbt: string; complete: boolean }>('walletprocesspsbt', [psbt, true, 'ALL']);
    expect(signed.complete).toBe(true);
    const accepted = await upload(id, signed.psbt).expect(200);
    expect(accepted.body).toMatchObject({ transactionId: id, state: 'signed', prepared: true });
    const txid = accepted.body.txHash as string;
    expect(txid).toMatch(/^[0-9a-f]{64}$/);
    // Stored before anything is broadcast.
    const stored = await payoutOf(id);
    expect(stored).toMatchObject({ state: 'signed', txid });
    expect(await ltc.node.call<string[]>('getrawmempool')).not.toContain(txid);
    expect((await upload(id, signed.psbt).expect(409)).body.error).toBe('This withdrawal is not waiting for a cold signature: its payment is signed.');
    const audit = (await db.execute(sql`select after from audit_log where action = 'chain.cold_payout_signed' and target_id = ${id}`)) as unknown as {
      rows: Array<{ after: { txid: string } }>;
    };
    expect(audit.rows.map((r) => r.after.txid)).toEqual([txid]);

    // Then the normal lifecycle: broadcast (the stored bytes), confirming, completed.
    expect(await payouts.runOnce('litecoin')).toMatchObject({ broadcast: 1 });
    expect(await ltc.node.call<string>('getrawtransaction', [txid])).toBe(stored.rawTx);
    await ltc.mine(1);
    await payouts.runOnce('litecoin');
    expect(await payoutOf(id)).toMatchObject({ state: 'confirming' });
    await ltc.mine(1);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ completed: 1 });
    expect(await payoutOf(id)).toMatchObject({ state: 'completed', txid });
    // Exactly the approved amount reached the address, once, from the cold wallet.
    expect(await ltc.wallet.call<Array<{ txid: string; amount: number }>>('listunspent', [0, 9999999, [address]])).toEqual([
      expect.objectContaining({ txid, amount: 2.5 }),
    ]);
    const [tx] = await history(largeCustomer);
    expect(tx).toMatchObject({ _id: id, status: 'approved', payoutState: 'completed', txHash: txid, confirmations: 2 });
    expect(Number(tx.fee)).toBeGreaterThan(0);
    // Completed: off the cold list.
    expect((await coldList()).map((p) => p.transactionId)).not.toContain(id);
  });

  it('four-eyes stays first: a withdrawal above the approval threshold gets no payout, nothing to download, until a second admin approves', async () => {
    // An app of its own with four-eyes on (the rolling sums of the tests above would hold their every action).
    await t.close();
    await startApp({ APPROVAL_THRESHOLD_USD: '1000' });
    const a = admin;
    await addAdministrator(db, { name: 'Checker', email: 'cold-checker@test.local', password: 'checker-password-1' });
    const b = (await t.http.post('/api/admin/login-admin').send({ email: 'cold-checker@test.local', password: 'checker-password-1' }).expect(200)).body
      .token as string;
    const customer = await signUp(t.http);
    const funding = await t.http
      .post(`/api/admin/update-balance/${customer._id}`)
      .set(bearer(a))
      .send({ token: 'litecoin', amount: 1300, type: 'yes', msg: 'test funding' })
      .expect(202);
    await t.http.post(`/api/admin/approvals/${funding.body.approvalId}/approve`).set(bearer(b)).expect(200);
    const address = await recipient.call<string>('getnewaddress', ['', 'bech32']);
    const sent = await t.http
      .post('/api/crypto/send-crypto/litecoin')
      .set(bearer(customer.token))
      .send({ transferData: { address, amount: 1200 } })
      .expect(201);
    const id = sent.body.transaction._id as string;
    const settle = await t.http.post('/api/admin/modify-transaction').set(bearer(a)).send({ tId: id, modification: 'approved' }).expect(202);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ created: 0 });
    expect(await payoutOf(id)).toBeUndefined();
    expect((await download(id).expect(404)).body.error).toBe('This withdrawal has no payment on the chain (yet).');
    await t.http.post(`/api/admin/approvals/${settle.body.approvalId}/approve`).set(bearer(b)).expect(200);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ created: 1, signed: 0 });
    expect(await payoutOf(id)).toMatchObject({ state: 'awaiting_cold_signature', coldReason: 'above the hot limit of 2 LTC per payout' });
    expect((await download(id).expect(200)).body).toMatchObject({ format: 'psbt', coinAmount: '15.00000000' });
    expect(await received(address)).toEqual([]);
  });
});
