// Held chain deposits (drizzle/0063_deposit_holds.sql): a confirmed deposit above the customer's deposit limit, or from
// a sanctioned address, is held instead of credited, the customer told why; the watcher's pass releases a limit hold
// once the limit allows it, an admin releases either (four-eyes above the threshold). The rows a node would have led to
// are written directly (as in chain-functions.test.ts); the regtest litecoind drives the same path in
// chain-deposits-sanctions.test.ts.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { addAdministrator } from '../../src/modules/admin/add-administrator';
import type { ConnectedChain } from '../../src/modules/chain/chain-connections';
import { DepositCreditsService } from '../../src/modules/chain/deposit-credits.service';
import { DATABASE_KINDS } from '../support/databases';
import { bearer, uniqueEmail } from '../support/test-app';
import { ADDRESSES, expectLedgerClean, newCustomer, startWalletApp, type WalletApp } from '../support/wallet';

const CURSOR = 100;
const REQUIRED = 3;
const LIMIT_WORDS = "Held: above your verification level's deposit limit — verify to release.";

describe.each(DATABASE_KINDS)('held chain deposits on %s (KYC_LIMITS=on)', (kind) => {
  let t: WalletApp;
  let db: Database;
  let credits: DepositCreditsService;
  const bitcoin = { network: 'bitcoin', confirmations: REQUIRED } as ConnectedChain;

  const rows = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const balance = async (userId: string) =>
    (await rows<{ balance: string }>(sql`select balance::text as balance from ledger_accounts where user_id = ${userId} and token = 'bitcoin'`))[0]?.balance ??
    '0';
  const setLevel = (userId: string, level: number) => db.execute(sql`update users set verification_level = ${level} where id = ${userId}`);
  /** A confirmed deposit of 0.001 BTC valued `usd` when found, with its pending History row. */
  const deposit = async (userId: string, usd: number) => {
    const txid = randomUUID().replaceAll('-', '');
    const transactionId = randomUUID();
    await db.execute(sql`
      insert into transactions (id, user_id, type, token, network, address, coin_amount, usd_amount, price, status, direction, details)
      values (${transactionId}, ${userId}, 'deposit', 'bitcoin', 'bitcoin', ${ADDRESSES.bitcoin}, 0.001, ${usd}, ${usd * 1000}, 'pending', 'in',
        ${JSON.stringify({ txHash: txid, confirmations: 1, requiredConfirmations: REQUIRED })}::jsonb)`);
    const [row] = await rows<{ id: string }>(sql`
      insert into chain_deposits (network, txid, output_index, user_id, token, address, amount_base, amount, block_height, block_hash, confirmations, required_confirmations, state, transaction_id)
      values ('bitcoin', ${txid}, 0, ${userId}, 'bitcoin', ${ADDRESSES.bitcoin}, 100000, 0.001, 95, 'b95', 1, ${REQUIRED}, 'confirming', ${transactionId})
      returning id`);
    return { id: row.id, txid, transactionId };
  };
  const state = async (id: string) =>
    (
      await rows<{ state: string; hold: string | null; releasedBy: string | null }>(
        sql`select state, hold, released_by as "releasedBy" from chain_deposits where id = ${id}`,
      )
    )[0];
  const historyRow = async (token: string, id: string) =>
    ((await t.http.get('/api/user/get-transaction').set(bearer(token)).expect(200)).body as Array<Record<string, unknown>>).find((x) => x._id === id);
  const notices = async (token: string) =>
    ((await t.http.get('/api/user/get-notifications').set(bearer(token)).expect(200)).body as Array<{ title: string; message: string }>).map(
      (n) => `${n.title}: ${n.message}`,
    );

  beforeAll(async () => {
    t = await startWalletApp(kind, { KYC_LIMITS: 'on', APPROVAL_THRESHOLD_USD: '5000' });
    db = t.app.get(DATABASE);
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
  afterEach(async () => {
    if (t) await expectLedgerClean(t);
  });

  it('a deposit that would pass the daily deposit limit is held, the customer told why; released once a raised level allows it', async () => {
    const user = await newCustomer(t);
    // Level 0: 1,000 USD of deposits a day. 600 fits; 600 more would pass it.
    const first = await deposit(user._id, 600);
    const second = await deposit(user._id, 600);
    expect(await credits.credit(bitcoin, first.id)).toBe(true);
    expect(await credits.credit(bitcoin, second.id)).toBe(false);
    expect(await state(second.id)).toEqual({ state: 'held', hold: 'limit', releasedBy: null });
    expect(await balance(user._id)).toMatch(/^0\.001(0*)$/);
    expect(await historyRow(user.token, second.transactionId)).toMatchObject({ status: 'pending', hold: 'limit', note: LIMIT_WORDS });
    expect(await historyRow(user.token, first.transactionId)).toMatchObject({ status: 'approved', note: null });
    expect((await historyRow(user.token, first.transactionId))!.hold).toBeUndefined();
    expect(await notices(user.token)).toContainEqual(expect.stringContaining(`Deposit held: Your deposit of 0.00100000 BTC arrived on`));
    expect((await notices(user.token)).find((n) => n.startsWith('Deposit held'))).toContain(LIMIT_WORDS);
    // The limit counts only what was credited: what is left today is the 400 USD.
    expect((await t.http.get('/api/user/verification').set(bearer(user.token)).expect(200)).body.left.depositToday).toBe('400.00');
    // Again (a replayed poll): nothing more happens to a held deposit.
    expect(await credits.credit(bitcoin, second.id)).toBe(false);
    expect(await rows(sql`select action from audit_log where target_id = ${second.transactionId}`)).toEqual([{ action: 'chain.deposit_hold' }]);

    // The watcher's pass: the level still does not allow it.
    expect(await credits.releaseDue('bitcoin')).toBe(0);
    expect((await state(second.id)).state).toBe('held');
    // Level 1 (10,000 a day): the next pass releases it, credited as any deposit.
    await setLevel(user._id, 1);
    expect(await credits.releaseDue('bitcoin')).toBe(1);
    expect(await state(second.id)).toEqual({ state: 'credited', hold: 'limit', releasedBy: null });
    expect(await balance(user._id)).toMatch(/^0\.002(0*)$/);
    const released = await historyRow(user.token, second.transactionId);
    expect(released).toMatchObject({ status: 'approved', note: null });
    expect(released!.hold).toBeUndefined();
    expect(await notices(user.token)).toContainEqual(expect.stringContaining('Deposit released: Your held deposit of 0.00100000 BTC'));
    expect(await rows(sql`select subject from mail_outbox where "to" = ${user.email} order by id`)).toEqual([
      { subject: 'Deposit credited: 0.00100000 BTC' },
      { subject: 'Deposit credited: 0.00100000 BTC' },
    ]);
    expect(await rows(sql`select action, actor_role as role from audit_log where target_id = ${second.transactionId} order by id`)).toEqual([
      { action: 'chain.deposit_hold', role: 'system' },
      { action: 'chain.deposit_hold_release', role: 'system' },
    ]);
    expect(await rows(sql`select count(*)::int as n from journal_entries where transaction_id = ${second.transactionId}`)).toEqual([{ n: 1 }]);
    expect(await credits.releaseDue('bitcoin')).toBe(0);
  });

  it('the 30-day limit holds too, and a customer’s later holds wait behind an earlier one that does not fit', async () => {
    const user = await newCustomer(t);
    await setLevel(user._id, 1);
    // Level 1: 10,000 a day and 50,000 per 30 days. 45,000 credited 2 days ago.
    const old = await deposit(user._id, 9000);
    expect(await credits.credit(bitcoin, old.id)).toBe(true);
    await db.execute(sql`update transactions set usd_amount = 45000, created_at = now() - interval '2 days' where id = ${old.transactionId}`);
    const big = await deposit(user._id, 6000);
    const small = await deposit(user._id, 100);
    expect(await credits.credit(bitcoin, big.id)).toBe(false);
    // The small one fits but is the customer's later deposit: credited at once (the rule is per deposit as it confirms).
    expect(await credits.credit(bitcoin, small.id)).toBe(true);
    expect((await state(big.id)).hold).toBe('limit');
    const later = await deposit(user._id, 100);
    await db.execute(sql`update chain_deposits set state = 'held', hold = 'limit', held_at = now() where id = ${later.id}`);
    // The pass: the older hold does not fit, so the later one waits behind it (oldest first).
    expect(await credits.releaseDue('bitcoin')).toBe(0);
    expect((await state(later.id)).state).toBe('held');
    await setLevel(user._id, 2);
    expect(await credits.releaseDue('bitcoin')).toBe(2);
    expect((await state(later.id)).state).toBe('credited');
  });

  it('a deposit from a sanctioned address is held for an admin: never released by a limit, a review to the customer', async () => {
    const user = await newCustomer(t);
    await setLevel(user._id, 2);
    const found = await deposit(user._id, 10);
    await db.execute(sql`
      insert into sanctions_hits (user_id, kind, network, address, token, amount, txid, chain_deposit_id)
      values (${user._id}, 'deposit', 'bitcoin', 'bc1qsanctioned', 'bitcoin', 0.001, ${found.txid}, ${found.id})`);
    expect(await credits.credit(bitcoin, found.id)).toBe(false);
    expect(await state(found.id)).toEqual({ state: 'held', hold: 'sanctions', releasedBy: null });
    expect(await credits.releaseDue('bitcoin')).toBe(0);
    expect(await historyRow(user.token, found.transactionId)).toMatchObject({
      status: 'pending',
      hold: 'review',
      note: 'Held: under review. Please contact support.',
    });
    const admin = (await t.http.get('/api/admin/transaction').set(bearer(t.admin)).expect(200)).body.find(
      (x: { _id: string }) => x._id === found.transactionId,
    );
    expect(admin).toMatchObject({ hold: 'sanctions', note: 'Held and frozen: sent from a sanctioned address' });
    const listed = (await t.http.get('/api/admin/chain/deposit-holds').set(bearer(t.admin)).expect(200)).body.find((x: { _id: string }) => x._id === found.id);
    expect(listed).toMatchObject({ hold: 'sanctions', userEmail: user.email, symbol: 'BTC', amount: '0.001', usdAmount: 10 });
    await t.http.post(`/api/admin/chain/deposit-holds/${found.id}/release`).set(bearer(t.admin)).send({ reason: 'False match: checked' }).expect(200);
    expect(await state(found.id)).toMatchObject({ state: 'credited', hold: 'sanctions', releasedBy: expect.any(String) });
    expect(await balance(user._id)).toMatch(/^0\.001(0*)$/);
  });

  it('an admin releases a hold whatever the limit: with a reason, audited, through a second admin above the threshold', async () => {
    const user = await newCustomer(t);
    const small = await deposit(user._id, 1500);
    const large = await deposit(user._id, 6000);
    expect(await credits.credit(bitcoin, small.id)).toBe(false);
    expect(await credits.credit(bitcoin, large.id)).toBe(false);
    const release = (id: string, token = t.admin) => t.http.post(`/api/admin/chain/deposit-holds/${id}/release`).set(bearer(token));
    expect((await release(small.id).send({}).expect(400)).body.error).toContain('A reason is required.');
    await release('not-a-uuid').send({ reason: 'x' }).expect(404);
    await release(randomUUID()).send({ reason: 'x' }).expect(404);
    await t.http.post(`/api/admin/chain/deposit-holds/${small.id}/release`).set(bearer(user.token)).send({ reason: 'x' }).expect(403);

    // Below the threshold: at once.
    const done = await release(small.id).send({ reason: 'Source of funds documented' }).expect(200);
    expect(done.body.message).toBe(`0.00100000 BTC was released to ${user.email}.`);
    expect(await state(small.id)).toEqual({ state: 'credited', hold: 'limit', releasedBy: expect.any(String) });
    await release(small.id).send({ reason: 'again' }).expect(409);
    const [audit] = await rows<{ after: { reason: string; by: string } }>(
      sql`select after from audit_log where target_id = ${small.transactionId} and action = 'chain.deposit_hold_release'`,
    );
    expect(audit.after).toMatchObject({ reason: 'Source of funds documented', by: 'admin' });

    // Above it: a request a second admin approves.
    const email = uniqueEmail('admin');
    await addAdministrator(db, { name: 'Second', email, password: 'an-admin-password' });
    const second = (await t.http.post('/api/admin/login-admin').send({ email, password: 'an-admin-password' }).expect(200)).body.token;
    const held = await release(large.id).send({ reason: 'Large, verified by phone' }).expect(202);
    expect(held.body).toMatchObject({ pendingApproval: true });
    expect((await state(large.id)).state).toBe('held');
    const listed = (await t.http.get('/api/admin/approvals').set(bearer(second)).expect(200)).body.find((a: { _id: string }) => a._id === held.body.approvalId);
    expect(listed).toMatchObject({ action: 'release-deposit-hold', userId: user._id, reason: 'Large, verified by phone' });
    await t.http.post(`/api/admin/approvals/${held.body.approvalId}/approve`).set(bearer(t.admin)).expect(403);
    await t.http.post(`/api/admin/approvals/${held.body.approvalId}/approve`).set(bearer(second)).expect(200);
    expect((await state(large.id)).state).toBe('credited');
    expect(await balance(user._id)).toMatch(/^0\.002(0*)$/);
    expect(await rows(sql`select count(*)::int as n from journal_entries where transaction_id = ${large.transactionId}`)).toEqual([{ n: 1 }]);
  });

  it('a held deposit whose block was orphaned is not released (it is decided anew once mined again)', async () => {
    const user = await newCustomer(t);
    const found = await deposit(user._id, 1100);
    expect(await credits.credit(bitcoin, found.id)).toBe(false);
    await db.execute(sql`update chain_deposits set block_hash = 'orphaned-95' where id = ${found.id}`);
    await t.http.post(`/api/admin/chain/deposit-holds/${found.id}/release`).set(bearer(t.admin)).send({ reason: 'x' }).expect(409);
    expect((await state(found.id)).state).toBe('held');
  });
});
