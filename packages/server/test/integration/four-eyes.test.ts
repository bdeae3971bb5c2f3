import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { addAdministrator } from '../../src/modules/admin/add-administrator';
import { DATABASE_KINDS } from '../support/databases';
import { ReferenceDataCache } from '../../src/modules/reference-data/reference-data.cache';
import { bearer, loginAdmin, uniqueEmail } from '../support/test-app';
import { ADDRESSES, call, expectLedgerClean, holdings, newCustomer, startWalletApp, type WalletApp } from '../support/wallet';

/**
 * Four-eyes that one admin cannot get around (issue 22): each attack as it was reproduced, the transition table row by
 * row in two value bands, velocity, stale approvals under concurrency, and adding an administrator.
 * Threshold 10,000 USD; tether is priced at 1 USD, so quantities equal USD values.
 */
const STALE_BALANCE = 'The balance changed since this was requested; ask again.';

async function rows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}

type Admin = { token: string; _id: string };

describe.each(DATABASE_KINDS)('four-eyes cannot be bypassed on %s', (kind) => {
  let t: WalletApp;
  let db: Database;
  let configured: Admin;

  beforeAll(async () => {
    t = await startWalletApp(kind, { APPROVAL_THRESHOLD_USD: '10000' }, { listen: true });
    db = t.app.get(DATABASE);
    configured = await loginAdmin(t.http);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  /** A fresh administrator (added on the server, as `pnpm admin:add` does), signed in. */
  async function newAdmin(): Promise<Admin> {
    const email = uniqueEmail('admin');
    await addAdministrator(db, { name: 'Admin', email, password: 'an-admin-password' });
    return (await t.http.post('/api/admin/login-admin').send({ email, password: 'an-admin-password' }).expect(200)).body;
  }
  /** Two fresh admins: their windows start empty, so one scenario's sums never reach another's. */
  const pair = async () => ({ a: await newAdmin(), b: await newAdmin() });

  const approve = (admin: Admin, id: string) => t.http.post(`/api/admin/approvals/${id}/approve`).set(bearer(admin.token));
  const updateBalance = (admin: Admin, userId: string, body: object) => t.http.post(`/api/admin/update-balance/${userId}`).set(bearer(admin.token)).send(body);
  const deposit = (admin: Admin, userId: string, body: object) => t.http.post(`/api/crypto/deposit/${userId}`).set(bearer(admin.token)).send(body);
  const modify = (admin: Admin, tId: string, modification: string) =>
    t.http.post('/api/admin/modify-transaction').set(bearer(admin.token)).send({ tId, modification });
  const voidTx = (admin: Admin, id: string) => t.http.delete(`/api/crypto/delete-trx/${id}`).set(bearer(admin.token));
  const approval = async (admin: Admin, id: string) =>
    (await t.http.get('/api/admin/approvals').set(bearer(admin.token)).expect(200)).body.find((x: { _id: string }) => x._id === id);
  const tether = async (customer: { token: string }) => Number((await holdings(t, customer.token)).tether ?? 0);
  const statusOf = async (id: string) =>
    (await rows<{ status: string; voided: boolean }>(db, sql`select status, voided_at is not null as voided from transactions where id = ${id}`))[0];
  const send = async (customer: { token: string }, usd: number) =>
    (
      await t.http
        .post('/api/crypto/send-crypto/tether')
        .set(bearer(customer.token))
        .send({ transferData: { address: ADDRESSES.ethereum, amount: String(usd) } })
        .expect(201)
    ).body.transaction._id as string;

  /** Runs an admin action; when it is held, the second admin approves it. */
  async function done(request: () => Promise<{ status: number; body: { approvalId?: string } }>, second: Admin): Promise<void> {
    const response = await request();
    if (response.status === 202) await approve(second, response.body.approvalId!).expect(200);
    else expect([200, 201]).toContain(response.status);
  }

  it('attack 4: with one active admin, no admin is added over HTTP; a requested admin cannot approve what was asked before it existed', async () => {
    // This test runs first: the configured admin is the only active one.
    const refused = await t.http
      .post('/api/admin/admins')
      .set(bearer(configured.token))
      .send({ name: 'Sock Puppet', email: 'puppet@test.local', password: 'puppet-password' })
      .expect(409);
    expect(refused.body.error).toMatch(/^No other active administrator can approve this\. Add the second administrator on the server: pnpm admin:add/);
    expect((await rows<{ n: number }>(db, sql`select count(*)::int as n from users where email = 'puppet@test.local'`))[0].n).toBe(0);

    const b = await newAdmin();
    const customer = await newCustomer(t);
    const big = await deposit(configured, customer._id, { amount: 50000, status: 'approved', network: 'tether' }).expect(202);
    const asked = await t.http
      .post('/api/admin/admins')
      .set(bearer(configured.token))
      .send({ name: 'Sock Puppet', email: 'puppet@test.local', password: 'puppet-password' })
      .expect(202);
    expect(asked.body).toMatchObject({ pendingApproval: true, message: 'Sent for approval by a second admin.' });
    const request = await approval(b, asked.body.approvalId);
    expect(request).toMatchObject({
      action: 'create-admin',
      gatedBecause: ['admin-change'],
      payload: { name: 'Sock Puppet', email: 'puppet@test.local' },
      posting: [],
    });
    expect(JSON.stringify(request)).not.toMatch(/passwordHash|\$argon|\$2[aby]\$/);
    await t.http.post('/api/admin/login-admin').send({ email: 'puppet@test.local', password: 'puppet-password' }).expect(401);
    await approve(configured, asked.body.approvalId).expect(403);

    await approve(b, asked.body.approvalId).expect(200);
    const puppet = (await t.http.post('/api/admin/login-admin').send({ email: 'puppet@test.local', password: 'puppet-password' }).expect(200)).body;
    const refusedApproval = await approve(puppet, big.body.approvalId).expect(403);
    expect(refusedApproval.body.error).toBe('An administrator added after this request was made cannot approve it.');
    expect(await tether(customer)).toBe(0);
    await approve(b, big.body.approvalId).expect(200);
    expect(await tether(customer)).toBe(50000);

    const audit = (await t.http.get('/api/admin/audit?action=admin.create').set(bearer(b.token)).expect(200)).body.items;
    const entry = audit.find((e: { after: { email: string } }) => e.after.email === 'puppet@test.local');
    expect(entry).toMatchObject({ actorId: b._id, after: { role: 'admin', approval: { requestedBy: configured._id, approvedBy: b._id } } });
    await expectLedgerClean(t);
  });

  it('attack 1: an approved "set balance" applies only from the balance it was decided from (409, nothing moves)', async () => {
    const { a, b } = await pair();
    const customer = await newCustomer(t);
    await updateBalance(a, customer._id, { token: 'tether', amount: '9000', type: 'yes' }).expect(200);
    const held = await updateBalance(a, customer._id, { token: 'tether', amount: '19500', type: 'no', msg: 'Correction' }).expect(202);
    expect(await approval(b, held.body.approvalId)).toMatchObject({
      gatedBecause: ['threshold'],
      usdValue: '10500',
      balanceBefore: '9000',
      balanceAfter: '19500',
      price: '1',
      posting: [
        { account: 'adjustments', token: 'tether', amount: '-10500', symbol: 'USDT' },
        { account: 'customer', userId: customer._id, token: 'tether', amount: '10500', symbol: 'USDT' },
      ],
    });
    await send(customer, 9000);
    expect(await tether(customer)).toBe(0);
    const stale = await approve(b, held.body.approvalId).expect(409);
    expect(stale.body.error).toBe(STALE_BALANCE);
    expect(await tether(customer)).toBe(0);
    expect(await approval(b, held.body.approvalId)).toMatchObject({ status: 'pending', lastError: STALE_BALANCE });
    const adjustments = await rows<{ n: number }>(db, sql`select count(*)::int as n from transactions where user_id = ${customer._id} and type = 'adjustment'`);
    expect(adjustments[0].n).toBe(1);
    await expectLedgerClean(t);
  });

  it('an approval applies the quantity it bound at the request, not one recomputed at approval', async () => {
    const { a, b } = await pair();
    const customer = await newCustomer(t);
    const held = await deposit(a, customer._id, { amount: 20000, status: 'approved', network: 'bitcoin' }).expect(202);
    expect((await approval(b, held.body.approvalId)).posting).toEqual([
      { account: 'deposits', token: 'bitcoin', amount: '-0.4', symbol: 'BTC' },
      { account: 'customer', userId: customer._id, token: 'bitcoin', amount: '0.4', symbol: 'BTC' },
    ]);
    // Bitcoin halves before the approval: the bound 0.4 BTC is credited, not 0.8.
    await db.execute(sql`update coins set current_price = '25000' where id = 'bitcoin'`);
    t.app.get(ReferenceDataCache).invalidate();
    try {
      await approve(b, held.body.approvalId).expect(200);
      expect(Number((await holdings(t, customer.token)).bitcoin)).toBe(0.4);
    } finally {
      await db.execute(sql`update coins set current_price = '50000' where id = 'bitcoin'`);
      t.app.get(ReferenceDataCache).invalidate();
    }
  });

  it('attack 2: refunding a settled withdrawal (or taking a credited deposit back) needs a second admin', async () => {
    const { a, b } = await pair();
    const customer = await newCustomer(t);
    await done(() => updateBalance(a, customer._id, { token: 'tether', amount: '25000', type: 'yes' }), b);
    const withdrawal = await send(customer, 20000);
    await done(() => modify(a, withdrawal, 'approved'), b);
    expect(await tether(customer)).toBe(5000);

    const refund = await modify(a, withdrawal, 'rejected').expect(202);
    expect((await approval(b, refund.body.approvalId)).gatedBecause).toEqual(['threshold', 'settled-refund']);
    const backToPending = await modify(a, withdrawal, 'pending').expect(202);
    expect((await approval(b, backToPending.body.approvalId)).gatedBecause).toEqual(['threshold', 'settled-refund']);
    const deleted = await voidTx(a, withdrawal).expect(202);
    expect((await approval(b, deleted.body.approvalId)).gatedBecause).toEqual(['threshold', 'settled-refund']);
    expect(await tether(customer)).toBe(5000);
    expect(await statusOf(withdrawal)).toEqual({ status: 'approved', voided: false });

    const credit = await deposit(a, customer._id, { amount: 12000, status: 'approved', network: 'tether' }).expect(202);
    await approve(b, credit.body.approvalId).expect(200);
    const [creditTx] = await rows<{ id: string }>(db, sql`select id from transactions where user_id = ${customer._id} and type = 'deposit'`);
    await modify(a, creditTx.id, 'rejected').expect(202);
    expect(await tether(customer)).toBe(17000);
    expect(await statusOf(creditTx.id)).toEqual({ status: 'approved', voided: false });
    await expectLedgerClean(t);
  });

  it('attack 3 (velocity): direct actions are summed per admin and per customer over the window', async () => {
    const { a, b } = await pair();
    const x = await newCustomer(t);
    const y = await newCustomer(t);
    await deposit(a, x._id, { amount: 9999, status: 'approved', network: 'tether' }).expect(201);
    const second = await deposit(a, x._id, { amount: 9999, status: 'approved', network: 'tether' }).expect(202);
    const third = await deposit(a, x._id, { amount: 9999, status: 'approved', network: 'tether' }).expect(202);
    expect((await approval(b, second.body.approvalId)).gatedBecause).toEqual(['velocity']);
    expect((await approval(b, third.body.approvalId)).gatedBecause).toEqual(['velocity']);
    expect(await tether(x)).toBe(9999);
    // Another admin on the same customer: the customer's sum (9,999 + 1) reaches the threshold.
    expect((await deposit(b, x._id, { amount: 1, status: 'approved', network: 'tether' }).expect(202)).body.pendingApproval).toBe(true);
    // The same admin on another customer: the admin's sum reaches it.
    await deposit(a, y._id, { amount: 1, status: 'approved', network: 'tether' }).expect(202);
    // Neither sum is near it: applied at once. A debit counts too.
    await deposit(b, y._id, { amount: 100, status: 'approved', network: 'tether' }).expect(201);
    await updateBalance(b, y._id, { token: 'tether', amount: '50', type: 'no' }).expect(200);
    expect(await tether(y)).toBe(50);
    // What a second admin approved is not a direct action: it does not fill the window.
    await approve(b, second.body.approvalId).expect(200);
    const sums = await rows<{ admin_id: string; usd: string }>(
      db,
      sql`select admin_id, sum(usd_value)::text as usd from admin_direct_actions where admin_id in (${a._id}, ${b._id}) group by admin_id`,
    );
    expect(Object.fromEntries(sums.map((s) => [s.admin_id, Number(s.usd)]))).toEqual({ [a._id]: 9999, [b._id]: 150 });
    await expectLedgerClean(t);
  });

  describe('the transition table, row by row, below and at the threshold', () => {
    type Row = {
      subject: 'deposit' | 'withdrawal' | 'swap' | 'adjustment';
      from: 'pending' | 'approved' | 'rejected';
      to: 'pending' | 'approved' | 'rejected' | 'void';
      gated: boolean;
    };
    const ROWS: Row[] = [
      { subject: 'deposit', from: 'pending', to: 'approved', gated: true },
      { subject: 'deposit', from: 'rejected', to: 'approved', gated: true },
      { subject: 'deposit', from: 'approved', to: 'pending', gated: true },
      { subject: 'deposit', from: 'approved', to: 'rejected', gated: true },
      { subject: 'deposit', from: 'pending', to: 'rejected', gated: false },
      { subject: 'deposit', from: 'rejected', to: 'pending', gated: false },
      { subject: 'withdrawal', from: 'pending', to: 'approved', gated: true },
      { subject: 'withdrawal', from: 'rejected', to: 'approved', gated: true },
      { subject: 'withdrawal', from: 'approved', to: 'pending', gated: true },
      { subject: 'withdrawal', from: 'approved', to: 'rejected', gated: true },
      { subject: 'withdrawal', from: 'pending', to: 'rejected', gated: false },
      { subject: 'withdrawal', from: 'rejected', to: 'pending', gated: false },
      { subject: 'deposit', from: 'approved', to: 'void', gated: true },
      { subject: 'deposit', from: 'pending', to: 'void', gated: false },
      { subject: 'withdrawal', from: 'pending', to: 'void', gated: false },
      { subject: 'withdrawal', from: 'approved', to: 'void', gated: true },
      { subject: 'withdrawal', from: 'rejected', to: 'void', gated: false },
      { subject: 'swap', from: 'approved', to: 'void', gated: true },
      { subject: 'adjustment', from: 'approved', to: 'void', gated: true },
    ];

    /** A transaction of `subject` in status `from`, worth `usd`, made by a setup pair of admins. */
    async function transactionIn(setup: { a: Admin; b: Admin }, subject: Row['subject'], from: Row['from'], usd: number) {
      const customer = await newCustomer(t);
      let id: string;
      if (subject === 'deposit') {
        const created = await deposit(setup.a, customer._id, { amount: usd, status: 'pending', network: 'tether' }).expect(201);
        id = created.body._id;
      } else if (subject === 'adjustment') {
        await done(() => updateBalance(setup.a, customer._id, { token: 'tether', amount: String(usd), type: 'yes' }), setup.b);
        id = (await rows<{ id: string }>(db, sql`select id from transactions where user_id = ${customer._id} and type = 'adjustment'`))[0].id;
      } else if (subject === 'swap') {
        await done(() => updateBalance(setup.a, customer._id, { token: 'tether', amount: String(usd), type: 'yes' }), setup.b);
        const swapped = await t.http
          .post('/api/crypto/swap')
          .set(bearer(customer.token))
          .send({ from: 'tether', to: 'ethereum', amount: String(usd) })
          .expect(201);
        id = swapped.body.transaction._id;
      } else {
        // Extra funds, so a withdrawal rejected and held again always has its quantity.
        await done(() => updateBalance(setup.a, customer._id, { token: 'tether', amount: String(usd), type: 'yes' }), setup.b);
        id = await send(customer, usd);
      }
      if ((subject === 'deposit' || subject === 'withdrawal') && from !== 'pending') await done(() => modify(setup.a, id, from), setup.b);
      return { customer, id };
    }

    for (const band of [
      { name: 'below', usd: 5 },
      { name: 'at or above', usd: 20000 },
    ] as const) {
      it(`${band.name} the threshold: every row goes through or waits as the table says`, async () => {
        const setup = await pair();
        const actor = await newAdmin();
        const outcomes: string[] = [];
        for (const row of ROWS) {
          const { customer, id } = await transactionIn(setup, row.subject, row.from, band.usd);
          const before = await tether(customer);
          const response = row.to === 'void' ? await voidTx(actor, id) : await modify(actor, id, row.to);
          const expected = row.gated && band.usd >= 10000 ? 202 : 200;
          outcomes.push(`${row.subject} ${row.from} → ${row.to}: ${response.status}`);
          if (response.status !== expected) continue;
          const after = await statusOf(id);
          if (expected === 202) {
            expect(after).toEqual({ status: row.from, voided: false });
            expect(await tether(customer)).toBe(before);
          } else {
            expect(after).toEqual(row.to === 'void' ? { status: row.from, voided: true } : { status: row.to, voided: false });
          }
        }
        expect(outcomes).toEqual(ROWS.map((row) => `${row.subject} ${row.from} → ${row.to}: ${row.gated && band.usd >= 10000 ? 202 : 200}`));
        await expectLedgerClean(t);
      }, 120_000);
    }

    it('adjustments: add, set up and set down are gated by the value they move', async () => {
      const { a, b } = await pair();
      const customer = await newCustomer(t);
      await updateBalance(a, customer._id, { token: 'tether', amount: '9000', type: 'yes' }).expect(200);
      // Set down by 9,000 (alone below the threshold, but the window's sum reaches it).
      expect((await updateBalance(a, customer._id, { token: 'tether', amount: '0', type: 'no' }).expect(202)).body.pendingApproval).toBe(true);
      const other = await newCustomer(t);
      await done(() => updateBalance(b, other._id, { token: 'tether', amount: '30000', type: 'yes' }), a);
      // Set down by 20,000: a debit at the threshold.
      const down = await updateBalance(b, other._id, { token: 'tether', amount: '10000', type: 'no' }).expect(202);
      expect((await approval(a, down.body.approvalId)).posting).toEqual([
        { account: 'customer', userId: other._id, token: 'tether', amount: '-20000', symbol: 'USDT' },
        { account: 'adjustments', token: 'tether', amount: '20000', symbol: 'USDT' },
      ]);
      expect(await tether(other)).toBe(30000);
    });
  });

  it.runIf(kind === 'postgres')('20 concurrent approvals of a stale request: each caller gets 409 and nothing moves', async () => {
    const { a, b } = await pair();
    const customer = await newCustomer(t);
    await done(() => updateBalance(a, customer._id, { token: 'tether', amount: '12000', type: 'yes' }), b);
    const held = await updateBalance(a, customer._id, { token: 'tether', amount: '30000', type: 'no' }).expect(202);
    await send(customer, 100);
    const results = await Promise.all(Array.from({ length: 20 }, () => call(t, 'POST', `/api/admin/approvals/${held.body.approvalId}/approve`, b.token)));
    expect(results.map((r) => [r.status, r.body.error])).toEqual(Array.from({ length: 20 }, () => [409, STALE_BALANCE]));
    expect(await tether(customer)).toBe(11900);
    const adjustments = await rows<{ n: number }>(db, sql`select count(*)::int as n from transactions where user_id = ${customer._id} and type = 'adjustment'`);
    expect(adjustments[0].n).toBe(1);
    await expectLedgerClean(t);
  });
});
