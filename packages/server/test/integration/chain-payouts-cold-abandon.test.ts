import { sql } from 'drizzle-orm';
import { type Hex, parseTransaction, type TransactionSerializableEIP1559 } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { ChainWatcherService } from '../../src/modules/chain/chain-watcher.service';
import { JsonRpcClient } from '../../src/chain-core/json-rpc';
import { PayoutsService } from '../../src/modules/payouts/payouts.service';
import type { Anvil } from '../support/anvil';
import { createColdWallet } from '../support/cold-wallet';
import { type EvmPayoutSetup, startEvmPayouts } from '../support/evm-payouts';
import { RegtestLitecoind, litecoindInstalled } from '../support/litecoind';
import { seedCoins } from '../support/market';
import { type SignedTestApp, SIGNER_DATABASE_KINDS, skipOnPglite, startTestAppWithSigner } from '../support/signer-process';
import { bearer, loginAdmin, signUp, type TestApp } from '../support/test-app';
import { supportTokens } from '../support/wallet';

/** BIP84 account key m/84'/1'/0' of the "abandon … about" test mnemonic (litecoin deposits). */
const TPUB = 'tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M';
const ETH = 10n ** 18n;

interface ColdPayout {
  transactionId: string;
  state: string;
  prepared: boolean;
  fee: string | null;
}

interface DecodedPsbt {
  tx: { vin: Array<{ txid: string; vout: number }> };
}

/** The texts and rows every abandoning test reads: the customer's balance, notices and mail, the audit trail. */
function abandonHelpers(get: () => { t: TestApp; db: Database; admin: string }) {
  const rows = async <T>(query: ReturnType<typeof sql>) => ((await get().db.execute(query)) as unknown as { rows: T[] }).rows;
  return {
    rows,
    coldList: async () => (await get().t.http.get('/api/admin/payouts/cold').set(bearer(get().admin)).expect(200)).body as ColdPayout[],
    download: (id: string) => get().t.http.post(`/api/admin/payouts/cold/${id}/unsigned`).set(bearer(get().admin)),
    upload: (id: string, signedTx: string) => get().t.http.post(`/api/admin/payouts/cold/${id}/signed`).set(bearer(get().admin)).send({ signedTx }),
    discard: (id: string) => get().t.http.post(`/api/admin/payouts/cold/${id}/discard`).set(bearer(get().admin)),
    fail: (id: string, reason?: string) =>
      get()
        .t.http.post(`/api/admin/payouts/cold/${id}/fail`)
        .set(bearer(get().admin))
        .send(reason === undefined ? {} : { reason }),
    balance: async (token: string) =>
      ((await get().t.http.get('/api/user/get-user-balance').set(bearer(token)).expect(200)).body.balances as Array<{ coinAmount: string }>)[0].coinAmount,
    payout: async (id: string) =>
      (
        await rows<{ state: string; unsignedTx: string | null; lastError: string | null }>(
          sql`select state, unsigned_tx as "unsignedTx", last_error as "lastError" from payouts where transaction_id = ${id}`,
        )
      )[0],
    audit: (id: string, action: string) =>
      rows<{ actorRole: string; after: Record<string, unknown> }>(
        sql`select actor_role as "actorRole", after from audit_log where action = ${action} and target_id = ${id} order by id`,
      ),
    mails: (to: string) => rows<{ subject: string; text: string }>(sql`select subject, text from mail_outbox where "to" = ${to} order by id`),
  };
}

/**
 * Abandoning a cold payout (issue 25, "Hot and cold"), on a real litecoind -regtest: an admin discards the prepared
 * unsigned PSBT (its inputs unlocked once none is spent; the payout waits for a new one) or fails the withdrawal instead
 * (the held amount back to the customer by cp_fail_payout with the admin's reason, notice, mail, audit) — only while
 * nothing signed was uploaded, and never when the prepared PSBT's coins are spent on the chain (it may have been
 * signed and sent offline): 409 with the reason. The hot wallet is the signer process's: PostgreSQL only.
 */
skipOnPglite('abandoning a cold LTC payout');

describe.skipIf(!litecoindInstalled).each(SIGNER_DATABASE_KINDS)('abandoning a cold LTC payout on %s', () => {
  let ltc: RegtestLitecoind;
  let t: SignedTestApp;
  let db: Database;
  let payouts: PayoutsService;
  let cold: JsonRpcClient;
  let coldWatch: JsonRpcClient;
  let admin = '';
  const h = abandonHelpers(() => ({ t, db, admin }));

  beforeAll(async () => {
    ltc = await RegtestLitecoind.start();
    await ltc.node.call('createwallet', ['hot']);
    ({ cold, watch: coldWatch } = await createColdWallet(ltc));
    // Cold storage holds two coins of 20 LTC (one stays locked by a payout signed below and not broadcast).
    for (let i = 0; i < 2; i++) await ltc.send(await coldWatch.call<string>('getnewaddress', ['', 'bech32']), '20');
    const hot = new JsonRpcClient({ rpcUrl: `${ltc.rpcUrl}/wallet/hot`, rpcUrlForLogs: 'hot', timeoutMs: 60_000 });
    await ltc.send(await hot.call<string>('getnewaddress', ['', 'bech32']), '1');
    await ltc.mine(1);
    t = await startTestAppWithSigner({
      CHAIN_LITECOIN_RPC_URL: ltc.rpcUrl,
      CHAIN_LITECOIN_XPUB: TPUB,
      CHAIN_LITECOIN_CHAIN: 'regtest',
      CHAIN_LITECOIN_CONFIRMATIONS: '2',
      CHAIN_LITECOIN_WALLET: 'hot',
      CHAIN_LITECOIN_COLD_WALLET: 'cold-watch',
      CHAIN_LITECOIN_HOT_LIMIT: '2',
    });
    db = t.app.get(DATABASE);
    payouts = t.app.get(PayoutsService);
    payouts.stop();
    t.app.get(ChainWatcherService).stop();
    await seedCoins(t, { litecoin: '80' });
    await supportTokens(t, ['litecoin']);
    admin = (await loginAdmin(t.http)).token;
    await payouts.runOnce('litecoin');
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await ltc?.close();
  });

  /** A customer holding $240 of LTC sends $200 (2.5 LTC, above the hot limit), approved: it waits for a cold signature. */
  const coldWithdrawal = async () => {
    const customer = await signUp(t.http);
    await t.http
      .post(`/api/admin/update-balance/${customer._id}`)
      .set(bearer(admin))
      .send({ token: 'litecoin', amount: 240, type: 'yes', msg: 'test funding' })
      .expect(200);
    const sent = await t.http
      .post('/api/crypto/send-crypto/litecoin')
      .set(bearer(customer.token))
      .send({ transferData: { address: await ltc.newAddress(), amount: 200, symbol: 'ltc' } })
      .expect(201);
    const id = sent.body.transaction._id as string;
    await t.http.post('/api/admin/modify-transaction').set(bearer(admin)).send({ tId: id, modification: 'approved' }).expect(200);
    await payouts.runOnce('litecoin');
    expect(await h.payout(id)).toMatchObject({ state: 'awaiting_cold_signature' });
    return { customer, id };
  };
  const inputsOf = async (psbt: string) => (await ltc.node.call<DecodedPsbt>('decodepsbt', [psbt])).tx.vin.map((i) => ({ txid: i.txid, vout: i.vout }));
  const locked = () => coldWatch.call<Array<{ txid: string; vout: number }>>('listlockunspent');

  it('the prepared PSBT is discarded: its inputs unlocked, the payout waits for a new one; then the withdrawal is failed and the amount returned', async () => {
    const { customer, id } = await coldWithdrawal();
    expect(await h.balance(customer.token)).toBe('0.500');
    // Nothing prepared yet: nothing to discard.
    expect((await h.discard(id).expect(409)).body.error).toBe('This withdrawal has no prepared unsigned transaction to discard.');
    const first = (await h.download(id).expect(200)).body.unsignedTx as string;
    const inputs = await inputsOf(first);
    for (const input of inputs) expect(await locked()).toContainEqual(input);

    const discarded = await h.discard(id).expect(200);
    expect(discarded.body).toMatchObject({ transactionId: id, state: 'awaiting_cold_signature', prepared: false, fee: null });
    expect(await h.payout(id)).toMatchObject({ state: 'awaiting_cold_signature', unsignedTx: null });
    for (const input of inputs) expect(await locked()).not.toContainEqual(input);
    const [audit] = await h.audit(id, 'chain.cold_payout_discarded');
    expect(audit).toMatchObject({ actorRole: 'admin', after: { network: 'litecoin', state: 'awaiting_cold_signature' } });
    // Still listed, waiting; a new download prepares a new PSBT, its inputs locked again.
    expect((await h.coldList()).find((p) => p.transactionId === id)).toMatchObject({ state: 'awaiting_cold_signature', prepared: false });
    const second = (await h.download(id).expect(200)).body.unsignedTx as string;
    for (const input of await inputsOf(second)) expect(await locked()).toContainEqual(input);
    // Discarded, the customer's money did not move.
    expect(await h.balance(customer.token)).toBe('0.500');

    // A reason is required to fail it.
    expect((await h.fail(id).expect(400)).body.error).toBe('A reason is required.');
    expect((await h.fail(id, 'x'.repeat(501)).expect(400)).body.error).toBe('The reason must be at most 500 characters.');
    const reason = 'The cold wallet is being moved; please request the withdrawal again next week.';
    const failed = await h.fail(id, reason).expect(200);
    expect(failed.body).toMatchObject({ transactionId: id, state: 'failed', lastError: reason });
    for (const input of await inputsOf(second)) expect(await locked()).not.toContainEqual(input);
    // The held 2.5 LTC back, once; the withdrawal rejected; the customer told, by notice and mail; audited.
    expect(await h.balance(customer.token)).toBe('3.000');
    const [tx] = (await t.http.get('/api/user/get-transaction').set(bearer(customer.token)).expect(200)).body as Array<{
      _id: string;
      status: string;
      payoutState: string;
    }>;
    expect(tx).toMatchObject({ _id: id, status: 'rejected', payoutState: 'failed' });
    const reversals = await h.rows<{ n: number; reason: string }>(
      sql`select count(*)::int as n, max(reason) as reason from journal_entries where kind = 'payout_failed_reversal' and transaction_id = ${id}`,
    );
    expect(reversals).toEqual([{ n: 1, reason: `payout failed: ${reason}` }]);
    const notices = (await t.http.get('/api/user/get-notifications').set(bearer(customer.token)).expect(200)).body as Array<{ title: string; message: string }>;
    expect(notices[0]).toMatchObject({
      title: 'Withdrawal failed',
      message: `Your withdrawal could not be paid on the chain, so the amount was returned to your balance. Reason: ${reason}`,
    });
    expect((await h.mails(customer.email)).filter((m) => m.subject === 'Withdrawal failed').map((m) => m.text)).toEqual([
      expect.stringContaining(`Reason: ${reason}`),
    ]);
    expect(await h.audit(id, 'chain.cold_payout_failed')).toEqual([{ actorRole: 'admin', after: { status: 'rejected', reason } }]);
    // Once: failed, it is off the cold list, and neither action applies any more.
    expect((await h.coldList()).map((p) => p.transactionId)).not.toContain(id);
    expect((await h.fail(id, reason).expect(409)).body.error).toBe('This withdrawal is not waiting for a cold signature: its payment is failed.');
    expect((await h.discard(id).expect(409)).body.error).toBe('This withdrawal is not waiting for a cold signature: its payment is failed.');
    expect(await h.balance(customer.token)).toBe('3.000');
    const check = await t.http.get('/api/admin/ledger/check').set(bearer(admin)).expect(200);
    expect(check.body.mismatches).toEqual([]);
  });

  it('never once something signed exists: after a signed upload (409), nor when the prepared PSBT was signed and sent offline (409)', async () => {
    // Signed and uploaded: it is the app's to broadcast; neither discard nor fail.
    const uploaded = await coldWithdrawal();
    const psbt = (await h.download(uploaded.id).expect(200)).body.unsignedTx as string;
    const signed = await cold.call<{ psbt: string; complete: boolean }>('walletprocesspsbt', [psbt, true, 'ALL']);
    await h.upload(uploaded.id, signed.psbt).expect(200);
    expect((await h.discard(uploaded.id).expect(409)).body.error).toBe('This withdrawal is not waiting for a cold signature: its payment is signed.');
    expect((await h.fail(uploaded.id, 'changed my mind').expect(409)).body.error).toBe(
      'This withdrawal is not waiting for a cold signature: its payment is signed.',
    );
    expect(await h.balance(uploaded.customer.token)).toBe('0.500');

    // Signed offline and broadcast outside the app: its coins are spent, so it may be paid; nothing is given back.
    const offline = await coldWithdrawal();
    const prepared = (await h.download(offline.id).expect(200)).body.unsignedTx as string;
    const signedOffline = await cold.call<{ psbt: string }>('walletprocesspsbt', [prepared, true, 'ALL']);
    const { hex } = await ltc.node.call<{ hex: string }>('finalizepsbt', [signedOffline.psbt, true]);
    await ltc.node.call('sendrawtransaction', [hex]);
    const spent =
      /^The coin [0-9a-f]{64}:\d+ of the prepared transaction is spent on the chain: it may have been signed and broadcast offline\. Check the cold wallet first\.$/;
    expect((await h.discard(offline.id).expect(409)).body.error).toMatch(spent);
    expect((await h.fail(offline.id, 'too late').expect(409)).body.error).toMatch(spent);
    expect(await h.payout(offline.id)).toMatchObject({ state: 'awaiting_cold_signature', unsignedTx: prepared });
    expect(await h.balance(offline.customer.token)).toBe('0.500');
    expect(await h.audit(offline.id, 'chain.cold_payout_failed')).toEqual([]);
  });
});

/**
 * Abandoning a cold ETH payout on a real anvil: the prepared transaction's nonce is given back only when it is the last
 * one reserved for the cold address and the node has not seen it used, so the next prepared transaction takes it and no
 * nonce gap holds later payments; otherwise 409 with the reason. The hot key is the signer process's: PostgreSQL only.
 */
skipOnPglite('abandoning a cold ETH payout');

describe.each(SIGNER_DATABASE_KINDS)('abandoning a cold ETH payout on %s', () => {
  let setup: EvmPayoutSetup;
  let anvil: Anvil;
  let t: EvmPayoutSetup['t'];
  let db: Database;
  let payouts: PayoutsService;
  let admin = '';
  const coldAccount = privateKeyToAccount(generatePrivateKey());
  const h = abandonHelpers(() => ({ t, db, admin }));

  beforeAll(async () => {
    setup = await startEvmPayouts({
      env: { CHAIN_ETHEREUM_COLD_ADDRESS: coldAccount.address, CHAIN_ETHEREUM_HOT_LIMIT: '1' },
      // The cold address holds 10 ETH.
      beforeApp: (chain) => chain.sendEth(coldAccount.address, 10n * ETH),
    });
    ({ anvil, t, db, payouts, admin } = setup);
  });

  afterAll(async () => {
    await setup?.close();
  });

  const randomAddress = () => `0x${[...Array(40)].map(() => Math.floor(Math.random() * 16).toString(16)).join('')}`;
  /** $5,000 (2 ETH, above the hot limit of 1 ETH), approved: it waits for a cold signature. */
  const coldWithdrawal = async () => {
    const customer = await signUp(t.http);
    await t.http
      .post(`/api/admin/update-balance/${customer._id}`)
      .set(bearer(admin))
      .send({ token: 'ethereum', amount: 5100, type: 'yes', msg: 'test funding' })
      .expect(200);
    const sent = await t.http
      .post('/api/crypto/send-crypto/ethereum')
      .set(bearer(customer.token))
      .send({ transferData: { address: randomAddress(), amount: 5000, symbol: 'eth' } })
      .expect(201);
    const id = sent.body.transaction._id as string;
    await t.http.post('/api/admin/modify-transaction').set(bearer(admin)).send({ tId: id, modification: 'approved' }).expect(200);
    await payouts.runOnce('ethereum');
    expect(await h.payout(id)).toMatchObject({ state: 'awaiting_cold_signature' });
    return { customer, id };
  };
  const nonceOf = async (id: string) => ((await h.download(id).expect(200)).body as { nonce: number }).nonce;

  it('the nonce goes back only when it is the last one reserved and unused on the chain; the next transaction takes it', async () => {
    const a = await coldWithdrawal();
    const b = await coldWithdrawal();
    const nonceA = await nonceOf(a.id);
    expect(await nonceOf(b.id)).toBe(nonceA + 1);
    // A's nonce is not the last one: giving it back would leave a gap that holds B (and every later payment).
    const gap = `A later transaction from the cold address was prepared after this one (nonce ${nonceA}): abandon that one first, or every later payment from the cold address would wait for nonce ${nonceA}.`;
    expect((await h.discard(a.id).expect(409)).body.error).toBe(gap);
    expect((await h.fail(a.id, 'no').expect(409)).body.error).toBe(gap);
    expect(await h.payout(a.id)).toMatchObject({ state: 'awaiting_cold_signature' });

    // B's is: discarded, prepared again with the same nonce.
    await h.discard(b.id).expect(200);
    expect(await nonceOf(b.id)).toBe(nonceA + 1);
    // Failed: its nonce goes back, its 2 ETH back to the customer.
    expect(await h.balance(b.customer.token)).toBe('0.040000');
    const failed = await h.fail(b.id, 'Address flagged by compliance.').expect(200);
    expect(failed.body).toMatchObject({ state: 'failed' });
    expect(await h.balance(b.customer.token)).toBe('2.040000');
    // Now A's nonce is the last one: it can go, and the next preparation takes it again.
    await h.discard(a.id).expect(200);
    expect(await nonceOf(a.id)).toBe(nonceA);

    // Signed offline and sent outside the app: the node has seen the nonce used; nothing is given back.
    const unsigned = (await h.download(a.id).expect(200)).body.unsignedTx as Hex;
    const signed = await coldAccount.signTransaction(parseTransaction(unsigned) as TransactionSerializableEIP1559);
    await anvil.rpc.call('eth_sendRawTransaction', [signed]);
    const used = `The cold address ${coldAccount.address} has already sent a transaction with nonce ${nonceA}: the prepared one may have been signed and broadcast offline. Check the chain first.`;
    expect((await h.discard(a.id).expect(409)).body.error).toBe(used);
    expect((await h.fail(a.id, 'too late').expect(409)).body.error).toBe(used);
    expect(await h.balance(a.customer.token)).toBe('0.040000');
    // It can still be completed the normal way: the signed transaction uploaded.
    expect((await h.upload(a.id, signed).expect(200)).body).toMatchObject({ state: 'signed' });
  });
});
