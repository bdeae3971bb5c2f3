import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { addAdministrator } from '../../src/modules/admin/add-administrator';
import { DATABASE_KINDS } from '../support/databases';
import { ADMIN_EMAIL, bearer, loginAdmin } from '../support/test-app';
import { ADDRESSES, call, expectLedgerClean, holdings, newCustomer, startWalletApp, type WalletApp } from '../support/wallet';

const SENT = { pendingApproval: true, approvalId: expect.any(String), message: 'Sent for approval by a second admin.' };

async function rows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

describe.each(DATABASE_KINDS)('four-eyes approvals and admins on %s', (kind) => {
  let t: WalletApp;
  let db: Database;
  let adminA: { token: string; _id: string };
  let adminB: { token: string; _id: string };
  const secondAdmin = { name: 'Second Admin', email: 'second.admin@test.local', password: 'second-admin-password' };

  beforeAll(async () => {
    t = await startWalletApp(kind, { APPROVAL_THRESHOLD_USD: '10000' }, { listen: true });
    db = t.app.get(DATABASE);
    adminA = await loginAdmin(t.http);
    // With four-eyes on, the second admin is added on the server (pnpm admin:add), not over HTTP.
    await addAdministrator(db, secondAdmin);
    adminB = (await t.http.post('/api/admin/login-admin').send({ email: secondAdmin.email, password: secondAdmin.password }).expect(200)).body;
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  const updateBalance = (admin: string, userId: string, body: object) => t.http.post(`/api/admin/update-balance/${userId}`).set(bearer(admin)).send(body);
  const deposit = (admin: string, userId: string, body: object) => t.http.post(`/api/crypto/deposit/${userId}`).set(bearer(admin)).send(body);
  const approve = (admin: string, id: string) => t.http.post(`/api/admin/approvals/${id}/approve`).set(bearer(admin));
  const txCount = async (userId: string) => (await rows<{ n: number }>(db, sql`select count(*)::int as n from transactions where user_id = ${userId}`))[0].n;

  it('below the threshold applies at once; at the threshold answers 202 and changes nothing', async () => {
    const ada = await newCustomer(t);
    await updateBalance(adminA.token, ada._id, { token: 'tether', amount: '9999.99', type: 'yes' }).expect(200);
    expect(Number((await holdings(t, ada.token)).tether)).toBe(9999.99);

    const held = await updateBalance(adminA.token, ada._id, { token: 'tether', amount: '10000', type: 'yes', msg: 'Big correction' }).expect(202);
    expect(held.body).toEqual(SENT);
    expect(Number((await holdings(t, ada.token)).tether)).toBe(9999.99);
    expect(await txCount(ada._id)).toBe(1);

    expect((await deposit(adminA.token, ada._id, { amount: 10000, status: 'approved', network: 'tether' }).expect(202)).body).toEqual(SENT);
    // A pending deposit credits nothing: it is not gated.
    await deposit(adminA.token, ada._id, { amount: 50000, status: 'pending', network: 'tether' }).expect(201);
    expect(Number((await holdings(t, ada.token)).tether)).toBe(9999.99);

    const pending = (await t.http.get('/api/admin/approvals?status=pending').set(bearer(adminB.token)).expect(200)).body;
    const mine = pending.find((a: { _id: string }) => a._id === held.body.approvalId);
    expect(mine).toMatchObject({
      action: 'update-balance',
      status: 'pending',
      usdValue: '10000',
      reason: 'Big correction',
      userId: ada._id,
      userEmail: ada.email,
      payload: { token: 'tether', amount: '10000', type: 'yes', msg: 'Big correction' },
      gatedBecause: ['threshold'],
      posting: [
        { account: 'adjustments', token: 'tether', amount: '-10000', symbol: 'USDT' },
        { account: 'customer', userId: ada._id, token: 'tether', amount: '10000', symbol: 'USDT' },
      ],
      price: '1',
      requestedBy: { _id: adminA._id, email: ADMIN_EMAIL },
      decidedBy: null,
    });
    await expectLedgerClean(t);
  });

  it('the requester cannot approve (403); a second admin applies it once, and the audit names both', async () => {
    const bob = await newCustomer(t);
    const held = await deposit(adminA.token, bob._id, { amount: 50000, status: 'approved', network: 'bitcoin' }).expect(202);
    const id = held.body.approvalId as string;

    expect((await approve(adminA.token, id).expect(403)).body.error).toBe('You cannot approve your own request: another admin must approve it.');
    expect(await txCount(bob._id)).toBe(0);

    const done = await approve(adminB.token, id).expect(200);
    expect(done.body.approval).toMatchObject({ status: 'approved', decidedBy: { _id: adminB._id }, requestedBy: { _id: adminA._id } });
    expect(Number((await holdings(t, bob.token)).bitcoin)).toBe(1);
    expect((await approve(adminB.token, id).expect(409)).body.error).toBe('This request was already approved.');
    expect(Number((await holdings(t, bob.token)).bitcoin)).toBe(1);

    const [trx] = await rows<{ id: string; created_by: string }>(db, sql`select id, created_by from transactions where user_id = ${bob._id}`);
    const audit = (await t.http.get(`/api/admin/audit?targetId=${trx.id}`).set(bearer(adminA.token)).expect(200)).body.items;
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'transaction.deposit',
      actorId: adminB._id,
      after: { status: 'approved', approval: { id, requestedBy: adminA._id, approvedBy: adminB._id } },
    });
    const trail = (await t.http.get(`/api/admin/audit?targetId=${id}`).set(bearer(adminA.token)).expect(200)).body.items;
    expect(trail.map((e: { action: string; actorId: string }) => [e.action, e.actorId])).toEqual([
      ['approval.approve', adminB._id],
      ['approval.request', adminA._id],
    ]);
    const [note] = (await t.http.get('/api/user/get-notifications').set(bearer(bob.token)).expect(200)).body as Array<{ title: string }>;
    expect(note.title).toBe('Deposit approved');
    await expectLedgerClean(t);
  });

  it('rejection changes nothing, is audited, and a rejected request cannot be approved', async () => {
    const cy = await newCustomer(t);
    const held = await updateBalance(adminA.token, cy._id, { token: 'ethereum', amount: '25000', type: 'no' }).expect(202);
    const id = held.body.approvalId as string;
    await t.http.post(`/api/admin/approvals/${id}/reject`).set(bearer(adminB.token)).send({}).expect(400);
    const rejected = await t.http.post(`/api/admin/approvals/${id}/reject`).set(bearer(adminB.token)).send({ reason: 'Not agreed' }).expect(200);
    expect(rejected.body.approval).toMatchObject({ status: 'rejected', decisionReason: 'Not agreed', decidedBy: { _id: adminB._id } });
    expect((await approve(adminB.token, id).expect(409)).body.error).toBe('This request was already rejected.');
    expect(Number((await holdings(t, cy.token)).ethereum)).toBe(0);
    expect(await txCount(cy._id)).toBe(0);
    const trail = (await t.http.get(`/api/admin/audit?targetId=${id}&action=approval.reject`).set(bearer(adminA.token)).expect(200)).body.items;
    expect(trail[0]).toMatchObject({ actorId: adminB._id, after: { requestedBy: adminA._id, rejectedBy: adminB._id, reason: 'Not agreed' } });
  });

  it('a request whose preconditions no longer hold fails with 409 and stays pending with the reason', async () => {
    const dee = await newCustomer(t);
    const funding = await updateBalance(adminA.token, dee._id, { token: 'bitcoin', amount: '18000', type: 'yes' }).expect(202);
    await approve(adminB.token, funding.body.approvalId).expect(200);
    const sent = await t.http
      .post('/api/crypto/send-crypto/bitcoin')
      .set(bearer(dee.token))
      .send({ transferData: { address: ADDRESSES.bitcoin, amount: '15000' } })
      .expect(201);
    const withdrawal = sent.body.transaction._id as string;
    const settle = await t.http.post('/api/admin/modify-transaction').set(bearer(adminA.token)).send({ tId: withdrawal, modification: 'approved' }).expect(202);
    // Meanwhile the withdrawal is rejected (not gated: it gives the funds back).
    await t.http.post('/api/admin/modify-transaction').set(bearer(adminB.token)).send({ tId: withdrawal, modification: 'rejected' }).expect(200);
    const stale = await approve(adminB.token, settle.body.approvalId).expect(409);
    expect(stale.body.error).toMatch(/^It can no longer be applied as requested: This transaction was changed meanwhile: it is now rejected/);
    const still = (await t.http.get('/api/admin/approvals?status=pending').set(bearer(adminA.token)).expect(200)).body.find(
      (a: { _id: string }) => a._id === settle.body.approvalId,
    );
    expect(still).toMatchObject({ status: 'pending', lastError: stale.body.error });
    expect(Number((await holdings(t, dee.token)).bitcoin)).toBe(0.36);

    await expectLedgerClean(t);
  });

  it('deleting a large approved transaction is gated, and goes stale when the customer spent the funds', async () => {
    const fay = await newCustomer(t);
    const credit = await deposit(adminA.token, fay._id, { amount: 12000, status: 'approved', network: 'bitcoin' }).expect(202);
    await approve(adminB.token, credit.body.approvalId).expect(200);
    const [trx] = await rows<{ id: string }>(db, sql`select id from transactions where user_id = ${fay._id}`);
    const del = await t.http.delete(`/api/crypto/delete-trx/${trx.id}`).set(bearer(adminA.token)).expect(202);
    expect(del.body).toEqual(SENT);
    await t.http
      .post('/api/crypto/send-crypto/bitcoin')
      .set(bearer(fay.token))
      .send({ transferData: { address: ADDRESSES.bitcoin, amount: '6000' } })
      .expect(201);
    const stale = await approve(adminB.token, del.body.approvalId).expect(409);
    expect(stale.body.error).toBe(
      'It can no longer be applied as requested: This transaction cannot be deleted: the customer no longer holds the BTC it would take back.',
    );
    expect(Number((await holdings(t, fay.token)).bitcoin)).toBe(0.12);
    const [still] = await rows<{ voided: boolean }>(db, sql`select voided_at is not null as voided from transactions where id = ${trx.id}`);
    expect(still.voided).toBe(false);
    await expectLedgerClean(t);
  });

  it.runIf(kind === 'postgres')('20 concurrent approve calls apply the request exactly once', async () => {
    const eve = await newCustomer(t);
    const held = await deposit(adminA.token, eve._id, { amount: 50000, status: 'approved', network: 'ethereum' }).expect(202);
    const results = await Promise.all(Array.from({ length: 20 }, () => call(t, 'POST', `/api/admin/approvals/${held.body.approvalId}/approve`, adminB.token)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    expect(await txCount(eve._id)).toBe(1);
    expect(Number((await holdings(t, eve.token)).ethereum)).toBe(20);
    const entries = await rows<{ n: number }>(
      db,
      sql`select count(*)::int as n from journal_entries e join transactions t on t.id = e.transaction_id where t.user_id = ${eve._id}`,
    );
    expect(entries[0].n).toBe(1);
    await expectLedgerClean(t);
  });

  it('admins: list, duplicate 409, never yourself, never the last active admin', async () => {
    const list = (await t.http.get('/api/admin/admins').set(bearer(adminB.token)).expect(200)).body;
    expect(list.map((a: { email: string }) => a.email)).toEqual([ADMIN_EMAIL, secondAdmin.email]);
    expect((await t.http.post('/api/admin/admins').set(bearer(adminA.token)).send(secondAdmin).expect(409)).body.error).toBe(
      'An account with this email already exists.',
    );
    await t.http
      .post('/api/admin/admins')
      .set(bearer(adminA.token))
      .send({ ...secondAdmin, email: 'x@test.local', password: 'short' })
      .expect(400);
    const customer = await newCustomer(t);
    await t.http.get('/api/admin/admins').set(bearer(customer.token)).expect(403);
    expect((await t.http.delete(`/api/admin/admins/${adminA._id}`).set(bearer(adminA.token)).expect(409)).body.error).toBe(
      'You cannot deactivate your own account.',
    );
    await t.http.delete(`/api/admin/admins/${customer._id}`).set(bearer(adminA.token)).expect(404);

    // The configured admin is deactivated by B; then B and C are the only active admins.
    await t.http.delete(`/api/admin/admins/${adminA._id}`).set(bearer(adminB.token)).expect(200);
    await t.http.get('/api/admin/admins').set(bearer(adminA.token)).expect(401);
    const third = { name: 'Third', email: 'third.admin@test.local', password: 'third-admin-password' };
    await addAdministrator(db, third);
    const adminC = (await t.http.post('/api/admin/login-admin').send({ email: third.email, password: third.password }).expect(200)).body;
    // B and C deactivate each other at the same time: one wins, the other is refused (the last active admin, or its own
    // session revoked); an active admin always remains.
    const [first, second] = await Promise.all([
      call(t, 'DELETE', `/api/admin/admins/${adminC._id}`, adminB.token),
      call(t, 'DELETE', `/api/admin/admins/${adminB._id}`, adminC.token),
    ]);
    expect([first.status, second.status].filter((s) => s === 200)).toHaveLength(1);
    const loser = first.status === 200 ? second : first;
    expect([401, 409]).toContain(loser.status);
    const survivor = first.status === 200 ? adminB : adminC;
    const active = (await t.http.get('/api/admin/admins').set(bearer(survivor.token)).expect(200)).body.filter((a: { active: boolean }) => a.active);
    expect(active.map((a: { _id: string }) => a._id)).toEqual([survivor._id]);
    expect((await t.http.delete(`/api/admin/admins/${survivor._id}`).set(bearer(survivor.token)).expect(409)).body.error).toBe(
      'You cannot deactivate your own account.',
    );
    const audit = (await t.http.get('/api/admin/audit?action=admin.deactivate').set(bearer(survivor.token)).expect(200)).body.items;
    expect(audit).toHaveLength(2);
  });
});
