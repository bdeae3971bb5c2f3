import { sql } from 'drizzle-orm';
import { decodeFunctionData, erc20Abi, type Hex, parseTransaction } from 'viem';
import { Logger } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../src/db/database';
import { SignerRefusal } from '../../src/chain-core/signer-contract';
import type { PayoutsService } from '../../src/modules/payouts/payouts.service';
import type { Anvil } from '../support/anvil';
import { type EvmPayoutSetup, HOT_ADDRESS, startEvmPayouts } from '../support/evm-payouts';
import { SIGNER_DATABASE_KINDS, skipOnPglite } from '../support/signer-process';
import { bearer, signUp } from '../support/test-app';
import { deployTestToken, setTokenContract, testTokenBalance, transferTestToken } from '../support/test-token';

const CONFIRMATIONS = 3;
/** The test token has 6 decimals, like USDT. */
const UNIT = 10n ** 6n;

interface Tx {
  _id: string;
  status: string;
  txHash?: string;
  payoutState?: string;
  payoutReason?: string;
  fee?: string;
  confirmations?: number;
}

skipOnPglite('ERC-20 withdrawals paid on an anvil chain');

/** ERC-20 withdrawals (tether on ethereum, its contract the test token) paid by the signer process's hot key (transfer()) on a real anvil. */
describe.each(SIGNER_DATABASE_KINDS)('ERC-20 withdrawals paid on an anvil chain on %s', () => {
  let setup: EvmPayoutSetup;
  let anvil: Anvil;
  let t: EvmPayoutSetup['t'];
  let db: Database;
  let payouts: PayoutsService;
  let admin = '';
  let contract = '';

  beforeAll(async () => {
    setup = await startEvmPayouts({ coins: { bitcoin: '50000', ethereum: '2500', tether: '1' } });
    ({ anvil, t, db, payouts, admin } = setup);
    contract = await deployTestToken(anvil, 6, 10n ** 12n);
    await setTokenContract(t, admin, 'tether', 'ethereum', contract, anvil.accounts[2]);
    // The hot address holds 100 tokens to pay from.
    await transferTestToken(anvil, contract, HOT_ADDRESS, 100n * UNIT);
  });

  afterAll(async () => {
    await setup?.close();
  });

  const randomAddress = () => `0x${[...Array(40)].map(() => Math.floor(Math.random() * 16).toString(16)).join('')}`;
  const rows = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  /** A customer holding 50 tether sends `coinAmount` of it to `address` on ethereum. */
  const withdrawal = async (address: string, coinAmount: string) => {
    const customer = await signUp(t.http);
    await t.http
      .post(`/api/admin/update-balance/${customer._id}`)
      .set(bearer(admin))
      .send({ token: 'tether', amount: 50, type: 'yes', msg: 'test funding', coinAmount: '0', symbol: 'usdt' })
      .expect(200);
    const sent = await t.http
      .post('/api/crypto/send-crypto/tether')
      .set(bearer(customer.token))
      .send({ transferData: { address, amount: Number(coinAmount), symbol: 'usdt', coinAmount, network: 'ethereum' } })
      .expect(201);
    expect(sent.body.transaction.network).toBe('ethereum');
    return { customer, id: sent.body.transaction._id as string };
  };
  const approve = (id: string) => t.http.post('/api/admin/modify-transaction').set(bearer(admin)).send({ tId: id, modification: 'approved' }).expect(200);
  const history = async (token: string) => (await t.http.get('/api/user/get-transaction').set(bearer(token)).expect(200)).body as Tx[];
  const payout = async (id: string) =>
    (
      await rows<{ state: string; txid: string; amountBase: string; lastError: string | null }>(
        sql`select state, txid, amount_base::text as "amountBase", last_error as "lastError" from payouts where transaction_id = ${id}`,
      )
    )[0];

  it('an approved tether withdrawal is paid by transfer(to, amount) on its contract, confirms and completes; History shows the txid', async () => {
    const to = randomAddress();
    const { customer, id } = await withdrawal(to, '20');
    // Nothing is paid before the approval.
    expect(await payouts.runOnce('ethereum')).toMatchObject({ created: 0, signed: 0 });
    await approve(id);
    const hotTokensBefore = await testTokenBalance(anvil, contract, HOT_ADDRESS);
    expect(await payouts.runOnce('ethereum')).toMatchObject({ created: 1, signed: 1, broadcast: 1 });
    const row = await payout(id);
    // Counted in the contract's 6 decimals; mined at once by anvil (1 confirmation).
    expect(row).toMatchObject({ state: 'confirming', amountBase: (20n * UNIT).toString() });
    const onChain = await anvil.rpc.call<{ type: string; from: string; to: string; value: string; input: Hex }>('eth_getTransactionByHash', [row.txid]);
    expect(onChain).toMatchObject({ type: '0x2', from: HOT_ADDRESS, to: contract.toLowerCase(), value: '0x0' });
    const call = decodeFunctionData({ abi: erc20Abi, data: onChain.input });
    expect(call.functionName).toBe('transfer');
    expect([(call.args![0] as string).toLowerCase(), call.args![1]]).toEqual([to, 20n * UNIT]);
    await anvil.mine(CONFIRMATIONS - 1);
    expect(await payouts.runOnce('ethereum')).toMatchObject({ completed: 1 });
    expect(await testTokenBalance(anvil, contract, to)).toBe(20n * UNIT);
    expect(hotTokensBefore - (await testTokenBalance(anvil, contract, HOT_ADDRESS))).toBe(20n * UNIT);
    const [tx] = await history(customer.token);
    expect(tx).toMatchObject({ _id: id, status: 'approved', payoutState: 'completed', txHash: row.txid, confirmations: CONFIRMATIONS });
    // The fee is the gas the hot address paid, in ETH (18 decimals).
    expect(tx.fee).toMatch(/^0\.\d{18}$/);
    expect((await t.http.get('/api/admin/ledger/check').set(bearer(admin)).expect(200)).body.ok).toBe(true);
  });

  it('the signer refuses a request that is not the approved transfer (amount, recipient, not approved), nothing is signed', async () => {
    const to = randomAddress();
    const { id } = await withdrawal(to, '5');
    const signer = payouts.signerOf('ethereum')!;
    const nonce = async () =>
      (await rows<{ n: string }>(sql`select next_nonce::text as n from evm_nonces where network = 'ethereum' and address = ${HOT_ADDRESS}`))[0]?.n;
    const nonceBefore = await nonce();
    await expect(signer.sign({ transactionId: id, network: 'ethereum', address: to, amountBase: 5n * UNIT })).rejects.toThrow(
      'the withdrawal is pending, not approved',
    );
    await approve(id);
    // Counted in 18 decimals instead of the contract's 6: not the approved amount.
    await expect(signer.sign({ transactionId: id, network: 'ethereum', address: to, amountBase: 5n * 10n ** 18n })).rejects.toThrow(
      `the amount asked for (${5n * 10n ** 18n}) is not the approved amount (${5n * UNIT})`,
    );
    await expect(signer.sign({ transactionId: id, network: 'ethereum', address: randomAddress(), amountBase: 5n * UNIT })).rejects.toThrow(SignerRefusal);
    // No nonce was taken by the refused requests.
    expect(await nonce()).toBe(nonceBefore);
    // The job pays it as approved.
    expect(await payouts.runOnce('ethereum')).toMatchObject({ created: 1, signed: 1, broadcast: 1 });
    await anvil.mine(CONFIRMATIONS - 1);
    await payouts.runOnce('ethereum');
    expect(await testTokenBalance(anvil, contract, to)).toBe(5n * UNIT);
  });

  it('a hot address short of the token waits (awaiting_funds); signed and killed before the broadcast, the restart sends the same bytes once', async () => {
    const to = randomAddress();
    const held = await testTokenBalance(anvil, contract, HOT_ADDRESS);
    const { customer, id } = await withdrawal(to, '40');
    await approve(id);
    // Move the hot's tokens away but 10.
    const hotSigner = await anvil.rpc.call<string>('eth_sendTransaction', [
      {
        from: HOT_ADDRESS,
        to: contract,
        data: `0xa9059cbb${anvil.accounts[3].slice(2).toLowerCase().padStart(64, '0')}${(held - 10n * UNIT).toString(16).padStart(64, '0')}`,
      },
    ]);
    await anvil.mined(hotSigner);
    const warn = vi.spyOn(Logger.prototype, 'warn');
    expect(await payouts.runOnce('ethereum')).toMatchObject({ created: 1, signed: 0 });
    expect(await payout(id)).toMatchObject({ state: 'awaiting_funds', lastError: expect.stringContaining('of the token, less than 40000000') });
    // Every run tries it again; the reason is logged once, when it starts waiting.
    expect(await payouts.runOnce('ethereum')).toMatchObject({ signed: 0 });
    const waits = warn.mock.calls.filter(([line]) => String(line).includes(`withdrawal ${id} on ethereum waits for funds`));
    warn.mockRestore();
    expect(waits).toHaveLength(1);
    expect(String(waits[0][0])).toContain('less than 40000000');
    // The admins see why it waits; the customer sees that it waits, never the platform's reason.
    const [adminView] = (await t.http.get(`/api/admin/transaction?search=${id}`).set(bearer(admin)).expect(200)).body as Tx[];
    expect(adminView).toMatchObject({ _id: id, payoutState: 'awaiting_funds', payoutReason: expect.stringContaining('less than 40000000') });
    const [customerView] = await history(customer.token);
    expect(customerView).toMatchObject({ _id: id, payoutState: 'awaiting_funds' });
    expect(customerView.payoutReason).toBeUndefined();
    await transferTestToken(anvil, contract, HOT_ADDRESS, 100n * UNIT);
    // Signed and stored; the process "dies" before broadcasting.
    expect(await payouts.runOnce('ethereum', { stopAfterSigning: true })).toMatchObject({ signed: 1 });
    const signed = await payout(id);
    expect(signed.state).toBe('signed');
    expect(await anvil.rpc.call('eth_getTransactionByHash', [signed.txid])).toBeNull();
    expect(await payouts.runOnce('ethereum')).toMatchObject({ signed: 0, broadcast: 1 });
    await anvil.mine(CONFIRMATIONS - 1);
    expect(await payouts.runOnce('ethereum')).toMatchObject({ completed: 1 });
    expect((await payout(id)).txid).toBe(signed.txid);
    expect(await testTokenBalance(anvil, contract, to)).toBe(40n * UNIT);
    const [tx] = await history(customer.token);
    expect(tx).toMatchObject({ payoutState: 'completed', txHash: signed.txid });
    // Paid: no reason to wait any more, for the admins either.
    const [paid] = (await t.http.get(`/api/admin/transaction?search=${id}`).set(bearer(admin)).expect(200)).body as Tx[];
    expect(paid).toMatchObject({ payoutState: 'completed' });
    expect(paid.payoutReason).toBeUndefined();
  });

  it('a stuck ERC-20 payout is replaced with the same nonce and transfer and a higher fee; the token arrives once', async () => {
    const to = randomAddress();
    const { id } = await withdrawal(to, '3');
    await approve(id);
    const rawTxOf = async () => (await rows<{ rawTx: Hex }>(sql`select raw_tx as "rawTx" from payouts where transaction_id = ${id}`))[0].rawTx;
    await anvil.rpc.call('evm_setAutomine', [false]);
    let bumpedTxid = '';
    try {
      expect(await payouts.runOnce('ethereum')).toMatchObject({ created: 1, signed: 1, broadcast: 1 });
      const sent = await payout(id);
      expect(sent.state).toBe('broadcast');
      const original = parseTransaction(await rawTxOf());
      // Unmined for a day: far past the stuck minutes.
      await db.execute(sql`update payouts set broadcast_at = broadcast_at - interval '1 day' where transaction_id = ${id}`);
      expect(await payouts.runOnce('ethereum')).toMatchObject({ bumped: 1 });
      const bumped = await payout(id);
      bumpedTxid = bumped.txid;
      expect(bumpedTxid).not.toBe(sent.txid);
      const replacement = parseTransaction(await rawTxOf());
      // The same payment: nonce, contract, no value, the same transfer(to, 3 tokens); only the fees rise (10 % or more).
      expect([replacement.nonce, replacement.to, replacement.value ?? 0n, replacement.data]).toEqual([original.nonce, original.to, 0n, original.data]);
      const call = decodeFunctionData({ abi: erc20Abi, data: replacement.data! });
      expect([(call.args![0] as string).toLowerCase(), call.args![1]]).toEqual([to, 3n * UNIT]);
      expect(replacement.maxPriorityFeePerGas! * 10n).toBeGreaterThanOrEqual(original.maxPriorityFeePerGas! * 11n);
      expect(replacement.maxFeePerGas! * 10n).toBeGreaterThanOrEqual(original.maxFeePerGas! * 11n);
      // Only the replacement is in the pool: the node dropped the version it replaces.
      const pool = await anvil.rpc.call<{ pending: Record<string, Record<string, { hash: string }>> }>('txpool_content');
      const fromHot = Object.entries(pool.pending).find(([from]) => from.toLowerCase() === HOT_ADDRESS)?.[1] ?? {};
      expect(Object.values(fromHot).map((t) => t.hash)).toEqual([bumpedTxid]);
    } finally {
      await anvil.rpc.call('evm_setAutomine', [true]);
    }
    await anvil.mine(CONFIRMATIONS);
    expect(await payouts.runOnce('ethereum')).toMatchObject({ completed: 1 });
    expect(await payout(id)).toMatchObject({ state: 'completed', txid: bumpedTxid });
    expect(await testTokenBalance(anvil, contract, to)).toBe(3n * UNIT);
  });
});
