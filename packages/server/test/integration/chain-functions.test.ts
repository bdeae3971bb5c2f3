// The rules of the chain jobs' money functions (drizzle/0016_chain_functions.sql), each on its own: the chain tests
// drive them through real nodes, here the rows a node would have led to are written directly, so every branch —
// including the ones a node seldom produces — is checked on PGlite and PostgreSQL.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import type { ConnectedChain } from '../../src/modules/chain/chain-connections';
import { CREDIT_CHAIN_DEPOSIT, FAIL_PAYOUT } from '../../src/modules/chain/chain-functions';
import { DepositCreditsService } from '../../src/modules/chain/deposit-credits.service';
import { LedgerService } from '../../src/modules/ledger/ledger.service';
import { DATABASE_KINDS } from '../support/databases';
import { bearer } from '../support/test-app';
import { ADDRESSES, expectLedgerClean, fund, newCustomer, startWalletApp, type WalletApp } from '../support/wallet';

/** The watcher's cursor in these tests: blocks 90..100 kept, named b90..b100. */
const CURSOR = 100;
const REQUIRED = 3;

describe.each(DATABASE_KINDS)('the chain money functions on %s', (kind) => {
  let t: WalletApp;
  let db: Database;
  let ledger: LedgerService;
  let credits: DepositCreditsService;
  /** What `credit` uses of a connected network. */
  const bitcoin = { network: 'bitcoin', confirmations: REQUIRED } as ConnectedChain;

  const rows = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const balance = async (userId: string) =>
    (await rows<{ balance: string }>(sql`select balance::text as balance from ledger_accounts where user_id = ${userId} and token = 'bitcoin'`))[0]?.balance ??
    '0';
  const entries = async (entryKind: string, transactionId: string | null) =>
    (await rows<{ n: number }>(sql`select count(*)::int as n from journal_entries where kind = ${entryKind} and transaction_id = ${transactionId}`))[0].n;

  beforeAll(async () => {
    t = await startWalletApp(kind);
    db = t.app.get(DATABASE);
    ledger = t.app.get(LedgerService);
    credits = t.app.get(DepositCreditsService);
    await db.execute(sql`insert into chain_cursors (network, height, block_hash) values ('bitcoin', ${CURSOR}, ${`b${CURSOR}`})`);
    for (let height = 90; height <= CURSOR; height++) {
      await db.execute(
        sql`insert into chain_blocks (network, height, block_hash, parent_hash) values ('bitcoin', ${height}, ${`b${height}`}, ${`b${height - 1}`})`,
      );
    }
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('cp_credit_chain_deposit', () => {
    /** A deposit of 0.001 BTC found in block `height` (its hash `blockHash`), with its pending History row unless `noRow`. */
    const deposit = async (userId: string, height: number, options: { blockHash?: string; noRow?: boolean } = {}) => {
      const txid = randomUUID().replaceAll('-', '');
      const transactionId = options.noRow ? null : randomUUID();
      if (transactionId) {
        await db.execute(sql`
          insert into transactions (id, user_id, type, token, network, address, coin_amount, usd_amount, price, status, direction, details)
          values (${transactionId}, ${userId}, 'deposit', 'bitcoin', 'bitcoin', ${ADDRESSES.bitcoin}, 0.001, 50, 50000, 'pending', 'in',
            ${JSON.stringify({ txHash: txid, confirmations: 1, requiredConfirmations: REQUIRED })}::jsonb)`);
      }
      const [row] = await rows<{ id: string }>(sql`
        insert into chain_deposits (network, txid, output_index, user_id, token, address, amount_base, amount, block_height, block_hash, confirmations, required_confirmations, state, transaction_id)
        values ('bitcoin', ${txid}, 0, ${userId}, 'bitcoin', ${ADDRESSES.bitcoin}, 100000, 0.001, ${height}, ${options.blockHash ?? `b${height}`}, 1, ${REQUIRED}, 'confirming', ${transactionId})
        returning id`);
      return { id: row.id, txid, transactionId };
    };
    const state = async (id: string) =>
      (await rows<{ state: string; confirmations: number }>(sql`select state, confirmations from chain_deposits where id = ${id}`))[0];
    const history = async (transactionId: string) =>
      (
        await rows<{ status: string; confirmations: number }>(
          sql`select status, (details->>'confirmations')::int as confirmations from transactions where id = ${transactionId}`,
        )
      )[0];

    it('credits a deposit with its confirmations once: History row approved, one movement, the notification and the mail', async () => {
      const customer = await newCustomer(t);
      const found = await deposit(customer._id, CURSOR - REQUIRED + 1);
      expect(await credits.credit(bitcoin, found.id)).toBe(true);
      expect(await state(found.id)).toEqual({ state: 'credited', confirmations: REQUIRED });
      expect(await history(found.transactionId!)).toEqual({ status: 'approved', confirmations: REQUIRED });
      expect(await balance(customer._id)).toMatch(/^0\.001(0*)$/);
      // Again (a replayed poll, a second instance): nothing moves twice, nothing is told twice.
      expect(await credits.credit(bitcoin, found.id)).toBe(false);
      expect(await entries('chain_deposit_credit', found.transactionId)).toBe(1);
      const notices = (await t.http.get('/api/user/get-notifications').set(bearer(customer.token)).expect(200)).body as Array<{
        title: string;
        message: string;
      }>;
      expect(notices.filter((n) => n.title === 'Deposit approved')).toEqual([
        expect.objectContaining({ message: expect.stringContaining(`credited after ${REQUIRED} confirmations. Transaction hash: ${found.txid}`) }),
      ]);
      expect(await rows(sql`select subject from mail_outbox where "to" = ${customer.email}`)).toEqual([
        { subject: expect.stringMatching(/^Deposit credited: /) },
      ]);
      expect(await rows(sql`select action from audit_log where target_id = ${found.transactionId}`)).toEqual([{ action: 'chain.deposit_credit' }]);
      await expectLedgerClean(t);
    });

    it('credits nothing before the confirmations are reached, nor for more confirmations than the cursor has', async () => {
      const customer = await newCustomer(t);
      const found = await deposit(customer._id, CURSOR - REQUIRED + 2);
      expect(await credits.credit(bitcoin, found.id)).toBe(false);
      // A caller that claims the count (its texts would say so) while the cursor has one less.
      expect(await ledger.run(CREDIT_CHAIN_DEPOSIT, (shard) => [found.id, REQUIRED, REQUIRED, shard, null, null])).toBeNull();
      // A count below the network's requirement, however the cursor stands.
      expect(await ledger.run(CREDIT_CHAIN_DEPOSIT, (shard) => [found.id, REQUIRED - 1, REQUIRED, shard, null, null])).toBeNull();
      expect(await state(found.id)).toEqual({ state: 'confirming', confirmations: 1 });
      expect(await history(found.transactionId!)).toEqual({ status: 'pending', confirmations: 1 });
      expect(await balance(customer._id)).toBe('0');
    });

    it('credits nothing from a block the watcher no longer keeps in the chain (orphaned), nor without its History row', async () => {
      const customer = await newCustomer(t);
      const orphaned = await deposit(customer._id, 95, { blockHash: 'orphaned-95' });
      const rowless = await deposit(customer._id, 95, { noRow: true });
      expect(await credits.credit(bitcoin, orphaned.id)).toBe(false);
      expect(await credits.credit(bitcoin, rowless.id)).toBe(false);
      expect(await state(orphaned.id)).toEqual({ state: 'confirming', confirmations: 1 });
      expect(await state(rowless.id)).toEqual({ state: 'confirming', confirmations: 1 });
      expect(await balance(customer._id)).toBe('0');
    });

    it('a History row voided by an admin meanwhile drops the deposit: never credited', async () => {
      const customer = await newCustomer(t);
      const found = await deposit(customer._id, 95);
      await db.execute(sql`update transactions set voided_at = now() where id = ${found.transactionId}`);
      expect(await credits.credit(bitcoin, found.id)).toBe(false);
      expect(await state(found.id)).toEqual({ state: 'dropped', confirmations: CURSOR - 95 + 1 });
      expect(await entries('chain_deposit_credit', found.transactionId)).toBe(0);
      expect(await balance(customer._id)).toBe('0');
      expect(await rows(sql`select 1 from notifications where user_id = ${customer._id} and title = 'Deposit approved'`)).toEqual([]);
    });
  });

  describe('cp_fail_payout', () => {
    /** A customer holding 100 USD of BTC whose 50 USD withdrawal an admin approved, with its payout row in `state`. */
    const approvedWithdrawal = async (state: 'approved' | 'awaiting_funds' | 'signed') => {
      const customer = await newCustomer(t);
      await fund(t, customer._id, 'bitcoin', 100);
      const sent = await t.http
        .post('/api/crypto/send-crypto/bitcoin')
        .set(bearer(customer.token))
        .send({ transferData: { address: ADDRESSES.bitcoin, amount: 50, symbol: 'btc', coinAmount: '0.001' } })
        .expect(201);
      const id = sent.body.transaction._id as string;
      await t.http.post('/api/admin/modify-transaction').set(bearer(t.admin)).send({ tId: id, modification: 'approved' }).expect(200);
      const signed = state === 'signed' ? { rawTx: '00', txid: randomUUID().replaceAll('-', '') } : { rawTx: null, txid: null };
      const [payout] = await rows<{ id: string }>(sql`
        insert into payouts (transaction_id, network, address, amount_base, state, raw_tx, txid, required_confirmations)
        values (${id}, 'bitcoin', ${ADDRESSES.bitcoin}, 100000, ${state}, ${signed.rawTx}, ${signed.txid}, ${REQUIRED}) returning id`);
      return { customer, id, payoutId: payout.id };
    };
    const fail = (payoutId: string, userId: string) =>
      ledger.run(FAIL_PAYOUT, (shard) => [
        payoutId,
        'The signer refused: a test',
        { payoutState: 'failed', confirmations: 0, requiredConfirmations: REQUIRED },
        shard,
        { notifications: [{ user_id: userId, title: 'Withdrawal failed', message: 'returned', status: 'rejected' }] },
      ]);
    const payout = async (payoutId: string) =>
      (await rows<{ state: string; lastError: string | null }>(sql`select state, last_error as "lastError" from payouts where id = ${payoutId}`))[0];
    const withdrawal = async (id: string) =>
      (
        await rows<{ status: string; payoutState: string | null }>(
          sql`select status, details->>'payoutState' as "payoutState" from transactions where id = ${id}`,
        )
      )[0];
    const failedNotices = async (userId: string) =>
      (await rows<{ n: number }>(sql`select count(*)::int as n from notifications where user_id = ${userId} and title = 'Withdrawal failed'`))[0].n;

    it('fails an unsigned payout and returns the held amount once, with the reason: the withdrawal rejected, the customer told', async () => {
      for (const state of ['approved', 'awaiting_funds'] as const) {
        const { customer, id, payoutId } = await approvedWithdrawal(state);
        const held = await balance(customer._id);
        expect(await fail(payoutId, customer._id)).toBe(true);
        expect(await payout(payoutId)).toEqual({ state: 'failed', lastError: 'The signer refused: a test' });
        expect(await withdrawal(id)).toEqual({ status: 'rejected', payoutState: 'failed' });
        expect(await balance(customer._id)).toMatch(/^0\.002(0*)$/);
        expect(held).toMatch(/^0\.001(0*)$/);
        const [reversal] = await rows<{ reason: string }>(
          sql`select reason from journal_entries where kind = 'payout_failed_reversal' and transaction_id = ${id}`,
        );
        expect(reversal.reason).toBe('payout failed: The signer refused: a test');
        // Again: nothing is returned twice.
        expect(await fail(payoutId, customer._id)).toBe(false);
        expect(await entries('payout_failed_reversal', id)).toBe(1);
        expect(await failedNotices(customer._id)).toBe(1);
      }
      await expectLedgerClean(t);
    });

    it('never fails a payout that was signed (its payment may be on the chain)', async () => {
      const { customer, id, payoutId } = await approvedWithdrawal('signed');
      expect(await fail(payoutId, customer._id)).toBe(false);
      expect(await payout(payoutId)).toEqual({ state: 'signed', lastError: null });
      expect((await withdrawal(id)).status).toBe('approved');
      expect(await balance(customer._id)).toMatch(/^0\.001(0*)$/);
      expect(await entries('payout_failed_reversal', id)).toBe(0);
      expect(await failedNotices(customer._id)).toBe(0);
    });

    it('a withdrawal an admin rejected meanwhile: the payout fails, nothing is returned a second time', async () => {
      const { customer, id, payoutId } = await approvedWithdrawal('approved');
      await t.http.post('/api/admin/modify-transaction').set(bearer(t.admin)).send({ tId: id, modification: 'rejected' }).expect(200);
      const afterAdmin = await balance(customer._id);
      expect(await fail(payoutId, customer._id)).toBe(false);
      expect(await payout(payoutId)).toEqual({ state: 'failed', lastError: 'The signer refused: a test' });
      expect(await withdrawal(id)).toEqual({ status: 'rejected', payoutState: 'failed' });
      expect(await balance(customer._id)).toBe(afterAdmin);
      expect(await entries('payout_failed_reversal', id)).toBe(0);
      expect(await failedNotices(customer._id)).toBe(0);
      await expectLedgerClean(t);
    });
  });
});
