import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database';
import { SignerRefusal } from '../../src/chain-core/signer-contract';
import { PayoutsService } from '../../src/modules/payouts/payouts.service';
import type { Anvil } from '../support/anvil';
import { type EvmPayoutSetup, HOT_ADDRESS, startEvmPayouts } from '../support/evm-payouts';
import { SIGNER_DATABASE_KINDS, SIGNER_TOKEN, skipOnPglite, startTestAppWithSigner } from '../support/signer-process';
import { bearer, signUp } from '../support/test-app';
import { addTokenNetwork } from '../support/wallet';

interface Tx {
  _id: string;
  status: string;
  txHash?: string;
  payoutState?: string;
  fee?: string;
  confirmations?: number;
}

skipOnPglite('ETH withdrawals paid on an anvil chain');

/** ETH withdrawals signed by the signer process from its key file on a real anvil: EIP-1559, nonces reserved in the database. */
describe.each(SIGNER_DATABASE_KINDS)('ETH withdrawals paid on an anvil chain on %s', () => {
  let setup: EvmPayoutSetup;
  let anvil: Anvil;
  let t: EvmPayoutSetup['t'];
  let db: Database;
  let payouts: PayoutsService;
  let admin = '';

  beforeAll(async () => {
    setup = await startEvmPayouts({ coins: { bitcoin: '50000', ethereum: '2500', tether: '1' } });
    ({ anvil, t, db, payouts, admin } = setup);
  });

  afterAll(async () => {
    await setup?.close();
  });

  const balanceOf = async (address: string) => BigInt(await anvil.rpc.call<string>('eth_getBalance', [address, 'latest']));
  const randomAddress = () => `0x${[...Array(40)].map(() => Math.floor(Math.random() * 16).toString(16)).join('')}`;
  const withdrawal = async (address: string, sendUsd: number) => {
    const customer = await signUp(t.http);
    await t.http
      .post(`/api/admin/update-balance/${customer._id}`)
      .set(bearer(admin))
      .send({ token: 'ethereum', amount: 250, type: 'yes', msg: 'test funding', coinAmount: '0', symbol: 'eth' })
      .expect(200);
    const sent = await t.http
      .post('/api/crypto/send-crypto/ethereum')
      .set(bearer(customer.token))
      .send({ transferData: { address, amount: sendUsd, symbol: 'eth', coinAmount: String(sendUsd / 2500) } })
      .expect(201);
    return { customer, id: sent.body.transaction._id as string };
  };
  const approve = (id: string) => t.http.post('/api/admin/modify-transaction').set(bearer(admin)).send({ tId: id, modification: 'approved' }).expect(200);
  const history = async (token: string) => (await t.http.get('/api/user/get-transaction').set(bearer(token)).expect(200)).body as Tx[];

  it('an approved ETH withdrawal is signed from the key file (EIP-1559), sent, confirms and completes: the amount less the fee arrives', async () => {
    const to = randomAddress();
    const { customer, id } = await withdrawal(to, 100);
    await approve(id);
    const hotBefore = await balanceOf(HOT_ADDRESS);
    expect(await payouts.runOnce('ethereum')).toMatchObject({ created: 1, signed: 1, broadcast: 1 });
    const [row] = (
      (await db.execute(
        sql`select state, txid, raw_tx as "rawTx", fee_base::text as fee, charged_fee_base::text as charged from payouts where transaction_id = ${id}`,
      )) as unknown as {
        rows: Array<{ state: string; txid: string; rawTx: string; fee: string; charged: string }>;
      }
    ).rows;
    expect(row.txid).toMatch(/^0x[0-9a-f]{64}$/);
    // The customer pays the network fee (21,000 gas at the quote) out of the amount.
    const charged = BigInt(row.charged);
    expect(charged).toBeGreaterThan(0n);
    expect(charged % 21_000n).toBe(0n);
    const paid = 4n * 10n ** 16n - charged;
    const onChain = await anvil.rpc.call<{ type: string; from: string; to: string; value: string; nonce: string }>('eth_getTransactionByHash', [row.txid]);
    expect(onChain).toMatchObject({ type: '0x2', from: HOT_ADDRESS, to, value: `0x${paid.toString(16)}` });
    await anvil.rpc.call('anvil_mine', ['0x2']);
    expect(await payouts.runOnce('ethereum')).toMatchObject({ completed: 1 });
    expect(await balanceOf(to)).toBe(paid);
    const [tx] = await history(customer.token);
    expect(tx).toMatchObject({ _id: id, status: 'approved', payoutState: 'completed', txHash: row.txid, confirmations: 3 });
    // The fee recorded is the one paid (gas used × effective price): the hot address paid what the recipient got + fee.
    expect(tx.fee).toMatch(/^0\.\d{18}$/);
    const feeWei = BigInt(tx.fee!.replace('.', ''));
    expect(feeWei).toBeGreaterThan(0n);
    expect(hotBefore - (await balanceOf(HOT_ADDRESS))).toBe(paid + feeWei);
  });

  it('a withdrawal fee fixed on the network: the recipient gets the whole amount held, the platform pays the gas', async () => {
    const setFees = (body: object) => t.http.put('/api/admin/fees/ethereum').set(bearer(admin)).send(body).expect(200);
    await setFees({ withdrawalNetworks: [{ network: 'ethereum', mode: 'fixed', fee: '0.001' }] });
    try {
      const to = randomAddress();
      // 100 USD = 0.04 ETH: 0.001 to the house, 0.039 held and paid whole.
      const { id } = await withdrawal(to, 100);
      await approve(id);
      expect(await payouts.runOnce('ethereum')).toMatchObject({ created: 1, signed: 1, broadcast: 1 });
      const [row] = (
        (await db.execute(sql`select txid, charged_fee_base::text as charged from payouts where transaction_id = ${id}`)) as unknown as {
          rows: Array<{ txid: string; charged: string }>;
        }
      ).rows;
      expect(row.charged).toBe('0');
      const paid = 39n * 10n ** 15n;
      const onChain = await anvil.rpc.call<{ to: string; value: string }>('eth_getTransactionByHash', [row.txid]);
      expect(onChain).toMatchObject({ to, value: `0x${paid.toString(16)}` });
      await anvil.rpc.call('anvil_mine', ['0x2']);
      expect(await payouts.runOnce('ethereum')).toMatchObject({ completed: 1 });
      expect(await balanceOf(to)).toBe(paid);
    } finally {
      await setFees({ withdrawalNetworks: null });
    }
  });

  it('two withdrawals approved together get consecutive nonces reserved in the database; a forged request is refused', async () => {
    const nonceBefore = BigInt(await anvil.rpc.call<string>('eth_getTransactionCount', [HOT_ADDRESS, 'pending']));
    const targets = [randomAddress(), randomAddress()];
    const ids: string[] = [];
    for (const to of targets) {
      const { id } = await withdrawal(to, 50);
      await approve(id);
      ids.push(id);
    }
    const pending = await withdrawal(randomAddress(), 50);
    await expect(
      payouts.signerOf('ethereum')!.sign({ transactionId: pending.id, network: 'ethereum', address: targets[0], amountBase: 2n * 10n ** 16n }),
    ).rejects.toThrow(SignerRefusal);
    expect(await payouts.runOnce('ethereum', { stopAfterSigning: true })).toMatchObject({ created: 2, signed: 2 });
    expect(BigInt(await anvil.rpc.call<string>('eth_getTransactionCount', [HOT_ADDRESS, 'pending']))).toBe(nonceBefore);
    const stored = (
      (await db.execute(sql`select next_nonce::text as n from evm_nonces where network = 'ethereum'`)) as unknown as { rows: Array<{ n: string }> }
    ).rows;
    expect(BigInt(stored[0].n)).toBe(nonceBefore + 2n);
    await payouts.runOnce('ethereum');
    await anvil.rpc.call('anvil_mine', ['0x3']);
    expect(await payouts.runOnce('ethereum')).toMatchObject({ completed: 2 });
    for (const [i, to] of targets.entries()) {
      const [row] = (
        (await db.execute(sql`select charged_fee_base::text as charged from payouts where transaction_id = ${ids[i]}`)) as unknown as {
          rows: Array<{ charged: string }>;
        }
      ).rows;
      expect(await balanceOf(to)).toBe(2n * 10n ** 16n - BigInt(row.charged));
    }
    expect(BigInt(await anvil.rpc.call<string>('eth_getTransactionCount', [HOT_ADDRESS, 'latest']))).toBe(nonceBefore + 2n);
  });

  it('a USDT (ERC-20) withdrawal on ethereum without its contract set is not paid from the key: no payout, the signer refuses', async () => {
    await addTokenNetwork(t, 'tether', 'ethereum');
    const to = randomAddress();
    const customer = await signUp(t.http);
    await t.http
      .post(`/api/admin/update-balance/${customer._id}`)
      .set(bearer(admin))
      .send({ token: 'tether', amount: 50, type: 'yes', msg: 'test funding', coinAmount: '0', symbol: 'usdt' })
      .expect(200);
    const sent = await t.http
      .post('/api/crypto/send-crypto/tether')
      .set(bearer(customer.token))
      .send({ transferData: { address: to, amount: 20, symbol: 'usdt', coinAmount: '20', network: 'ethereum' } })
      .expect(201);
    const id = sent.body.transaction._id as string;
    expect(sent.body.transaction.network).toBe('ethereum');
    await approve(id);
    expect(await payouts.runOnce('ethereum')).toMatchObject({ created: 0, signed: 0 });
    await expect(payouts.signerOf('ethereum')!.sign({ transactionId: id, network: 'ethereum', address: to, amountBase: 20n * 10n ** 18n })).rejects.toThrow(
      'the withdrawal is of tether, this signer pays ethereum only',
    );
    expect(await balanceOf(to)).toBe(0n);
  });

  it('withdrawals approved before the network first paid out by itself (settled by hand) are never paid', async () => {
    await db.execute(sql`delete from payout_networks where network = 'ethereum'`);
    const to = randomAddress();
    const { id } = await withdrawal(to, 50);
    await approve(id);
    // The signer is switched on now: the network pays out by itself from this run on, not what was approved before.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await payouts.runOnce('ethereum')).toMatchObject({ created: 0, signed: 0 });
    const [row] = ((await db.execute(sql`select count(*)::int as n from payouts where transaction_id = ${id}`)) as unknown as { rows: Array<{ n: number }> })
      .rows;
    expect(row.n).toBe(0);
    expect(await balanceOf(to)).toBe(0n);
    // One approved after is paid.
    const after = await withdrawal(randomAddress(), 50);
    await approve(after.id);
    expect(await payouts.runOnce('ethereum')).toMatchObject({ created: 1, signed: 1, broadcast: 1 });
  });

  const signerCall = (path: string, body: unknown, token = SIGNER_TOKEN) =>
    fetch(`${t.signer.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as Record<string, any> }));
  const recordsOf = async (id: string) =>
    (
      (await db.execute(sql`select kind, txid, raw_tx as "rawTx", nonce::text as nonce from signer_signatures where subject_id = ${id}`)) as unknown as {
        rows: Array<{ kind: string; txid: string; rawTx: string; nonce: string }>;
      }
    ).rows;
  const storedNonce = async () =>
    BigInt(
      (
        (await db.execute(sql`select next_nonce::text as n from evm_nonces where network = 'ethereum' and address = ${HOT_ADDRESS}`)) as unknown as {
          rows: Array<{ n: string }>;
        }
      ).rows[0].n,
    );

  it('the signer process refuses forged requests (bad token, unapproved withdrawal, wrong amount or address) and signs nothing', async () => {
    const to = randomAddress();
    const pending = await withdrawal(to, 50);
    const amountBase = (2n * 10n ** 16n).toString();
    const request = { transactionId: pending.id, address: to, amountBase };
    const nonceBefore = await storedNonce();
    // No token, a wrong token: 401 before anything is read.
    expect((await signerCall('/networks/ethereum/payouts/sign', request, '')).status).toBe(401);
    expect((await signerCall('/networks/ethereum/payouts/sign', request, `${SIGNER_TOKEN.slice(0, -1)}x`)).status).toBe(401);
    // Not approved (pending): refused, and the API would drop the payout row.
    expect(await signerCall('/networks/ethereum/payouts/sign', request)).toEqual({
      status: 422,
      body: { refusal: 'refused', reason: 'the withdrawal is pending, not approved', notApproved: true },
    });
    await approve(pending.id);
    // Approved, but asked for another amount or address: refused with the reason.
    const more = await signerCall('/networks/ethereum/payouts/sign', { ...request, amountBase: (3n * 10n ** 16n).toString() });
    expect(more).toMatchObject({ status: 422, body: { refusal: 'refused' } });
    expect(more.body.reason).toMatch(/is not the approved amount/);
    const elsewhere = await signerCall('/networks/ethereum/payouts/sign', { ...request, address: randomAddress() });
    expect(elsewhere).toMatchObject({ status: 422, body: { refusal: 'refused', reason: 'the address asked for is not the approved address' } });
    // A withdrawal id that is no withdrawal, a network the signer does not sign on.
    expect((await signerCall('/networks/ethereum/payouts/sign', { ...request, transactionId: '00000000-0000-4000-8000-000000000000' })).body).toMatchObject({
      refusal: 'refused',
      reason: 'no such withdrawal',
    });
    expect((await signerCall('/networks/litecoin/payouts/sign', request)).body).toMatchObject({ refusal: 'refused' });
    // Nothing was signed: no record, no nonce reserved, nothing sent; the refusals are in the signer's log.
    expect(await recordsOf(pending.id)).toEqual([]);
    expect(await storedNonce()).toBe(nonceBefore);
    expect(await balanceOf(to)).toBe(0n);
    expect(t.signer.output()).toMatch(/Refused to sign withdrawal .* is not the approved amount/);
    // The real request (the payout job's) is signed and paid once.
    expect(await payouts.runOnce('ethereum')).toMatchObject({ created: 1, signed: 1, broadcast: 1 });
    expect(await recordsOf(pending.id)).toHaveLength(1);
    // Mined and completed (with whatever an earlier test left broadcast), so the next test counts only its own.
    await anvil.rpc.call('anvil_mine', ['0x3']);
    await payouts.runOnce('ethereum');
    const [paid] = ((await db.execute(sql`select state from payouts where transaction_id = ${pending.id}`)) as unknown as { rows: Array<{ state: string }> })
      .rows;
    expect(paid.state).toBe('completed');
    expect(await balanceOf(to)).toBeGreaterThan(0n);
  });

  it('a repeated sign request returns the same bytes: an API that died after the signer answered pays the recorded payment, no nonce gap', async () => {
    const to = randomAddress();
    const { id } = await withdrawal(to, 50);
    await approve(id);
    const nonceBefore = await storedNonce();
    const request = { transactionId: id, address: to, amountBase: (2n * 10n ** 16n).toString() };
    // An API asks, then dies before it stores the answer; asked again (by the restarted job) the signer answers the same bytes.
    const first = await signerCall('/networks/ethereum/payouts/sign', request);
    const again = await signerCall('/networks/ethereum/payouts/sign', request);
    expect(first.status).toBe(200);
    expect(again).toEqual(first);
    expect(await storedNonce()).toBe(nonceBefore + 1n);
    expect(await recordsOf(id)).toEqual([{ kind: 'payout', txid: first.body.signed.txid, rawTx: first.body.signed.rawTx, nonce: nonceBefore.toString() }]);
    // Its status can no longer change (the bytes left the signer, the nonce is theirs): no rejection leaves a nonce gap.
    const rejected = await t.http.post('/api/admin/modify-transaction').set(bearer(admin)).send({ tId: id, modification: 'rejected' });
    expect(rejected.body).toEqual({ statusCode: 409, error: 'This withdrawal is being paid on the chain, so its status can no longer change.' });
    expect(await payouts.runOnce('ethereum')).toMatchObject({ created: 1, signed: 1, broadcast: 1 });
    const [row] = (
      (await db.execute(sql`select txid, raw_tx as "rawTx" from payouts where transaction_id = ${id}`)) as unknown as {
        rows: Array<{ txid: string; rawTx: string }>;
      }
    ).rows;
    expect(row).toEqual({ txid: first.body.signed.txid, rawTx: first.body.signed.rawTx });
    await anvil.rpc.call('anvil_mine', ['0x3']);
    expect(await payouts.runOnce('ethereum')).toMatchObject({ completed: 1 });
    // The recorded nonce was the next one: mined, and nothing after it waits behind a gap.
    expect(BigInt(await anvil.rpc.call<string>('eth_getTransactionCount', [HOT_ADDRESS, 'latest']))).toBe(nonceBefore + 1n);
    expect(await balanceOf(to)).toBeGreaterThan(0n);
  });

  it('the signer killed between signing and broadcast, then restarted, with a fresh API instance: exactly one payment on chain', async () => {
    const to = randomAddress();
    const { id } = await withdrawal(to, 50);
    await approve(id);
    expect(await payouts.runOnce('ethereum', { stopAfterSigning: true })).toMatchObject({ created: 1, signed: 1 });
    const [signed] = await recordsOf(id);
    await t.signer.kill();
    await t.restartSigner();
    // A second API instance on the same database (the first one stands for the one that died).
    const fresh = await startTestAppWithSigner(t.env, { shareDatabaseWith: t, signer: t });
    try {
      const freshPayouts = fresh.app.get(PayoutsService);
      // Its own scheduled run (at start) may send the stored bytes before this explicit one: either way, nothing is
      // signed again and the payment on chain is the recorded one.
      const run = await freshPayouts.runOnce('ethereum');
      freshPayouts.stop();
      expect(run.signed).toBe(0);
      const sent = await anvil.rpc.call<{ hash: string } | null>('eth_getTransactionByHash', [signed.txid]);
      expect(sent?.hash).toBe(signed.txid);
      await anvil.rpc.call('anvil_mine', ['0x3']);
      expect(await freshPayouts.runOnce('ethereum')).toMatchObject({ completed: 1 });
      expect(await recordsOf(id)).toEqual([signed]);
      const mined = await anvil.rpc.call<{ hash: string; to: string }>('eth_getTransactionByHash', [signed.txid]);
      expect(mined.to).toBe(to);
      expect(await balanceOf(to)).toBeGreaterThan(0n);
    } finally {
      await fresh.close();
    }
  });
});
