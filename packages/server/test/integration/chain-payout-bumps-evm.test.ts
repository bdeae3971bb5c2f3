import { sql } from 'drizzle-orm';
import { type Hex, parseTransaction } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database';
import type { PayoutsService } from '../../src/modules/payouts/payouts.service';
import type { Anvil } from '../support/anvil';
import { type EvmPayoutSetup, startEvmPayouts } from '../support/evm-payouts';
import { SIGNER_DATABASE_KINDS, skipOnPglite } from '../support/signer-process';
import { bearer, signUp } from '../support/test-app';

const CONFIRMATIONS = 3;

interface Payout {
  state: string;
  txid: string;
  rawTx: string;
  fee: string;
  charged: string;
  bumps: number;
}

/**
 * Stuck ETH payouts bumped on a real anvil with automine off (nothing is mined until the test says so): after
 * CHAIN_ETHEREUM_STUCK_MINUTES the payout job signs a same-nonce replacement with tip and fee cap at least 10 % higher,
 * stores it before sending it, and whichever version is mined completes the payout once, its fee booked. And the Send
 * confirm step's EVM fee estimate (eth_feeHistory).
 */
skipOnPglite('stuck ETH payouts bumped on an anvil chain');

describe.each(SIGNER_DATABASE_KINDS)('stuck ETH payouts bumped on an anvil chain on %s', () => {
  let setup: EvmPayoutSetup;
  let anvil: Anvil;
  let t: EvmPayoutSetup['t'];
  let db: Database;
  let payouts: PayoutsService;
  let admin = '';

  const rows = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const payoutOf = async (transactionId: string) =>
    (
      await rows<Payout>(sql`
        select state, txid, raw_tx as "rawTx", fee_base::text as fee, charged_fee_base::text as charged, bumps
        from payouts where transaction_id = ${transactionId}`)
    )[0];
  const replacedOf = async (transactionId: string) =>
    rows<{ txid: string; reason: string }>(sql`
      select r.txid, r.reason from payout_replaced_txs r join payouts p on p.id = r.payout_id
      where p.transaction_id = ${transactionId} order by r.replaced_at, r.id`);
  const feeLines = async (transactionId: string) =>
    rows<{ code: string; amount: string }>(sql`
      select split_part(a.platform_code, '#', 1) as code, l.amount::text as amount from journal_entries e
      join journal_lines l on l.entry_id = e.id join ledger_accounts a on a.id = l.account_id
      where e.kind = 'payout_network_fee' and e.transaction_id = ${transactionId} order by 1`);
  const balanceOf = async (address: string) => BigInt(await anvil.rpc.call<string>('eth_getBalance', [address, 'latest']));
  const randomAddress = () => `0x${[...Array(40)].map(() => Math.floor(Math.random() * 16).toString(16)).join('')}`;
  /** The payout was broadcast (or last bumped) more than the stuck minute ago (aged rather than waited for: no race on a busy machine). */
  const stuck = (transactionId: string) =>
    db.execute(
      sql`update payouts set broadcast_at = broadcast_at - interval '2 minutes', bumped_at = bumped_at - interval '2 minutes' where transaction_id = ${transactionId}`,
    );
  /** A wei amount as the ledger's numeric(38, 18) text. */
  const eth = (wei: bigint) =>
    `${wei < 0n ? '-' : ''}${(wei < 0n ? -wei : wei) / 10n ** 18n}.${((wei < 0n ? -wei : wei) % 10n ** 18n).toString().padStart(18, '0')}`;
  /** An approved 100 USD (0.04 ETH) withdrawal to a fresh address, signed and sent to anvil's pool (not mined). */
  const sentWithdrawal = async () => {
    const to = randomAddress();
    const customer = await signUp(t.http);
    await t.http
      .post(`/api/admin/update-balance/${customer._id}`)
      .set(bearer(admin))
      .send({ token: 'ethereum', amount: 250, type: 'yes', msg: 'test funding', coinAmount: '0', symbol: 'eth' })
      .expect(200);
    const sent = await t.http
      .post('/api/crypto/send-crypto/ethereum')
      .set(bearer(customer.token))
      .send({ transferData: { address: to, amount: 100, symbol: 'eth', coinAmount: '0.04' } })
      .expect(201);
    const id = sent.body.transaction._id as string;
    await t.http.post('/api/admin/modify-transaction').set(bearer(admin)).send({ tId: id, modification: 'approved' }).expect(200);
    expect(await payouts.runOnce('ethereum')).toMatchObject({ created: 1, signed: 1, broadcast: 1, completed: 0 });
    const first = await payoutOf(id);
    expect(await anvil.rpc.call<{ blockNumber: string | null }>('eth_getTransactionByHash', [first.txid])).toMatchObject({ blockNumber: null });
    return { customer, id, to, first };
  };
  const mine = async (blocks: number) => {
    await anvil.rpc.call('evm_mine');
    if (blocks > 1) await anvil.mine(blocks - 1);
  };
  const ledgerClean = async () => {
    const check = await t.http.get('/api/admin/ledger/check').set(bearer(admin)).expect(200);
    expect(check.body).toMatchObject({ ok: true, mismatches: [], negativeCustomerBalances: 0 });
  };

  beforeAll(async () => {
    setup = await startEvmPayouts({ env: { CHAIN_ETHEREUM_STUCK_MINUTES: '1' } });
    ({ anvil, t, db, payouts, admin } = setup);
  }, 180_000);

  afterAll(async () => {
    await setup?.close();
  });

  it('Send confirm shows the EVM fee from eth_feeHistory (next base fee + median tip, × 21,000 gas) and what the recipient gets', async () => {
    const customer = await signUp(t.http);
    const fee = (await t.http.get('/api/crypto/network-fee/ethereum').query({ coinAmount: '0.04' }).set(bearer(customer.token)).expect(200)).body as {
      estimatedFee: string;
      feeRate: string;
      recipientGets: string;
    };
    const history = await anvil.rpc.call<{ baseFeePerGas: string[] }>('eth_feeHistory', ['0xa', 'latest', [50]]);
    const nextBase = BigInt(history.baseFeePerGas[history.baseFeePerGas.length - 1]);
    // No transaction in the recent blocks yet: the fallback tip of 1 gwei.
    const perGas = nextBase + 1_000_000_000n;
    expect(fee).toEqual({
      token: 'ethereum',
      network: 'ethereum',
      coinAmount: '0.040000000000000000',
      estimatedFee: eth(21_000n * perGas),
      feeRate: eth(perGas),
      targetBlocks: 1,
      gasLimit: 21000,
      recipientGets: eth(4n * 10n ** 16n - 21_000n * perGas),
      feePaidBy: 'customer',
      // The schedule's withdrawal fee (none set here), taken before the network fee.
      withdrawalFee: '0',
    });
  });

  it('an unmined payout gets a same-nonce replacement with tip and fee cap +10 % or more, stored first; it completes once', async () => {
    await anvil.rpc.call('evm_setAutomine', [false]);
    try {
      const { customer, id, to, first } = await sentWithdrawal();
      expect(first).toMatchObject({ state: 'broadcast', bumps: 0 });
      await stuck(id);
      expect(await payouts.runOnce('ethereum')).toMatchObject({ bumped: 1, completed: 0 });
      const bumped = await payoutOf(id);
      expect(bumped).toMatchObject({ state: 'broadcast', bumps: 1, charged: first.charged });
      expect(bumped.txid).not.toBe(first.txid);
      expect(await replacedOf(id)).toEqual([{ txid: first.txid, reason: 'replaced' }]);
      const [before, after] = [parseTransaction(first.rawTx as Hex), parseTransaction(bumped.rawTx as Hex)];
      expect({ nonce: after.nonce, to: after.to, value: after.value, gas: after.gas }).toEqual({
        nonce: before.nonce,
        to: before.to,
        value: before.value,
        gas: before.gas,
      });
      expect(after.value).toBe(4n * 10n ** 16n - BigInt(first.charged));
      expect(after.maxPriorityFeePerGas! * 100n).toBeGreaterThanOrEqual(before.maxPriorityFeePerGas! * 110n);
      expect(after.maxFeePerGas! * 100n).toBeGreaterThanOrEqual(before.maxFeePerGas! * 110n);
      expect(BigInt(bumped.fee)).toBe(after.gas! * after.maxFeePerGas!);
      // Anvil's pool holds the replacement only.
      expect(await anvil.rpc.call<unknown>('eth_getTransactionByHash', [first.txid])).toBeNull();
      expect(await anvil.rpc.call<{ blockNumber: string | null }>('eth_getTransactionByHash', [bumped.txid])).toMatchObject({ blockNumber: null });

      await mine(CONFIRMATIONS);
      expect(await payouts.runOnce('ethereum')).toMatchObject({ completed: 1 });
      const done = await payoutOf(id);
      expect(done).toMatchObject({ state: 'completed', txid: bumped.txid });
      const receipt = await anvil.rpc.call<{ gasUsed: string; effectiveGasPrice: string }>('eth_getTransactionReceipt', [bumped.txid]);
      const paid = BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice);
      expect(done.fee).toBe(paid.toString());
      expect(await balanceOf(to)).toBe(after.value);
      const charged = BigInt(first.charged);
      expect(await feeLines(id)).toEqual(
        [
          ...(paid !== charged ? [{ code: 'network_fee_margin', amount: eth(charged - paid) }] : []),
          { code: 'network_fees', amount: eth(paid) },
          { code: 'withdrawals_settled', amount: eth(-charged) },
        ].sort((a, b) => a.code.localeCompare(b.code)),
      );
      const [tx] = (await t.http.get('/api/user/get-transaction').set(bearer(customer.token)).expect(200)).body as Array<Record<string, unknown>>;
      expect(tx).toMatchObject({ payoutState: 'completed', txHash: bumped.txid, fee: eth(paid), recipientGets: eth(after.value!) });
      expect(await payouts.runOnce('ethereum')).toMatchObject({ created: 0, signed: 0, broadcast: 0, completed: 0 });
      await ledgerClean();
    } finally {
      await anvil.rpc.call('evm_setAutomine', [true]);
    }
  });

  it('the version it replaced is mined instead of the replacement: that one completes the payout, once', async () => {
    await anvil.rpc.call('evm_setAutomine', [false]);
    try {
      const { id, to, first } = await sentWithdrawal();
      await stuck(id);
      expect(await payouts.runOnce('ethereum')).toMatchObject({ bumped: 1 });
      const bumped = await payoutOf(id);
      // A builder that only ever saw the first version: the replacement leaves the pool, the first is mined.
      await anvil.rpc.call('anvil_dropTransaction', [bumped.txid]);
      await anvil.rpc.call('eth_sendRawTransaction', [first.rawTx]);
      await mine(CONFIRMATIONS);
      expect(await payouts.runOnce('ethereum')).toMatchObject({ completed: 1 });
      expect(await payoutOf(id)).toMatchObject({ state: 'completed', txid: first.txid, rawTx: first.rawTx });
      expect(await replacedOf(id)).toEqual([{ txid: bumped.txid, reason: 'lost' }]);
      expect(await anvil.rpc.call<unknown>('eth_getTransactionReceipt', [bumped.txid])).toBeNull();
      expect(await balanceOf(to)).toBe(4n * 10n ** 16n - BigInt(first.charged));
      for (let i = 0; i < 2; i++) expect(await payouts.runOnce('ethereum')).toMatchObject({ completed: 0 });
      // One fee entry, whatever the runs.
      const entries = await rows<{ n: number }>(
        sql`select count(*)::int as n from journal_entries where kind = 'payout_network_fee' and transaction_id = ${id}`,
      );
      expect(entries[0].n).toBe(1);
      await ledgerClean();
    } finally {
      await anvil.rpc.call('evm_setAutomine', [true]);
    }
  });
});
