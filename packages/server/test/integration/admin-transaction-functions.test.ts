import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { addAdministrator } from '../../src/modules/admin/add-administrator';
import { describe as describeAmount, usdText } from '../../src/modules/wallet/wallet-common';
import { DATABASE_KINDS } from '../support/databases';
import { seedCoins } from '../support/market';
import { bearer, uniqueEmail } from '../support/test-app';
import { ADDRESSES, expectLedgerClean, fund, holdings, newCustomer, startWalletApp, supportTokens, type WalletApp } from '../support/wallet';

/**
 * The rules of the admin's transaction functions (drizzle/0014_admin_transaction_functions.sql) that the wallet and
 * four-eyes tests do not reach: the SQL texts and placement agree with their TypeScript twins, the customer and token
 * rules of a deposit, the payouts trigger, the rows a status change and a void write, and what four-eyes refuses before
 * it holds anything.
 */
async function rows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

describe.each(DATABASE_KINDS)('admin transaction functions on %s', (kind) => {
  let t: WalletApp;
  let db: Database;
  beforeAll(async () => {
    t = await startWalletApp(kind);
    await seedCoins(t, { bitcoin: '50000', ethereum: '2500', tether: '1', solana: '100' });
    db = t.app.get<Database>(DATABASE);
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    if (t) await expectLedgerClean(t);
  });

  const admin = (path: string, body?: object) => t.http.post(path).set(bearer(t.admin)).send(body);
  const deposit = (userId: string, body: object) => admin(`/api/crypto/deposit/${userId}`, body);
  const modify = (tId: string, modification: string, extra: object = {}) => admin('/api/admin/modify-transaction', { tId, modification, ...extra });
  const voidTx = (id: string) => t.http.delete(`/api/crypto/delete-trx/${id}`).set(bearer(t.admin));
  const lastNotice = async (userId: string) =>
    (
      await rows<{ title: string; message: string; status: string | null }>(
        db,
        sql`select title, message, status from notifications where user_id = ${userId} order by created_at desc, id limit 1`,
      )
    )[0];
  const lastAudit = async (action: string, targetId: string) =>
    (
      await rows<{ before: unknown; after: unknown }>(
        db,
        sql`select before, after from audit_log where action = ${action} and target_id = ${targetId} order by id desc limit 1`,
      )
    )[0];

  it('prints amounts in texts exactly as describe and usdText do', async () => {
    const quantities = ['0.00020000', '1234567.123456789123', '5', '0.001', '999.9999999', '1000000'];
    for (const token of ['bitcoin', 'ethereum', 'tether', 'solana', 'not-a-coin']) {
      for (const quantity of quantities) {
        const [row] = await rows<{ text: string }>(db, sql`select cp_amount_text(${quantity}::numeric, ${token}) as text`);
        const symbol = { bitcoin: 'btc', ethereum: 'eth', tether: 'usdt', solana: 'sol' }[token] ?? token;
        expect(row.text, `${quantity} ${token}`).toBe(describeAmount(quantity, token, symbol));
      }
    }
    for (const usd of ['0', '0.004', '12.5', '1234567.499', '-5', '1000', '99999999.99999999']) {
      const [row] = await rows<{ text: string }>(db, sql`select cp_usd_text(${usd}::numeric) as text`);
      expect(row.text, usd).toBe(usdText(usd));
    }
  });

  it('places a quantity where the transition table of four-eyes-policy.ts says, in every status', async () => {
    const expected: Record<string, string> = {
      'deposit pending': 'deposits',
      'deposit approved': 'customer',
      'deposit rejected': 'deposits',
      'withdrawal pending': 'withdrawals_pending',
      'withdrawal approved': 'withdrawals_settled',
      'withdrawal rejected': 'customer',
    };
    for (const [case_, at] of Object.entries(expected)) {
      const [type, status] = case_.split(' ');
      const [row] = await rows<{ at: string }>(db, sql`select cp_transaction_location(${type}, ${status}) as at`);
      expect(row.at, case_).toBe(at);
    }
  });

  it('records a deposit only for an active customer, in a supported token; a pending one moves nothing', async () => {
    const user = await newCustomer(t);
    const entries = async () => (await rows<{ n: number }>(db, sql`select count(*)::int as n from journal_entries`))[0].n;
    const before = await entries();
    const pending = await deposit(user._id, { amount: 100, status: 'pending', network: 'bitcoin' }).expect(201);
    expect(pending.body).toMatchObject({ status: 'pending', coinAmount: '0.00200000', user: { email: user.email } });
    expect(await entries()).toBe(before);
    expect(await lastNotice(user._id)).toEqual({
      title: 'Deposit pending',
      message: 'A deposit of 0.00200000 BTC ($100.00) was recorded with status pending.',
      status: 'pending',
    });

    // An administrator is no customer; a deactivated customer is none either.
    const [adminRow] = await rows<{ id: string }>(db, sql`select id from users where role = 'admin' limit 1`);
    expect((await deposit(adminRow.id, { amount: 10, status: 'approved', network: 'bitcoin' }).expect(404)).body.error).toBe('User not found.');
    const gone = await newCustomer(t);
    await db.execute(sql`update users set deactivated_at = now() where id = ${gone._id}`);
    expect((await deposit(gone._id, { amount: 10, status: 'approved', network: 'bitcoin' }).expect(404)).body.error).toBe('User not found.');
    expect((await deposit('not-a-uuid', { amount: 10, status: 'approved', network: 'bitcoin' }).expect(404)).body.error).toBe('User not found.');
    expect((await rows<{ n: number }>(db, sql`select count(*)::int as n from transactions where user_id = ${gone._id}`))[0].n).toBe(0);
  });

  it('a status change writes its notification (with the txHash and its explorer page) and its audit entry', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 1000);
    const sent = await t.http
      .post('/api/crypto/send-crypto/bitcoin')
      .set(bearer(user.token))
      .send({ transferData: { address: ADDRESSES.bitcoin, amount: '100' } })
      .expect(201);
    const id = sent.body.transaction._id as string;
    const hash = 'ab'.repeat(32);
    const done = await modify(id, 'approved', { txHash: hash, expectedStatus: 'pending' }).expect(200);
    expect(done.body).toMatchObject({ message: 'Status updated successfully', changed: true, transaction: { status: 'approved', txHash: hash } });
    expect(await lastNotice(user._id)).toEqual({
      title: 'Transaction approved',
      message: `Your withdrawal of 0.00200000 BTC ($100.00) is now approved. Transaction hash: ${hash} — https://mempool.space/tx/${hash}`,
      status: 'approved',
    });
    expect(await lastAudit('transaction.status', id)).toEqual({ before: { status: 'pending' }, after: { status: 'approved', txHash: hash } });

    // Already approved: answered, nothing written.
    const notices = (await rows<{ n: number }>(db, sql`select count(*)::int as n from notifications where user_id = ${user._id}`))[0].n;
    const same = await modify(id, 'approved').expect(200);
    expect(same.body).toMatchObject({ message: 'The transaction is already approved.', changed: false, transaction: { status: 'approved' } });
    expect((await rows<{ n: number }>(db, sql`select count(*)::int as n from notifications where user_id = ${user._id}`))[0].n).toBe(notices);

    // A txHash for anything but approving a withdrawal.
    const dep = await deposit(user._id, { amount: 5, status: 'pending', network: 'bitcoin' }).expect(201);
    expect((await modify(dep.body._id, 'approved', { txHash: hash }).expect(400)).body.error).toBe(
      'A transaction hash can only be given when approving a withdrawal.',
    );
    expect((await rows<{ status: string }>(db, sql`select status from transactions where id = ${dep.body._id}`))[0].status).toBe('pending');
  });

  it('a void writes its notification and audit entry, and takes a swap back both ways', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 1000);
    const swap = await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 250, from: 'bitcoin', to: 'ethereum' }).expect(201);
    const id = swap.body.transaction._id as string;
    expect(await holdings(t, user.token)).toMatchObject({ bitcoin: '0.01500000', ethereum: '0.100000' });
    await voidTx(id).expect(200);
    expect(await holdings(t, user.token)).toMatchObject({ bitcoin: '0.02000000', ethereum: '0.000000' });
    expect(await lastNotice(user._id)).toEqual({
      title: 'Transaction cancelled',
      message: 'Your swap of 0.00500000 BTC ($250.00) was cancelled by an administrator.',
      status: null,
    });
    expect(await lastAudit('transaction.void', id)).toEqual({ before: { status: 'approved', voided: false }, after: { status: 'approved', voided: true } });
    await voidTx(id).expect(404);
  });

  it('a withdrawal being paid on the chain keeps its status and is not voided (the payouts trigger)', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 1000);
    const sent = await t.http
      .post('/api/crypto/send-crypto/bitcoin')
      .set(bearer(user.token))
      .send({ transferData: { address: ADDRESSES.bitcoin, amount: '100' } })
      .expect(201);
    const id = sent.body.transaction._id as string;
    await modify(id, 'approved').expect(200);
    await db.execute(sql`insert into payouts (transaction_id, network, address, amount_base, state, raw_tx, txid, required_confirmations)
      values (${id}, 'bitcoin', ${ADDRESSES.bitcoin}, 200000, 'signed', 'raw', ${'cd'.repeat(32)}, 3)`);
    const message = 'This withdrawal is being paid on the chain, so its status can no longer change.';
    expect((await modify(id, 'rejected').expect(409)).body.error).toBe(message);
    expect((await voidTx(id).expect(409)).body.error).toBe(message);
    expect(
      (await rows<{ status: string; voided: boolean }>(db, sql`select status, voided_at is not null as voided from transactions where id = ${id}`))[0],
    ).toEqual({
      status: 'approved',
      voided: false,
    });
    expect((await holdings(t, user.token)).bitcoin).toBe('0.01800000');
  });

  it('a deposit in a token removed since it was looked up is refused (CPT01) and writes nothing', async () => {
    await supportTokens(t, ['solana']);
    const user = await newCustomer(t);
    const rejected = await deposit(user._id, { amount: 100, status: 'rejected', network: 'solana' }).expect(201);
    await t.http.delete('/api/admin/delete-token/solana/solana').set(bearer(t.admin)).expect(200);
    // The service no longer finds the token; a call already under way meets the function's rule.
    const [adminRow] = await rows<{ id: string }>(db, sql`select id from users where role = 'admin' limit 1`);
    const id = '00000000-0000-4000-8000-00000000c0de';
    const refused = await db
      .execute(
        sql`select cp_deposit(${id}::uuid, ${user._id}::uuid, 'solana', 'solana', null, 1::numeric, 100::numeric, 100::numeric, 'approved',
          now(), ${adminRow.id}::uuid, 1, null, null)`,
      )
      .then(
        () => undefined,
        (error: unknown) => error as { code?: string; cause?: { code?: string } },
      );
    expect(refused?.code ?? refused?.cause?.code).toBe('CPT01');
    expect((await rows<{ n: number }>(db, sql`select count(*)::int as n from transactions where id = ${id}`))[0].n).toBe(0);
    expect((await modify(rejected.body._id, 'approved').expect(409)).body.error).toBe(
      'SOL is no longer a supported token, so this would leave the customer holding it. Add the token again first.',
    );
  });
});

describe.each(DATABASE_KINDS)('admin transaction functions under four-eyes on %s', (kind) => {
  let t: WalletApp;
  let db: Database;
  beforeAll(async () => {
    t = await startWalletApp(kind, { APPROVAL_THRESHOLD_USD: '10000' });
    db = t.app.get<Database>(DATABASE);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a gated change is refused for its own reasons before anything is held', async () => {
    const user = await newCustomer(t);
    const dep = await t.http
      .post(`/api/crypto/deposit/${user._id}`)
      .set(bearer(t.admin))
      .send({ amount: 50000, status: 'pending', network: 'tether' })
      .expect(201);
    const modify = (body: object) =>
      t.http
        .post('/api/admin/modify-transaction')
        .set(bearer(t.admin))
        .send({ tId: dep.body._id, ...body });
    expect((await modify({ modification: 'approved', txHash: 'ab'.repeat(32) }).expect(400)).body.error).toBe(
      'A transaction hash can only be given when approving a withdrawal.',
    );
    expect((await modify({ modification: 'approved', expectedStatus: 'rejected' }).expect(409)).body.error).toBe(
      'This transaction was changed meanwhile: it is now pending. Reload and try again.',
    );
    expect((await modify({ modification: 'pending' }).expect(200)).body).toMatchObject({ changed: false });
    expect((await rows<{ n: number }>(db, sql`select count(*)::int as n from admin_approvals where transaction_id = ${dep.body._id}`))[0].n).toBe(0);
    // What is left is held, and the customer gets nothing yet.
    const held = await modify({ modification: 'approved' }).expect(202);
    expect(held.body).toMatchObject({ pendingApproval: true });
    expect((await holdings(t, user.token)).tether).toBe('0.00');
    await expectLedgerClean(t);
  });
  it('an approved settlement with a txHash stores it once the second admin applies it', async () => {
    const email = uniqueEmail('admin');
    await addAdministrator(db, { name: 'Second', email, password: 'an-admin-password' });
    const second = (await t.http.post('/api/admin/login-admin').send({ email, password: 'an-admin-password' }).expect(200)).body.token as string;
    const user = await newCustomer(t);
    const funded = await t.http
      .post(`/api/admin/update-balance/${user._id}`)
      .set(bearer(t.admin))
      .send({ token: 'tether', amount: 20000, type: 'yes' })
      .expect(202);
    await t.http.post(`/api/admin/approvals/${funded.body.approvalId}/approve`).set(bearer(second)).expect(200);
    const sent = await t.http
      .post('/api/crypto/send-crypto/tether')
      .set(bearer(user.token))
      .send({ transferData: { address: ADDRESSES.ethereum, amount: '15000' } })
      .expect(201);
    const id = sent.body.transaction._id as string;
    const hash = `0x${'ef'.repeat(32)}`;
    const held = await t.http.post('/api/admin/modify-transaction').set(bearer(t.admin)).send({ tId: id, modification: 'approved', txHash: hash }).expect(202);
    await t.http.post(`/api/admin/approvals/${held.body.approvalId}/approve`).set(bearer(second)).expect(200);
    expect((await rows<{ status: string; hash: string }>(db, sql`select status, details ->> 'txHash' as hash from transactions where id = ${id}`))[0]).toEqual({
      status: 'approved',
      hash,
    });
    await expectLedgerClean(t);
  });
});
