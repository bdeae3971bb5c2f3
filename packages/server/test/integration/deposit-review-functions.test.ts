// An admin's decision on a chain deposit orphaned after credit (drizzle/0017_deposit_review.sql), through the routes:
// "take back" (cp_reverse_chain_deposit, a four-eyes money action) and "keep" (cp_keep_chain_deposit), and the drop of
// a deposit never mined again (cp_drop_chain_deposit). The rows a node would have led to are written directly and the
// credit goes through the watcher's own money call (DepositCreditsService), so every rule is checked on PGlite and PostgreSQL; the chain tests
// (chain-deposit-drops.test.ts, e2e/deposit-review.test.ts) drive them through real nodes.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { addAdministrator } from '../../src/modules/admin/add-administrator';
import type { ConnectedChain } from '../../src/modules/chain/chain-connections';
import { DepositCreditsService } from '../../src/modules/chain/deposit-credits.service';
import { DepositDropsService } from '../../src/modules/chain/deposit-drops.service';
import { DATABASE_KINDS } from '../support/databases';
import { bearer } from '../support/test-app';
import { ADDRESSES, expectLedgerClean, fund, newCustomer, startWalletApp, type WalletApp } from '../support/wallet';

/** The watcher's cursor in these tests: blocks 90..100 kept, named b90..b100. */
const CURSOR = 100;
const REQUIRED = 3;
/** What `credit` and `dropStale` use of a connected network. */
const bitcoin = { network: 'bitcoin', confirmations: REQUIRED, dropAfterBlocks: 5 } as ConnectedChain;

type Customer = Awaited<ReturnType<typeof newCustomer>>;

/** The app (bitcoin at $50,000) with a watcher cursor for bitcoin and what flags, drops and spends deposits. */
function world(t: () => WalletApp) {
  const db = () => t().app.get<Database>(DATABASE);
  const rows = async <T>(query: ReturnType<typeof sql>) => ((await db().execute(query)) as unknown as { rows: T[] }).rows;
  return {
    rows,
    async setUp() {
      await db().execute(sql`insert into chain_cursors (network, height, block_hash) values ('bitcoin', ${CURSOR}, ${`b${CURSOR}`})`);
      for (let height = 90; height <= CURSOR; height++) {
        await db().execute(
          sql`insert into chain_blocks (network, height, block_hash, parent_hash) values ('bitcoin', ${height}, ${`b${height}`}, ${`b${height - 1}`})`,
        );
      }
    },
    /** A deposit of `btc` found in a block, credited as the watcher credits it (DepositCreditsService), then orphaned by a reorganisation (flagged). */
    async flagged(customer: Customer, btc: string) {
      const txid = randomUUID().replaceAll('-', '');
      const transactionId = randomUUID();
      await db().execute(sql`
        insert into transactions (id, user_id, type, token, network, address, coin_amount, usd_amount, price, status, direction, details)
        values (${transactionId}, ${customer._id}, 'deposit', 'bitcoin', 'bitcoin', ${ADDRESSES.bitcoin}, ${btc}, ${Number(btc) * 50000}, 50000, 'pending', 'in',
          ${JSON.stringify({ txHash: txid, confirmations: 1, requiredConfirmations: REQUIRED })}::jsonb)`);
      const [row] = await rows<{ id: string }>(sql`
        insert into chain_deposits (network, txid, output_index, user_id, token, address, amount_base, amount, block_height, block_hash, confirmations, required_confirmations, state, transaction_id)
        values ('bitcoin', ${txid}, 0, ${customer._id}, 'bitcoin', ${ADDRESSES.bitcoin}, ${Math.round(Number(btc) * 1e8)}, ${btc}, ${CURSOR - REQUIRED + 1}, ${`b${CURSOR - REQUIRED + 1}`}, 1, ${REQUIRED}, 'confirming', ${transactionId})
        returning id`);
      expect(await t().app.get(DepositCreditsService).credit(bitcoin, row.id)).toBe(true);
      // What the watcher's rewind does to a credited deposit whose block is orphaned.
      await db().execute(sql`update chain_deposits set review = 'orphaned_after_credit', block_height = null, block_hash = null where id = ${row.id}`);
      return { id: row.id, txid, transactionId };
    },
    async deposit(id: string) {
      return (
        await rows<{ state: string; resolution: string | null; reason: string | null; reviewedBy: string | null }>(
          sql`select state, review_resolution as resolution, review_reason as reason, reviewed_by as "reviewedBy" from chain_deposits where id = ${id}`,
        )
      )[0];
    },
    async balance(userId: string) {
      return (
        (await rows<{ balance: string }>(sql`select balance::text as balance from ledger_accounts where user_id = ${userId} and token = 'bitcoin'`))[0]
          ?.balance ?? '0'
      );
    },
    async reversals(transactionId: string) {
      return rows<{ reason: string; createdBy: string | null }>(
        sql`select reason, created_by as "createdBy" from journal_entries where kind = 'chain_deposit_reversal' and transaction_id = ${transactionId}`,
      );
    },
    async history(transactionId: string) {
      return (await rows<{ status: string; note: string | null }>(sql`select status, note from transactions where id = ${transactionId}`))[0];
    },
    /** The customer sends `usd` of their BTC away (a pending withdrawal holds it): they no longer hold it all. */
    async spend(customer: Customer, usd: number) {
      await t()
        .http.post('/api/crypto/send-crypto/bitcoin')
        .set(bearer(customer.token))
        .send({ transferData: { address: ADDRESSES.bitcoin, amount: usd } })
        .expect(201);
    },
  };
}

const takeBack = (t: WalletApp, id: string, admin: string, reason = 'Double-spent in the reorganisation: the coins never arrived.') =>
  t.http.post(`/api/admin/chain/deposit-reviews/${id}/take-back`).set(bearer(admin)).send({ reason });
const keep = (t: WalletApp, id: string, admin: string, reason = 'Mined again in block 102: the coins are ours.') =>
  t.http.post(`/api/admin/chain/deposit-reviews/${id}/keep`).set(bearer(admin)).send({ reason });

describe.each(DATABASE_KINDS)('deciding on a deposit orphaned after credit on %s', (kind) => {
  let t: WalletApp;
  const w = world(() => t);

  beforeAll(async () => {
    t = await startWalletApp(kind);
    await w.setUp();
  });

  afterAll(async () => {
    await t?.close();
  });

  it('lists the flagged deposits with their customer, open ones first; admins only', async () => {
    const customer = await newCustomer(t);
    const found = await w.flagged(customer, '0.002');
    const list = (await t.http.get('/api/admin/chain/deposit-reviews').set(bearer(t.admin)).expect(200)).body as Array<Record<string, unknown>>;
    expect(list.find((row) => row._id === found.id)).toEqual({
      _id: found.id,
      network: 'bitcoin',
      txHash: found.txid,
      outputIndex: 0,
      userId: customer._id,
      userEmail: customer.email,
      token: 'bitcoin',
      symbol: 'BTC',
      amount: '0.002',
      state: 'credited',
      blockHeight: null,
      transactionId: found.transactionId,
      resolution: null,
      reason: null,
      resolvedAt: null,
      resolvedBy: null,
      createdAt: expect.any(String),
    });
    const [status] = (await t.http.get('/api/admin/chain/status').set(bearer(t.admin)).expect(200)).body as unknown[];
    expect(status).toBeUndefined(); // no node is connected here: the status screen lists none
    await t.http.get('/api/admin/chain/deposit-reviews').set(bearer(customer.token)).expect(403);
    await takeBack(t, found.id, customer.token).expect(403);
    await keep(t, found.id, customer.token).expect(403);
    await t.http.get('/api/admin/chain/deposit-reviews').expect(401);
  });

  it('take back: the credit returns to the deposits account with the reason; History rejected; the customer told; audited; once', async () => {
    const customer = await newCustomer(t);
    const found = await w.flagged(customer, '0.002');
    expect(await w.balance(customer._id)).toMatch(/^0\.002(0*)$/);
    const answer = await takeBack(t, found.id, t.admin).expect(200);
    expect(answer.body).toMatchObject({
      message: `0.00200000 BTC was taken back from ${customer.email}.`,
      review: { _id: found.id, state: 'dropped', resolution: 'taken_back', reason: 'Double-spent in the reorganisation: the coins never arrived.' },
    });
    expect(answer.body.review.resolvedBy).toMatch(/@/);
    expect(await w.balance(customer._id)).toMatch(/^0(\.0+)?$/);
    expect(await w.deposit(found.id)).toMatchObject({ state: 'dropped', resolution: 'taken_back' });
    expect(await w.history(found.transactionId)).toEqual({
      status: 'rejected',
      note: 'Reversed after its block was dropped from the blockchain: Double-spent in the reorganisation: the coins never arrived.',
    });
    expect(await w.reversals(found.transactionId)).toEqual([
      { reason: 'deposit taken back: Double-spent in the reorganisation: the coins never arrived.', createdBy: expect.any(String) },
    ]);
    const notices = (await t.http.get('/api/user/get-notifications').set(bearer(customer.token)).expect(200)).body as Array<{
      title: string;
      message: string;
    }>;
    expect(notices.filter((n) => n.title === 'Deposit reversed')).toEqual([
      expect.objectContaining({
        message: `Your deposit of 0.00200000 BTC on Bitcoin was reversed after its block was dropped from the blockchain. Reason: Double-spent in the reorganisation: the coins never arrived. Transaction hash: ${found.txid}`,
      }),
    ]);
    expect(await w.rows(sql`select subject from mail_outbox where "to" = ${customer.email} and subject like 'Deposit reversed%'`)).toEqual([
      { subject: 'Deposit reversed: 0.00200000 BTC' },
    ]);
    expect(
      await w.rows(sql`select action, actor_role as role, after->>'reason' as reason from audit_log where target_id = ${found.transactionId} order by id`),
    ).toEqual([
      { action: 'chain.deposit_credit', role: 'system', reason: null },
      { action: 'chain.deposit_take_back', role: 'admin', reason: 'Double-spent in the reorganisation: the coins never arrived.' },
    ]);
    // Once: again, or keeping it now, changes nothing.
    expect((await takeBack(t, found.id, t.admin).expect(409)).body.error).toBe('This deposit was already taken back.');
    expect((await keep(t, found.id, t.admin).expect(409)).body.error).toBe('This deposit was already taken back.');
    expect(await w.reversals(found.transactionId)).toHaveLength(1);
    // The status screen's "to review" count no longer counts it; the list shows it decided, below the open ones.
    const list = (await t.http.get('/api/admin/chain/deposit-reviews').set(bearer(t.admin)).expect(200)).body as Array<{
      _id: string;
      resolution: string | null;
    }>;
    const decided = list.findIndex((row) => row._id === found.id);
    expect(list.slice(decided).every((row) => row.resolution !== null)).toBe(true);
    await expectLedgerClean(t);
  });

  it('take back refuses (409, nothing changes) when the customer no longer holds the amount; keep then resolves it', async () => {
    const customer = await newCustomer(t);
    const found = await w.flagged(customer, '0.002'); // $100
    await w.spend(customer, 60);
    const before = await w.balance(customer._id);
    const refused = await takeBack(t, found.id, t.admin).expect(409);
    expect(refused.body.error).toBe(
      `The customer (${customer.email}) no longer holds the 0.00200000 BTC of this deposit: nothing was taken back. Keep it (accept the loss) or settle it with the customer.`,
    );
    expect(await w.balance(customer._id)).toBe(before);
    expect(await w.deposit(found.id)).toEqual({ state: 'credited', resolution: null, reason: null, reviewedBy: null });
    expect(await w.history(found.transactionId)).toEqual({ status: 'approved', note: null });
    expect(await w.reversals(found.transactionId)).toEqual([]);
    expect(await w.rows(sql`select 1 from notifications where user_id = ${customer._id} and title = 'Deposit reversed'`)).toEqual([]);

    const kept = await keep(t, found.id, t.admin).expect(200);
    expect(kept.body).toMatchObject({
      message: `Kept: ${customer.email} keeps the 0.00200000 BTC; the review is resolved.`,
      review: { state: 'credited', resolution: 'kept', reason: 'Mined again in block 102: the coins are ours.' },
    });
    expect(await w.balance(customer._id)).toBe(before);
    expect(
      await w.rows(
        sql`select action, after->>'resolution' as resolution from audit_log where target_id = ${found.transactionId} and action = 'chain.deposit_keep'`,
      ),
    ).toEqual([{ action: 'chain.deposit_keep', resolution: 'kept' }]);
    expect((await keep(t, found.id, t.admin).expect(409)).body.error).toBe('This deposit was already kept: its review is resolved.');
    expect((await takeBack(t, found.id, t.admin).expect(409)).body.error).toBe('This deposit was already kept: its review is resolved.');
    await expectLedgerClean(t);
  });

  it('refuses what is not waiting for a decision: unknown, not flagged, a History row settled by hand; a reason is required', async () => {
    const customer = await newCustomer(t);
    expect((await takeBack(t, randomUUID(), t.admin).expect(404)).body.error).toBe('No deposit flagged for review has this id.');
    expect((await keep(t, 'not-an-id', t.admin).expect(404)).body.error).toBe('No deposit flagged for review has this id.');
    // A credited deposit that was never orphaned is not in review.
    const found = await w.flagged(customer, '0.001');
    await t.app.get<Database>(DATABASE).execute(sql`update chain_deposits set review = null where id = ${found.id}`);
    await takeBack(t, found.id, t.admin).expect(404);
    await t.app.get<Database>(DATABASE).execute(sql`update chain_deposits set review = 'orphaned_after_credit' where id = ${found.id}`);
    // Its History row rejected by hand: that already took the credit back.
    await t.http.post('/api/admin/modify-transaction').set(bearer(t.admin)).send({ tId: found.transactionId, modification: 'rejected' }).expect(200);
    expect((await takeBack(t, found.id, t.admin).expect(409)).body.error).toBe(
      'Its History row is rejected now: an admin settled it by hand, which already took the credit back. Keep it to close the review.',
    );
    expect(await w.balance(customer._id)).toMatch(/^0(\.0+)?$/);
    // Keep closes the review.
    await keep(t, found.id, t.admin).expect(200);
    // Without a reason.
    const other = await w.flagged(customer, '0.001');
    expect((await takeBack(t, other.id, t.admin, '  ').expect(400)).body.error).toContain('A reason is required.');
    expect((await keep(t, other.id, t.admin, 'x'.repeat(501)).expect(400)).body.error).toContain('The reason must be at most 500 characters.');
    await expectLedgerClean(t);
  });

  it('drops a deposit orphaned before credit once the cursor is DROP_AFTER_BLOCKS past the fork, once; never one mined again or settled', async () => {
    const drops = t.app.get(DepositDropsService);
    const customer = await newCustomer(t);
    const seen = async (orphanedAt: number, status: 'pending' | 'approved' = 'pending') => {
      const txid = randomUUID().replaceAll('-', '');
      const transactionId = randomUUID();
      await t.app.get<Database>(DATABASE).execute(sql`
        insert into transactions (id, user_id, type, token, network, address, coin_amount, usd_amount, price, status, direction, details)
        values (${transactionId}, ${customer._id}, 'deposit', 'bitcoin', 'bitcoin', ${ADDRESSES.bitcoin}, 0.001, 50, 50000, ${status}, 'in',
          ${JSON.stringify({ txHash: txid, confirmations: 0, requiredConfirmations: REQUIRED })}::jsonb)`);
      const [row] = await w.rows<{ id: string }>(sql`
        insert into chain_deposits (network, txid, output_index, user_id, token, address, amount_base, amount, confirmations, required_confirmations, state, transaction_id, orphaned_at_height)
        values ('bitcoin', ${txid}, 0, ${customer._id}, 'bitcoin', ${ADDRESSES.bitcoin}, 100000, 0.001, 0, ${REQUIRED}, 'seen', ${transactionId}, ${orphanedAt})
        returning id`);
      return { id: row.id, transactionId };
    };
    const due = await seen(CURSOR - 5);
    const notYet = await seen(CURSOR - 4);
    const settledByHand = await seen(CURSOR - 6, 'approved');
    // Dropped at the cursor (100): orphaned at 95 or below with 5 blocks to go.
    expect(await drops.dropStale(bitcoin, CURSOR)).toBe(1);
    expect(await w.deposit(due.id)).toMatchObject({ state: 'dropped' });
    expect(await w.history(due.transactionId)).toEqual({
      status: 'rejected',
      note: 'Dropped: its block left the blockchain and the payment was not mined again within 5 blocks. Not credited.',
    });
    expect(await w.deposit(notYet.id)).toMatchObject({ state: 'seen' });
    // An admin's hand settlement stands: the deposit is dropped, its History row stays approved, nobody is told.
    expect(await w.deposit(settledByHand.id)).toMatchObject({ state: 'dropped' });
    expect(await w.history(settledByHand.transactionId)).toEqual({ status: 'approved', note: null });
    expect(await w.rows(sql`select count(*)::int as n from notifications where user_id = ${customer._id} and title = 'Deposit rejected'`)).toEqual([{ n: 1 }]);
    // Once: again, nothing.
    expect(await drops.dropStale(bitcoin, CURSOR)).toBe(0);
    // A caller whose cursor is further than the stored one drops nothing early: the function reads the cursor itself.
    expect(await drops.dropStale(bitcoin, CURSOR + 10)).toBe(0);
    expect(await w.deposit(notYet.id)).toMatchObject({ state: 'seen' });
  });
});

describe.each(DATABASE_KINDS)('taking a deposit back under four-eyes (APPROVAL_THRESHOLD_USD=100) on %s', (kind) => {
  let t: WalletApp;
  let checker: string;
  const w = world(() => t);

  beforeAll(async () => {
    t = await startWalletApp(kind, { APPROVAL_THRESHOLD_USD: '100' });
    await w.setUp();
    await addAdministrator(t.app.get(DATABASE), { name: 'Checker', email: 'checker@test.local', password: 'checker-password-1' });
    checker = (await t.http.post('/api/admin/login-admin').send({ email: 'checker@test.local', password: 'checker-password-1' }).expect(200)).body.token;
  });

  afterAll(async () => {
    await t?.close();
  });

  const approve = (id: string, token = checker) => t.http.post(`/api/admin/approvals/${id}/approve`).set(bearer(token));

  it('above the threshold it is only a request; a second admin applies exactly the bound lines, once', async () => {
    const customer = await newCustomer(t);
    const found = await w.flagged(customer, '0.01'); // $500
    const held = await takeBack(t, found.id, t.admin).expect(202);
    expect(held.body).toMatchObject({ pendingApproval: true, approvalId: expect.any(String) });
    // Nothing happened yet.
    expect(await w.balance(customer._id)).toMatch(/^0\.01(0*)$/);
    expect(await w.deposit(found.id)).toMatchObject({ state: 'credited', resolution: null });
    const approvals = (await t.http.get('/api/admin/approvals?status=pending').set(bearer(checker)).expect(200)).body as Array<Record<string, unknown>>;
    expect(approvals.find((a) => a._id === held.body.approvalId)).toMatchObject({
      action: 'reverse-chain-deposit',
      userId: customer._id,
      transactionId: found.transactionId,
      usdValue: '500',
      gatedBecause: ['threshold'],
      reason: 'Double-spent in the reorganisation: the coins never arrived.',
      summary: `Take back the chain deposit of 0.01000000 BTC from ${customer.email} (its block was orphaned after credit)`,
      posting: [
        { account: 'customer', userId: customer._id, token: 'bitcoin', amount: '-0.01', symbol: 'BTC' },
        { account: 'deposits', token: 'bitcoin', amount: '0.01', symbol: 'BTC' },
      ],
    });
    // Not by the requester.
    await approve(held.body.approvalId, t.admin).expect(403);
    await approve(held.body.approvalId).expect(200);
    expect(await w.balance(customer._id)).toMatch(/^0(\.0+)?$/);
    expect(await w.deposit(found.id)).toMatchObject({ state: 'dropped', resolution: 'taken_back' });
    expect(await w.history(found.transactionId)).toMatchObject({ status: 'rejected' });
    expect(await w.reversals(found.transactionId)).toHaveLength(1);
    const [audit] = await w.rows<{ approval: { requestedBy: string; approvedBy: string } }>(
      sql`select after->'approval' as approval from audit_log where action = 'chain.deposit_take_back' and target_id = ${found.transactionId}`,
    );
    expect(audit.approval.requestedBy).not.toBe(audit.approval.approvedBy);
    expect(await w.rows(sql`select count(*)::int as n from notifications where user_id = ${customer._id} and title = 'Deposit reversed'`)).toEqual([{ n: 1 }]);
    await expectLedgerClean(t);
  });

  it('an approval that finds the customer no longer holds it answers 409, moves nothing and stays pending with the reason', async () => {
    const customer = await newCustomer(t);
    const found = await w.flagged(customer, '0.01');
    const held = await takeBack(t, found.id, t.admin).expect(202);
    await w.spend(customer, 300);
    const before = await w.balance(customer._id);
    const refused = await approve(held.body.approvalId).expect(409);
    expect(refused.body.error).toContain('no longer holds the 0.01000000 BTC of this deposit');
    expect(await w.balance(customer._id)).toBe(before);
    expect(await w.deposit(found.id)).toMatchObject({ state: 'credited', resolution: null });
    const [approval] = await w.rows<{ status: string; lastError: string }>(
      sql`select status, last_error as "lastError" from admin_approvals where id = ${held.body.approvalId}`,
    );
    expect(approval).toEqual({ status: 'pending', lastError: expect.stringContaining('no longer holds') });
    // Kept instead (no money moves: never gated); the pending request can then no longer apply.
    await keep(t, found.id, t.admin).expect(200);
    expect((await approve(held.body.approvalId).expect(409)).body.error).toContain('This deposit was already kept');
    await expectLedgerClean(t);
  });

  it('below the threshold (and the window) it applies at once', async () => {
    const customer = await newCustomer(t);
    await fund(t, customer._id, 'bitcoin', 10);
    const found = await w.flagged(customer, '0.001'); // $50
    await takeBack(t, found.id, checker).expect(200);
    expect(await w.balance(customer._id)).toMatch(/^0\.0002(0*)$/);
    expect(await w.deposit(found.id)).toMatchObject({ state: 'dropped', resolution: 'taken_back' });
  });
});
