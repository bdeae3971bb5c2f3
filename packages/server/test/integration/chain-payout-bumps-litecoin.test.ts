import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { ChainWatcherService } from '../../src/modules/chain/chain-watcher.service';
import { ChainRpcError, JsonRpcClient } from '../../src/chain-core/json-rpc';
import { PayoutsService } from '../../src/modules/payouts/payouts.service';
import { RegtestLitecoind, litecoindInstalled } from '../support/litecoind';
import { seedCoins } from '../support/market';
import { type SignedTestApp, SIGNER_DATABASE_KINDS, SIGNER_TOKEN, skipOnPglite, startTestAppWithSigner } from '../support/signer-process';
import { bearer, loginAdmin, signUp } from '../support/test-app';
import { supportTokens } from '../support/wallet';

/** BIP84 account key m/84'/1'/0' of the "abandon … about" test mnemonic (deposits; payouts come from the node's wallet). */
const TPUB = 'tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M';
const CONFIRMATIONS = 3;
/** A payout unmined for a minute is stuck here; the tests age a payout past that instead of waiting (no race on a busy machine). */
const STUCK_MINUTES = '1';
/** The fee ceiling: 4,000 litoshis, about 28 litoshis per vbyte for a one-input payout. */
const MAX_FEE = '0.00004';
const MAX_FEE_BASE = 4000n;

interface Payout {
  state: string;
  txid: string;
  rawTx: string;
  fee: string;
  charged: string;
  bumps: number;
  lastError: string | null;
}

interface Decoded {
  txid: string;
  vin: Array<{ txid: string; vout: number }>;
  vout: Array<{ value: number; scriptPubKey: { address?: string; addresses?: string[] } }>;
}

/**
 * Stuck payouts bumped on a real litecoind -regtest (started with -mempoolreplacement=1: Litecoin Core relays no
 * replacement by default): the hot wallet pays at its minimum fee rate, nothing is mined, and after
 * CHAIN_LITECOIN_STUCK_MINUTES the payout job replaces the payment (psbtbumpfee: the same inputs, the same recipient
 * output, a higher fee from the change), storing the replacement before it is broadcast; whichever version is mined
 * completes the payout once, and its fee is booked.
 */
skipOnPglite('stuck LTC payouts bumped on a regtest litecoind');

describe.skipIf(!litecoindInstalled).each(SIGNER_DATABASE_KINDS)('stuck LTC payouts bumped on a regtest litecoind on %s', () => {
  let ltc: RegtestLitecoind;
  let recipient: JsonRpcClient;
  let t: SignedTestApp;
  let db: Database;
  let payouts: PayoutsService;
  let admin = '';

  const rows = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const payoutOf = async (transactionId: string) =>
    (
      await rows<Payout>(sql`
        select state, txid, raw_tx as "rawTx", fee_base::text as fee, charged_fee_base::text as charged, bumps, last_error as "lastError"
        from payouts where transaction_id = ${transactionId}`)
    )[0];
  const replacedOf = async (transactionId: string) =>
    rows<{ txid: string; rawTx: string; fee: string; reason: string }>(sql`
      select r.txid, r.raw_tx as "rawTx", r.fee_base::text as fee, r.reason from payout_replaced_txs r
      join payouts p on p.id = r.payout_id where p.transaction_id = ${transactionId} order by r.replaced_at, r.id`);
  const feeLines = async (transactionId: string) =>
    rows<{ code: string; amount: string }>(sql`
      select split_part(a.platform_code, '#', 1) as code, l.amount::text as amount from journal_entries e
      join journal_lines l on l.entry_id = e.id join ledger_accounts a on a.id = l.account_id
      where e.kind = 'payout_network_fee' and e.transaction_id = ${transactionId} order by 1`);
  const decode = (raw: string) => ltc.node.call<Decoded>('decoderawtransaction', [raw]);
  const paidTo = (decoded: Decoded, address: string) =>
    decoded.vout.filter((out) => (out.scriptPubKey.address ?? out.scriptPubKey.addresses?.[0]) === address).map((out) => out.value.toFixed(8));
  const received = async (address: string) =>
    (await recipient.call<Array<{ txid: string; amount: number }>>('listunspent', [0, 9999999, [address]])).map((u) => ({
      txid: u.txid,
      amount: u.amount.toFixed(8),
    }));
  const coins = (base: bigint) => `${base / 100_000_000n}.${(base % 100_000_000n).toString().padStart(8, '0')}`;
  /** The payout was broadcast (or last bumped) more than the stuck minutes ago. */
  const stuck = (transactionId: string) =>
    db.execute(
      sql`update payouts set broadcast_at = broadcast_at - interval '2 minutes', bumped_at = bumped_at - interval '2 minutes' where transaction_id = ${transactionId}`,
    );
  /** An approved withdrawal of `sendUsd` USD of LTC (80 USD per LTC) to a new address of the recipient wallet, signed and broadcast. */
  const broadcastWithdrawal = async (sendUsd: number) => {
    const address = await recipient.call<string>('getnewaddress', ['', 'bech32']);
    const customer = await signUp(t.http);
    await t.http
      .post(`/api/admin/update-balance/${customer._id}`)
      .set(bearer(admin))
      .send({ token: 'litecoin', amount: 40, type: 'yes', msg: 'test funding', coinAmount: '0', symbol: 'ltc' })
      .expect(200);
    const sent = await t.http
      .post('/api/crypto/send-crypto/litecoin')
      .set(bearer(customer.token))
      .send({ transferData: { address, amount: sendUsd, symbol: 'ltc', coinAmount: String(sendUsd / 80) } })
      .expect(201);
    const id = sent.body.transaction._id as string;
    await t.http.post('/api/admin/modify-transaction').set(bearer(admin)).send({ tId: id, modification: 'approved' }).expect(200);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ created: 1, signed: 1, broadcast: 1, completed: 0 });
    return { customer, id, address, first: await payoutOf(id) };
  };
  const ledgerClean = async () => {
    const check = await t.http.get('/api/admin/ledger/check').set(bearer(admin)).expect(200);
    expect(check.body).toMatchObject({ ok: true, mismatches: [], negativeCustomerBalances: 0 });
  };

  beforeAll(async () => {
    ltc = await RegtestLitecoind.start({ args: ['-mempoolreplacement=1'] });
    await ltc.node.call('createwallet', ['recipient']);
    recipient = new JsonRpcClient({ rpcUrl: `${ltc.rpcUrl}/wallet/recipient`, rpcUrlForLogs: 'recipient', timeoutMs: 60_000 });
    t = await startTestAppWithSigner({
      CHAIN_LITECOIN_RPC_URL: ltc.rpcUrl,
      CHAIN_LITECOIN_XPUB: TPUB,
      CHAIN_LITECOIN_CHAIN: 'regtest',
      CHAIN_LITECOIN_CONFIRMATIONS: String(CONFIRMATIONS),
      CHAIN_LITECOIN_POLL_SECONDS: '1',
      CHAIN_LITECOIN_WALLET: 'miner',
      CHAIN_LITECOIN_STUCK_MINUTES: STUCK_MINUTES,
      CHAIN_LITECOIN_MAX_FEE: MAX_FEE,
    });
    db = t.app.get(DATABASE);
    payouts = t.app.get(PayoutsService);
    // The test drives the runs itself (the scheduled ones would race its assertions).
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

  it('an unmined payout is replaced by RBF after the stuck minutes (same inputs and recipient output, stored before it is sent); it completes once', async () => {
    const { customer, id, address, first } = await broadcastWithdrawal(10);
    expect(first).toMatchObject({ state: 'broadcast', bumps: 0, fee: first.charged });
    // The wallet's lowest rate: 10 litoshis per vbyte.
    expect(BigInt(first.fee)).toBeLessThan(2000n);
    expect(await ltc.node.call<string[]>('getrawmempool')).toEqual([first.txid]);
    // Not stuck yet: nothing happens.
    expect((await payouts.runOnce('litecoin')).bumped).toBeUndefined();

    await stuck(id);
    // The replacement's bytes are committed before the node sees them.
    const signer = payouts.signerOf('litecoin')!;
    const sentWhileStored: boolean[] = [];
    const broadcast = signer.broadcast.bind(signer);
    const spy = vi.spyOn(signer, 'broadcast').mockImplementation(async (rawTx: string) => {
      sentWhileStored.push((await payoutOf(id)).rawTx === rawTx);
      return broadcast(rawTx);
    });
    try {
      expect(await payouts.runOnce('litecoin')).toMatchObject({ bumped: 1, completed: 0 });
    } finally {
      spy.mockRestore();
    }
    expect(sentWhileStored).toEqual([true]);
    const bumped = await payoutOf(id);
    expect(bumped).toMatchObject({ state: 'broadcast', bumps: 1, charged: first.charged, lastError: null });
    expect(bumped.txid).not.toBe(first.txid);
    expect(BigInt(bumped.fee)).toBeGreaterThan(BigInt(first.fee));
    expect(BigInt(bumped.fee)).toBeLessThanOrEqual(MAX_FEE_BASE);
    expect(await replacedOf(id)).toEqual([{ txid: first.txid, rawTx: first.rawTx, fee: first.fee, reason: 'replaced' }]);
    // RBF: the same inputs exactly, the same recipient output; the raise came out of the change.
    const [before, after] = [await decode(first.rawTx), await decode(bumped.rawTx)];
    expect(after.vin.map((input) => `${input.txid}:${input.vout}`).sort()).toEqual(before.vin.map((input) => `${input.txid}:${input.vout}`).sort());
    expect(paidTo(after, address)).toEqual(paidTo(before, address));
    expect(paidTo(after, address)).toEqual([coins(12_500_000n - BigInt(first.charged))]);
    expect(await ltc.node.call<string[]>('getrawmempool')).toEqual([bumped.txid]);
    const [tx] = (await t.http.get('/api/user/get-transaction').set(bearer(customer.token)).expect(200)).body as Array<Record<string, unknown>>;
    expect(tx).toMatchObject({ _id: id, payoutState: 'broadcast', txHash: bumped.txid });

    await ltc.mine(CONFIRMATIONS);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ completed: 1 });
    const done = await payoutOf(id);
    expect(done).toMatchObject({ state: 'completed', txid: bumped.txid, fee: bumped.fee });
    expect(await received(address)).toEqual([{ txid: bumped.txid, amount: coins(12_500_000n - BigInt(first.charged)) }]);
    // The customer paid the first fee out of the amount; the platform paid the raise.
    const charged = BigInt(first.charged);
    const paid = BigInt(bumped.fee);
    expect(await feeLines(id)).toEqual([
      { code: 'network_fee_margin', amount: `-${coins(paid - charged)}0000000000` },
      { code: 'network_fees', amount: `${coins(paid)}0000000000` },
      { code: 'withdrawals_settled', amount: `-${coins(charged)}0000000000` },
    ]);
    const [completed] = (await t.http.get('/api/user/get-transaction').set(bearer(customer.token)).expect(200)).body as Array<Record<string, unknown>>;
    expect(completed).toMatchObject({ payoutState: 'completed', txHash: bumped.txid, fee: coins(paid), recipientGets: coins(12_500_000n - charged) });
    expect(await payouts.runOnce('litecoin')).toMatchObject({ created: 0, signed: 0, broadcast: 0, completed: 0 });
    expect(await feeLines(id)).toHaveLength(3);
    await ledgerClean();
  });

  it('bumped again each stuck period, the fee rises up to the ceiling and never past it; then the payout waits, saying why', async () => {
    const { id, first } = await broadcastWithdrawal(8);
    const fees = [BigInt(first.fee)];
    for (let round = 0; round < 6; round++) {
      await stuck(id);
      const run = await payouts.runOnce('litecoin');
      const now = await payoutOf(id);
      if (!run.bumped) {
        expect(now.lastError).toContain(`Not bumped: a higher fee would pass the ceiling of ${MAX_FEE} (CHAIN_LITECOIN_MAX_FEE)`);
        break;
      }
      fees.push(BigInt(now.fee));
    }
    expect(fees.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < fees.length; i++) expect(fees[i]).toBeGreaterThan(fees[i - 1]);
    expect(fees[fees.length - 1]).toBeLessThanOrEqual(MAX_FEE_BASE);
    // Close to the ceiling at the end: nothing below it is left to try.
    expect(fees[fees.length - 1]).toBeGreaterThan(MAX_FEE_BASE - 200n);
    const last = await payoutOf(id);
    expect(last.bumps).toBe(fees.length - 1);
    expect((await replacedOf(id)).map((r) => r.reason)).toEqual(Array(fees.length - 1).fill('replaced'));
    expect(await ltc.node.call<string[]>('getrawmempool')).toEqual([last.txid]);
    await ltc.mine(CONFIRMATIONS);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ completed: 1 });
    expect(await payoutOf(id)).toMatchObject({ state: 'completed', txid: last.txid, fee: fees[fees.length - 1].toString() });
    await ledgerClean();
  });

  it('the payment it replaced is mined instead of the replacement: that one completes the payout, once, with its own fee', async () => {
    const { id, address, first } = await broadcastWithdrawal(12);
    await stuck(id);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ bumped: 1 });
    const bumped = await payoutOf(id);
    // A miner that never saw the replacement mines the first version.
    await ltc.node.call('generateblock', [await ltc.newAddress(), [first.rawTx]]);
    expect(await ltc.node.call<string[]>('getrawmempool')).toEqual([]);
    await ltc.mine(CONFIRMATIONS - 1);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ completed: 1 });
    expect(await payoutOf(id)).toMatchObject({ state: 'completed', txid: first.txid, rawTx: first.rawTx, fee: first.fee });
    expect((await replacedOf(id)).map(({ txid, reason }) => ({ txid, reason }))).toEqual([{ txid: bumped.txid, reason: 'lost' }]);
    expect(await received(address)).toEqual([{ txid: first.txid, amount: coins(15_000_000n - BigInt(first.charged)) }]);
    // The chain took exactly the fee charged: no margin.
    expect(await feeLines(id)).toEqual([
      { code: 'network_fees', amount: `${coins(BigInt(first.fee))}0000000000` },
      { code: 'withdrawals_settled', amount: `-${coins(BigInt(first.charged))}0000000000` },
    ]);
    for (let i = 0; i < 2; i++) expect(await payouts.runOnce('litecoin')).toMatchObject({ created: 0, signed: 0, broadcast: 0, completed: 0 });
    expect(await feeLines(id)).toHaveLength(2);
    await ledgerClean();
  });

  it('stopped between storing the replacement and sending it: the next run sends the stored replacement, nothing new is signed', async () => {
    // 9 USD at 80: 0.112 LTC (litecoin amounts have 3 decimals).
    const { id, address, first } = await broadcastWithdrawal(9);
    await stuck(id);
    const signer = payouts.signerOf('litecoin')!;
    const spy = vi.spyOn(signer, 'broadcast').mockRejectedValueOnce(new ChainRpcError('The node could not be reached'));
    try {
      await payouts.runOnce('litecoin');
    } finally {
      spy.mockRestore();
    }
    const stored = await payoutOf(id);
    expect(stored.txid).not.toBe(first.txid);
    expect(await ltc.node.call<string[]>('getrawmempool')).toEqual([first.txid]);
    // The next run (a restart, another instance) finds the stored replacement unsent and sends those bytes.
    expect(await payouts.runOnce('litecoin')).toMatchObject({ signed: 0, completed: 0 });
    expect(await payoutOf(id)).toMatchObject({ txid: stored.txid, rawTx: stored.rawTx, bumps: 1 });
    expect(await ltc.node.call<string[]>('getrawmempool')).toEqual([stored.txid]);
    await ltc.mine(CONFIRMATIONS);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ completed: 1 });
    expect(await received(address)).toEqual([{ txid: stored.txid, amount: coins(11_200_000n - BigInt(first.charged)) }]);
    await ledgerClean();
  });

  it('nothing is signed while the fee is above the ceiling: the payout waits, its inputs free, and is paid once the ceiling allows', async () => {
    // The ceiling the signer process signs under: its own CHAIN_LITECOIN_MAX_FEE, the one setting of it (the API has
    // none), which it names in its identity and its refusals.
    await t.restartSigner({ CHAIN_LITECOIN_MAX_FEE: '0.00001' });
    const identity = await fetch(`${t.signer.url}/networks/litecoin/address`, { headers: { authorization: `Bearer ${SIGNER_TOKEN}` } });
    expect(await identity.json()).toMatchObject({ network: 'litecoin', source: 'miner', maxFee: '0.00001' });
    const address = await recipient.call<string>('getnewaddress', ['', 'bech32']);
    const customer = await signUp(t.http);
    await t.http
      .post(`/api/admin/update-balance/${customer._id}`)
      .set(bearer(admin))
      .send({ token: 'litecoin', amount: 40, type: 'yes', msg: 'test funding', coinAmount: '0', symbol: 'ltc' })
      .expect(200);
    const sent = await t.http
      .post('/api/crypto/send-crypto/litecoin')
      .set(bearer(customer.token))
      .send({ transferData: { address, amount: 8, symbol: 'ltc', coinAmount: '0.1' } })
      .expect(201);
    const id = sent.body.transaction._id as string;
    await t.http.post('/api/admin/modify-transaction').set(bearer(admin)).send({ tId: id, modification: 'approved' }).expect(200);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ created: 1, signed: 0, broadcast: 0 });
    const waiting = (
      await rows<{ state: string; lastError: string }>(sql`select state, last_error as "lastError" from payouts where transaction_id = ${id}`)
    )[0];
    expect(waiting.state).toBe('approved');
    expect(waiting.lastError).toMatch(/^the network fee 0\.\d{8} is above the ceiling of 0\.00001 \(CHAIN_LITECOIN_MAX_FEE\)$/);
    expect(await ltc.wallet.call<unknown[]>('listlockunspent')).toEqual([]);
    // Back to the signer's configured ceiling (its environment as started).
    await t.restartSigner();
    expect(await payouts.runOnce('litecoin')).toMatchObject({ signed: 1, broadcast: 1 });
    await ltc.mine(CONFIRMATIONS);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ completed: 1 });
  });
});

/**
 * Litecoin Core's default (-mempoolreplacement=0): the node refuses every replacement. The bump is stored, refused when
 * sent, and the first version (still in the mempool) stays the payout's payment, with the reason; it completes once.
 */
describe.skipIf(!litecoindInstalled).each(SIGNER_DATABASE_KINDS)('a stuck LTC payout on a node that relays no replacement, on %s', () => {
  let ltc: RegtestLitecoind;
  let t: SignedTestApp;
  let payouts: PayoutsService;

  beforeAll(async () => {
    ltc = await RegtestLitecoind.start();
    t = await startTestAppWithSigner({
      CHAIN_LITECOIN_RPC_URL: ltc.rpcUrl,
      CHAIN_LITECOIN_XPUB: TPUB,
      CHAIN_LITECOIN_CHAIN: 'regtest',
      CHAIN_LITECOIN_CONFIRMATIONS: String(CONFIRMATIONS),
      CHAIN_LITECOIN_WALLET: 'miner',
      CHAIN_LITECOIN_STUCK_MINUTES: STUCK_MINUTES,
    });
    payouts = t.app.get(PayoutsService);
    payouts.stop();
    t.app.get(ChainWatcherService).stop();
    await seedCoins(t, { litecoin: '80' });
    await supportTokens(t, ['litecoin']);
    await payouts.runOnce('litecoin');
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await ltc?.close();
  });

  it('keeps the first version, saying the node refused the bump, and completes with it', async () => {
    const db = t.app.get<Database>(DATABASE);
    const rows = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
    const admin = (await loginAdmin(t.http)).token;
    const customer = await signUp(t.http);
    await t.http
      .post(`/api/admin/update-balance/${customer._id}`)
      .set(bearer(admin))
      .send({ token: 'litecoin', amount: 40, type: 'yes', msg: 'test funding', coinAmount: '0' })
      .expect(200);
    const sent = await t.http
      .post('/api/crypto/send-crypto/litecoin')
      .set(bearer(customer.token))
      .send({ transferData: { address: await ltc.newAddress(), amount: 8, coinAmount: '0.1' } })
      .expect(201);
    const id = sent.body.transaction._id as string;
    await t.http.post('/api/admin/modify-transaction').set(bearer(admin)).send({ tId: id, modification: 'approved' }).expect(200);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ signed: 1, broadcast: 1 });
    const payout = () =>
      rows<{ txid: string; bumps: number; lastError: string | null }>(
        sql`select txid, bumps, last_error as "lastError" from payouts where transaction_id = ${id}`,
      ).then((found) => found[0]);
    const first = await payout();
    await db.execute(sql`update payouts set broadcast_at = broadcast_at - interval '2 minutes' where transaction_id = ${id}`);
    // The replacement is stored, then refused when sent: no bump counted.
    expect((await payouts.runOnce('litecoin')).bumped).toBeUndefined();
    const kept = await payout();
    expect(kept.txid).toBe(first.txid);
    expect(kept.lastError).toMatch(/^The node refused the fee bump \([0-9a-f]{64}\), the payment stays [0-9a-f]{64}: /);
    const versions = await rows<{ reason: string }>(
      sql`select reason from payout_replaced_txs r join payouts p on p.id = r.payout_id where p.transaction_id = ${id}`,
    );
    expect(versions).toEqual([{ reason: 'rejected' }]);
    expect(await ltc.node.call<string[]>('getrawmempool')).toEqual([first.txid]);
    await ltc.mine(CONFIRMATIONS);
    expect(await payouts.runOnce('litecoin')).toMatchObject({ completed: 1 });
    expect(await rows<{ state: string; txid: string }>(sql`select state, txid from payouts where transaction_id = ${id}`)).toEqual([
      { state: 'completed', txid: first.txid },
    ]);
  });
});
