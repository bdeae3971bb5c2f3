import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { DATABASE_KINDS } from '../support/databases';
import { addAdministrator } from '../../src/modules/admin/add-administrator';
import { bearer, uniqueEmail } from '../support/test-app';
import { ADDRESSES, call, expectLedgerClean, fund, newCustomer, startWalletApp, type WalletApp } from '../support/wallet';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), Buffer.from('IHDR'), Buffer.alloc(64, 1)]);
const RAISE = 'To raise it, verify your identity in Profile → Verification.';

describe.each(DATABASE_KINDS)('verification limits in the money functions on %s (KYC_LIMITS=on)', (kind) => {
  let t: WalletApp;
  beforeAll(async () => {
    // The concurrent sends race in PostgreSQL, not in the app's per-customer queue, with generous lock timeouts.
    t = await startWalletApp(
      kind,
      { KYC_LIMITS: 'on', APPROVAL_THRESHOLD_USD: '0', MONEY_CALLS_PER_CUSTOMER: '1000', DB_LOCK_TIMEOUT_MS: '60000', DB_STATEMENT_TIMEOUT_MS: '120000' },
      { listen: kind === 'postgres' },
    );
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    if (t) await expectLedgerClean(t);
  });

  const db = () => t.app.get<Database>(DATABASE);
  const send = (token: string, amount: string | number) =>
    t.http
      .post('/api/crypto/send-crypto/bitcoin')
      .set(bearer(token))
      .send({ transferData: { address: ADDRESSES.bitcoin, amount, symbol: 'btc', coinAmount: '0' } });
  const swap = (token: string, amount: string | number) => t.http.post('/api/crypto/swap').set(bearer(token)).send({ amount, from: 'bitcoin', to: 'ethereum' });
  const setLevel = (userId: string, level: number) => db().execute(sql`update users set verification_level = ${level} where id = ${userId}`);
  /** Moves the customer's rows back in time (outside the last 24 hours, inside the 30 days). */
  const age = (userId: string, hours: number) =>
    db().execute(sql`update transactions set created_at = created_at - make_interval(hours => ${hours}) where user_id = ${userId}`);
  const left = async (token: string) => (await t.http.get('/api/user/verification').set(bearer(token)).expect(200)).body.left;

  it('level 0: no withdrawal at all, with the limit, what is left and how to raise it; nothing moves', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 500);
    const refused = await send(user.token, 1).expect(403);
    expect(refused.body.error).toBe(`Level 0 allows no withdrawals. ${RAISE}`);
    expect(refused.body.details).toEqual({ limitUsd: ['0.00'], leftUsd: ['0.00'], period: ['single'], level: ['0'], raise: [RAISE] });
    const rows = (await db().execute(sql`select count(*)::int as n from transactions where user_id = ${user._id} and type = 'withdrawal'`)) as unknown as {
      rows: Array<{ n: number }>;
    };
    expect(rows.rows[0].n).toBe(0);
    expect(await left(user.token)).toMatchObject({ withdrawalToday: '0.00', depositToday: '1000.00', swapToday: '1000.00' });
  });

  it('level 0 swaps per day: just under passes, past refuses with what is left, the rest up to the limit passes, then nothing', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 2000);
    await swap(user.token, '999.99').expect(201);
    expect((await left(user.token)).swapToday).toBe('0.01');
    const over = await swap(user.token, '0.02').expect(403);
    expect(over.body.error).toBe(`This is over your level-0 limit for swaps: 1,000 USD a day, 0.01 USD left. ${RAISE}`);
    expect(over.body.details.leftUsd).toEqual(['0.01']);
    await swap(user.token, '0.01').expect(201);
    await swap(user.token, '0.01').expect(403);
    // A day later the window has moved on.
    await age(user._id, 25);
    await swap(user.token, 1000).expect(201);
  });

  it('a level-1 approval raises the limit: per day and the largest single withdrawal at their boundaries', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 30000);
    await send(user.token, 10).expect(403);
    for (const kind of ['id_front', 'selfie'])
      await t.http.post('/api/user/verification/documents').set(bearer(user.token)).field('kind', kind).attach('image', PNG, 'doc.png').expect(200);
    await t.http
      .post('/api/user/verification/submit')
      .set(bearer(user.token))
      .send({ level: 1, legalName: 'Ada Lovelace', dateOfBirth: '1990-04-21', address: '1 Main St', country: 'DE', documentType: 'passport' })
      .expect(200);
    const [item] = (await t.http.get(`/api/admin/verifications?userId=${user._id}`).set(bearer(t.admin)).expect(200)).body.items;
    await t.http.post(`/api/admin/verifications/${item._id}/approve`).set(bearer(t.admin)).expect(200);

    const single = await send(user.token, '10000.01').expect(403);
    expect(single.body.error).toBe(`This is over the largest single withdrawal of level 1: 10,000 USD. ${RAISE}`);
    await send(user.token, '9999.99').expect(201);
    const over = await send(user.token, '0.02').expect(403);
    expect(over.body.error).toBe(`This is over your level-1 limit for withdrawals: 10,000 USD a day, 0.01 USD left. ${RAISE}`);
    await send(user.token, '0.01').expect(201);
    await send(user.token, '0.01').expect(403);
    expect((await left(user.token)).withdrawalToday).toBe('0.00');
  });

  it('per 30 days: what was sent over the month counts; just under passes, past refuses; older than 30 days does not count', async () => {
    const user = await newCustomer(t);
    await setLevel(user._id, 1);
    await fund(t, user._id, 'bitcoin', 60000);
    for (let day = 0; day < 5; day++) {
      await send(user.token, 9000).expect(201);
      await age(user._id, 25);
    }
    // 45,000 over the last five days; today's 4,999.99 leaves 0.01 of the month and 5,000.01 of the day.
    await send(user.token, '4999.99').expect(201);
    const over = await send(user.token, '0.02').expect(403);
    expect(over.body.error).toBe(`This is over your level-1 limit for withdrawals: 50,000 USD per 30 days, 0.01 USD left. ${RAISE}`);
    expect(over.body.details.period).toEqual(['month']);
    await send(user.token, '0.01').expect(201);
    await send(user.token, '0.01').expect(403);
    // One older than 30 days no longer counts.
    await age(user._id, 24 * 27);
    await send(user.token, 5000).expect(201);
  });

  it('an admin changes a level’s limits (audited) and the next call is held to them', async () => {
    const user = await newCustomer(t);
    await setLevel(user._id, 2);
    await fund(t, user._id, 'bitcoin', 1000);
    const before = (await t.http.get('/api/admin/verification-limits').set(bearer(t.admin)).expect(200)).body;
    expect(before.limitsEnabled).toBe(true);
    const level2 = before.levels.find((l: { level: number }) => l.level === 2).limits;
    await t.http
      .put('/api/admin/verification-limits/2')
      .set(bearer(t.admin))
      .send({ ...level2, withdrawalDay: 'lots' })
      .expect(400);
    await t.http.put('/api/admin/verification-limits/3').set(bearer(t.admin)).send(level2).expect(404);
    await t.http.put('/api/admin/verification-limits/2').set(bearer(user.token)).send(level2).expect(403);
    const changed = await t.http
      .put('/api/admin/verification-limits/2')
      .set(bearer(t.admin))
      .send({ ...level2, withdrawalDay: '100', withdrawalMonth: '' })
      .expect(200);
    expect(changed.body.levels[2].limits).toMatchObject({ withdrawalDay: '100', withdrawalMonth: null });
    await send(user.token, 100).expect(201);
    expect((await send(user.token, 1).expect(403)).body.error).toBe(
      'This is over your level-2 limit for withdrawals: 100 USD a day, 0 USD left. Contact support to ask for a higher limit.',
    );
    const audit = (await db().execute(sql`select before, after from audit_log where action = 'verification.limits' and target_id = '2'`)) as unknown as {
      rows: Array<{ before: Record<string, unknown>; after: Record<string, unknown> }>;
    };
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0].before).toMatchObject({ withdrawalDay: level2.withdrawalDay });
    expect(audit.rows[0].after).toMatchObject({ withdrawalDay: '100', withdrawalMonth: null });
    await t.http.put('/api/admin/verification-limits/2').set(bearer(t.admin)).send(level2).expect(200);
  });

  it('erasure of a closed account deletes its documents and personal details; its ledger entries stay under its id, the books balanced', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 300);
    await swap(user.token, 100).expect(201);
    for (const kind of ['id_front', 'selfie'])
      await t.http.post('/api/user/verification/documents').set(bearer(user.token)).field('kind', kind).attach('image', PNG, 'doc.png').expect(200);
    await t.http
      .post('/api/user/verification/submit')
      .set(bearer(user.token))
      .send({ level: 1, legalName: 'Grace Hopper', dateOfBirth: '1980-12-09', address: '1 Navy Yard', country: 'US', documentType: 'passport' })
      .expect(200);
    const [item] = (await t.http.get(`/api/admin/verifications?userId=${user._id}`).set(bearer(t.admin)).expect(200)).body.items;
    await t.http.post(`/api/admin/verifications/${item._id}/reject`).set(bearer(t.admin)).send({ reason: 'Blurred' }).expect(200);

    const open = await t.http.post(`/api/admin/users/${user._id}/erase`).set(bearer(t.admin)).expect(409);
    expect(open.body.error).toBe('Only a closed account can be erased: delete (close) the account first.');
    await t.http.post(`/api/admin/users/${user._id}/erase`).set(bearer(user.token)).expect(403);
    await t.http.delete(`/api/admin/delete-user/${user._id}`).set(bearer(t.admin)).expect(200);
    const erased = await t.http.post(`/api/admin/users/${user._id}/erase`).set(bearer(t.admin)).expect(200);
    expect(erased.body._id).toBe(user._id);
    await t.http.post(`/api/admin/users/${user._id}/erase`).set(bearer(t.admin)).expect(409);

    const rows = async (query: ReturnType<typeof sql>) => ((await db().execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;
    expect(await rows(sql`select id from verification_documents where user_id = ${user._id}`)).toEqual([]);
    expect(await rows(sql`select details_sealed from verification_submissions where user_id = ${user._id}`)).toEqual([{ details_sealed: null }]);
    const [account] = await rows(sql`select name, email, country from users where id = ${user._id}`);
    expect(account).toEqual({ name: 'Erased customer', email: `erased-${user._id}@erased.invalid`, country: '-' });
    expect(JSON.stringify(await rows(sql`select * from users where id = ${user._id}`))).not.toContain(user.email);
    // The History and the ledger keep their rows under the same id; the review's detail says nothing more of the person.
    expect(await rows(sql`select type from transactions where user_id = ${user._id} order by seq`)).toEqual([{ type: 'adjustment' }, { type: 'swap' }]);
    const detail = (await t.http.get(`/api/admin/verifications/${item._id}`).set(bearer(t.admin)).expect(200)).body;
    expect(detail).toMatchObject({ userName: 'Erased customer', details: null, documents: [] });
    await t.http.post('/api/user/login-user').send({ email: user.email, password: user.password }).expect(401);
    // expectLedgerClean (afterEach) checks the books.
  });

  it.runIf(kind === 'postgres')('100 concurrent sends never go over the day’s limit (PostgreSQL)', async () => {
    const user = await newCustomer(t);
    await setLevel(user._id, 1);
    await fund(t, user._id, 'bitcoin', 20000);
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        call(t, 'POST', '/api/crypto/send-crypto/bitcoin', user.token, {
          transferData: { address: ADDRESSES.bitcoin, amount: 150, symbol: 'btc', coinAmount: '0' },
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.filter((s) => s === 201)).toHaveLength(66);
    expect(statuses.filter((s) => s === 403)).toHaveLength(34);
    const total = (await db().execute(
      sql`select sum(usd_amount)::text as usd from transactions where user_id = ${user._id} and type = 'withdrawal'`,
    )) as unknown as { rows: Array<{ usd: string }> };
    expect(Number(total.rows[0].usd)).toBe(9900);
  });
});

describe.each(DATABASE_KINDS)('verification limits changed with four-eyes on, on %s', (kind) => {
  let t: WalletApp;
  beforeAll(async () => {
    t = await startWalletApp(kind, { KYC_LIMITS: 'on', APPROVAL_THRESHOLD_USD: '10000' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a limit edit is a request a second admin approves: nothing changes before, the requester cannot approve it, the approval applies it (audited)', async () => {
    const db = t.app.get<Database>(DATABASE);
    const limitsOf = async (level: number) =>
      (await t.http.get('/api/admin/verification-limits').set(bearer(t.admin)).expect(200)).body.levels.find((l: { level: number }) => l.level === level)
        .limits;
    // The second admin exists before the request (an admin created later cannot approve what was asked before).
    const email = uniqueEmail('admin');
    await addAdministrator(db, { name: 'Second', email, password: 'an-admin-password' });
    const second = (await t.http.post('/api/admin/login-admin').send({ email, password: 'an-admin-password' }).expect(200)).body.token;
    const level0 = await limitsOf(0);
    const requested = await t.http
      .put('/api/admin/verification-limits/0')
      .set(bearer(t.admin))
      .send({ ...level0, depositDay: '2000' })
      .expect(202);
    expect(requested.body).toMatchObject({ pendingApproval: true });
    // Nothing changed yet, for the customers either.
    expect((await limitsOf(0)).depositDay).toBe(level0.depositDay);
    const user = await newCustomer(t);
    expect((await t.http.get('/api/user/verification').set(bearer(user.token)).expect(200)).body.left.depositToday).toBe('1000.00');

    const listed = (await t.http.get('/api/admin/approvals').set(bearer(second)).expect(200)).body.find(
      (a: { _id: string }) => a._id === requested.body.approvalId,
    );
    expect(listed).toMatchObject({ action: 'update-verification-limits', status: 'pending' });
    expect(listed.summary).toContain('Set the level-0 limits: deposits');
    await t.http.post(`/api/admin/approvals/${requested.body.approvalId}/approve`).set(bearer(t.admin)).expect(403);
    expect((await limitsOf(0)).depositDay).toBe(level0.depositDay);

    await t.http.post(`/api/admin/approvals/${requested.body.approvalId}/approve`).set(bearer(second)).expect(200);
    expect((await limitsOf(0)).depositDay).toBe('2000');
    expect((await t.http.get('/api/user/verification').set(bearer(user.token)).expect(200)).body.left.depositToday).toBe('2000.00');
    const audit = (await db.execute(sql`select after from audit_log where action = 'verification.limits' and target_id = '0'`)) as unknown as {
      rows: Array<{ after: Record<string, unknown> }>;
    };
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0].after).toMatchObject({ depositDay: '2000' });
  });
});
