// The rules of cp_complete_payout (drizzle/0019_payout_fees.sql), each on its own: the chain tests drive it through real
// nodes (chain-payout-bumps-*.test.ts), here the payout rows a node would have led to are written directly, so every
// branch is checked on PGlite and PostgreSQL.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { LedgerService } from '../../src/modules/ledger/ledger.service';
import { COMPLETE_PAYOUT } from '../../src/modules/payouts/payout-functions';
import { DATABASE_KINDS } from '../support/databases';
import { bearer } from '../support/test-app';
import { ADDRESSES, expectLedgerClean, fund, newCustomer, startWalletApp, type WalletApp } from '../support/wallet';

const REQUIRED = 3;
const PLATFORM_CODES = ['withdrawals_settled', 'network_fees', 'network_fee_margin'] as const;

describe.each(DATABASE_KINDS)('cp_complete_payout on %s', (kind) => {
  let t: WalletApp;
  let db: Database;
  let ledger: LedgerService;

  const rows = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  /** The platform accounts a completion moves, summed over their shards, per token. */
  const platform = async (token: string) => {
    const found = await rows<{ code: string; balance: string }>(sql`
      select split_part(platform_code, '#', 1) as code, sum(balance)::text as balance from ledger_accounts
      where kind = 'platform' and token = ${token} group by 1`);
    return Object.fromEntries(PLATFORM_CODES.map((code) => [code, Number(found.find((row) => row.code === code)?.balance ?? '0')]));
  };
  /** A customer's approved 50 USD (0.001 BTC) withdrawal with its payout broadcast and confirming, charged `charged` sat. */
  const confirmingPayout = async (charged: number, token: 'bitcoin' | 'tether' = 'bitcoin') => {
    const customer = await newCustomer(t);
    await fund(t, customer._id, token, 100);
    const sent = await t.http
      .post(`/api/crypto/send-crypto/${token}`)
      .set(bearer(customer.token))
      .send({
        transferData: {
          address: token === 'bitcoin' ? ADDRESSES.bitcoin : ADDRESSES.ethereum,
          amount: 50,
          network: token === 'bitcoin' ? 'bitcoin' : 'ethereum',
        },
      })
      .expect(201);
    const id = sent.body.transaction._id as string;
    await t.http.post('/api/admin/modify-transaction').set(bearer(t.admin)).send({ tId: id, modification: 'approved' }).expect(200);
    const txid = randomUUID().replaceAll('-', '');
    const [payout] = await rows<{ id: string }>(sql`
      insert into payouts (transaction_id, network, address, amount_base, state, raw_tx, txid, fee_base, charged_fee_base, confirmations, required_confirmations)
      values (${id}, ${token === 'bitcoin' ? 'bitcoin' : 'ethereum'}, ${ADDRESSES.bitcoin}, 100000, 'confirming', '00', ${txid}, ${charged}, ${charged}, 1, ${REQUIRED})
      returning id`);
    return { customer, id, payoutId: payout.id, txid };
  };
  const complete = (payoutId: string, txid: string, feeBase: string, options: { confirmations?: number; feeToken?: string; decimals?: number } = {}) =>
    ledger.run(COMPLETE_PAYOUT, (shard) => [
      payoutId,
      txid,
      options.confirmations ?? REQUIRED,
      feeBase,
      options.feeToken ?? 'bitcoin',
      options.decimals ?? 8,
      { payoutState: 'completed', txHash: txid, fee: feeBase, confirmations: options.confirmations ?? REQUIRED },
      shard,
      { audit: [{ actor_id: null, actor_role: 'system', action: 'chain.payout_completed', target_type: 'transaction', target_id: payoutId }] },
    ]);
  const payout = async (payoutId: string) =>
    (
      await rows<{ state: string; fee: string; completedAt: string | null }>(
        sql`select state, fee_base::text as fee, completed_at as "completedAt" from payouts where id = ${payoutId}`,
      )
    )[0];
  const feeEntries = async (transactionId: string) =>
    rows<{ code: string; amount: string }>(sql`
      select split_part(a.platform_code, '#', 1) as code, l.amount::text as amount from journal_entries e
      join journal_lines l on l.entry_id = e.id join ledger_accounts a on a.id = l.account_id
      where e.kind = 'payout_network_fee' and e.transaction_id = ${transactionId} order by 1`);

  /** The message of the error a call raised, with its causes (PGlite's driver wraps the database's error). */
  const raised = async (call: Promise<unknown>): Promise<string> => {
    try {
      await call;
    } catch (error) {
      const messages: string[] = [];
      for (let current: unknown = error; current instanceof Error; current = current.cause) messages.push(current.message);
      return messages.join(' | ');
    }
    return 'nothing raised';
  };

  beforeAll(async () => {
    t = await startWalletApp(kind);
    db = t.app.get(DATABASE);
    ledger = t.app.get(LedgerService);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('completes once with the actual fee; the charged fee leaves the settled amount, the platform pays the difference', async () => {
    const { id, payoutId, txid } = await confirmingPayout(1410);
    const before = await platform('bitcoin');
    // A bump raised the fee to 2,000 sat: 590 sat more than the customer was charged.
    expect(await complete(payoutId, txid, '2000')).toBe(true);
    expect(await payout(payoutId)).toMatchObject({ state: 'completed', fee: '2000' });
    expect((await payout(payoutId)).completedAt).not.toBeNull();
    const after = await platform('bitcoin');
    expect(after.withdrawals_settled - before.withdrawals_settled).toBeCloseTo(-0.0000141, 12);
    expect(after.network_fees - before.network_fees).toBeCloseTo(0.00002, 12);
    expect(after.network_fee_margin - before.network_fee_margin).toBeCloseTo(-0.0000059, 12);
    expect(await feeEntries(id)).toEqual([
      { code: 'network_fee_margin', amount: '-0.000005900000000000' },
      { code: 'network_fees', amount: '0.000020000000000000' },
      { code: 'withdrawals_settled', amount: '-0.000014100000000000' },
    ]);
    const [details] = await rows<{ payoutState: string; fee: string }>(
      sql`select details->>'payoutState' as "payoutState", details->>'fee' as fee from transactions where id = ${id}`,
    );
    expect(details).toEqual({ payoutState: 'completed', fee: '2000' });
    // Again (a retry, a second instance): nothing more is booked.
    expect(await complete(payoutId, txid, '2000')).toBe(false);
    expect(await feeEntries(id)).toHaveLength(3);
    expect(await platform('bitcoin')).toEqual(after);
    await expectLedgerClean(t);
  });

  it('keeps what the chain took less than the charge in the margin (EVM: the base fee fell)', async () => {
    const { id, payoutId, txid } = await confirmingPayout(1500);
    expect(await complete(payoutId, txid, '1200')).toBe(true);
    expect(await feeEntries(id)).toEqual([
      { code: 'network_fee_margin', amount: '0.000003000000000000' },
      { code: 'network_fees', amount: '0.000012000000000000' },
      { code: 'withdrawals_settled', amount: '-0.000015000000000000' },
    ]);
    await expectLedgerClean(t);
  });

  it('books nothing for a fee of zero and writes no entry when the charge equals nothing paid', async () => {
    const { id, payoutId, txid } = await confirmingPayout(0);
    expect(await complete(payoutId, txid, '0')).toBe(true);
    expect(await payout(payoutId)).toMatchObject({ state: 'completed', fee: '0' });
    expect(await feeEntries(id)).toEqual([]);
  });

  it('completes nothing for another txid, too few confirmations, or a payout not broadcast', async () => {
    const { id, payoutId, txid } = await confirmingPayout(1410);
    expect(await complete(payoutId, 'f'.repeat(64), '1410')).toBe(false);
    expect(await complete(payoutId, txid, '1410', { confirmations: REQUIRED - 1 })).toBe(false);
    expect(await complete(randomUUID(), txid, '1410')).toBe(false);
    expect(await payout(payoutId)).toMatchObject({ state: 'confirming' });
    await db.execute(sql`update payouts set state = 'signed' where id = ${payoutId}`);
    expect(await complete(payoutId, txid, '1410')).toBe(false);
    expect(await feeEntries(id)).toEqual([]);
  });

  it('a token payout charges nothing: the platform pays its whole fee in the network coin', async () => {
    const { id, payoutId, txid } = await confirmingPayout(0, 'tether');
    const before = await platform('ethereum');
    expect(await complete(payoutId, txid, '21000000000000', { feeToken: 'ethereum', decimals: 18 })).toBe(true);
    const after = await platform('ethereum');
    expect(after.network_fees - before.network_fees).toBeCloseTo(0.000021, 15);
    expect(after.network_fee_margin - before.network_fee_margin).toBeCloseTo(-0.000021, 15);
    expect((await feeEntries(id)).map((line) => line.code)).toEqual(['network_fee_margin', 'network_fees']);
    await expectLedgerClean(t);
  });

  it('refuses a fee charged in one token and paid in another, and an unknown fee', async () => {
    const charged = await confirmingPayout(1410, 'tether');
    expect(await raised(complete(charged.payoutId, charged.txid, '21000000000000', { feeToken: 'ethereum', decimals: 18 }))).toMatch(/a fee is charged in/);
    const unknown = await confirmingPayout(1410);
    expect(await raised(complete(unknown.payoutId, unknown.txid, null as unknown as string))).toMatch(/the fee paid must be known/);
    expect(await payout(charged.payoutId)).toMatchObject({ state: 'confirming' });
    expect(await feeEntries(charged.id)).toEqual([]);
  });
});
