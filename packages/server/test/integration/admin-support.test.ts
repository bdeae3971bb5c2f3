import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { DATABASE_KINDS } from '../support/databases';
import { seedCoins } from '../support/market';
import { ADMIN_EMAIL, bearer, loginAdmin, signUp, startTestApp, type TestApp } from '../support/test-app';

const RANDOM_UUID = '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b';

describe.each(DATABASE_KINDS)('admin users, audit log and dashboard on %s', (kind) => {
  let t: TestApp;
  let admin: { token: string; _id: string };
  let db: Database;
  beforeAll(async () => {
    t = await startTestApp(kind);
    db = t.app.get(DATABASE);
    await seedCoins(t, { bitcoin: '50000', ethereum: '2500', tether: '1' });
    for (const id of ['bitcoin', 'ethereum', 'tether'])
      await db.execute(
        sql`insert into supported_tokens (coin_id) select ${id} where not exists (select 1 from supported_tokens where coin_id = ${id} and deleted_at is null)`,
      );
    admin = await loginAdmin(t.http);
  });
  afterAll(async () => {
    await t?.close();
  });

  const credit = (userId: string, token: string, usd: string) =>
    t.http.post(`/api/admin/update-balance/${userId}`).set(bearer(admin.token)).send({ token, amount: usd, type: 'yes', msg: 'test credit' });
  const dashboard = async () => (await t.http.get('/api/admin/dashboard').set(bearer(admin.token)).expect(200)).body;

  it('deletes (deactivates) a customer: login refused, old tokens revoked, hidden from the list; ledger and history kept; audited', async () => {
    const ada = await signUp(t.http);
    await credit(ada._id, 'bitcoin', '100').expect(200);
    const usersBefore = (await dashboard()).users;

    const response = await t.http.delete(`/api/admin/delete-user/${ada._id}`).set(bearer(admin.token)).expect(200);
    expect(response.body).toEqual({ ok: true, message: 'User deleted successfully' });

    await t.http.get('/api/user/get-user-balance').set(bearer(ada.token)).expect(401);
    expect((await t.http.post('/api/user/login-user').send({ email: ada.email, password: ada.password }).expect(401)).body.error).toBe(
      'Invalid email or password.',
    );
    const list = await t.http.get('/api/user/get-users?limit=100').set(bearer(admin.token)).expect(200);
    expect(list.body.map((u: { _id: string }) => u._id)).not.toContain(ada._id);
    expect((await dashboard()).users).toBe(usersBefore - 1);

    const kept = await rows<{ n: number }>(
      db,
      sql`select (select count(*)::int from transactions where user_id = ${ada._id}) + (select count(*)::int from journal_lines l join ledger_accounts a on a.id = l.account_id where a.user_id = ${ada._id}) as n`,
    );
    expect(kept[0].n).toBeGreaterThanOrEqual(2);
    const [account] = await rows<{ balance: string }>(
      db,
      sql`select balance::text as balance from ledger_accounts where user_id = ${ada._id} and token = 'bitcoin'`,
    );
    expect(Number(account.balance)).toBeCloseTo(0.002, 8);

    const audit = (await t.http.get(`/api/admin/audit?action=user.deactivate&targetId=${ada._id}`).set(bearer(admin.token)).expect(200)).body;
    expect(audit.items).toHaveLength(1);
    expect(audit.items[0]).toMatchObject({
      actorId: admin._id,
      actorEmail: ADMIN_EMAIL,
      targetType: 'user',
      before: { email: ada.email, deactivatedAt: null },
      after: { deactivatedAt: expect.any(String) },
    });

    // Gone from the admin's point of view.
    expect((await t.http.delete(`/api/admin/delete-user/${ada._id}`).set(bearer(admin.token)).expect(404)).body.error).toBe('User not found.');
    await t.http.post(`/api/admin/send-notifiction/${ada._id}`).set(bearer(admin.token)).send({ title: 't', message: 'm' }).expect(404);
  });

  it('refuses to delete an admin (409), itself (409), unknown or malformed ids (404)', async () => {
    expect((await t.http.delete(`/api/admin/delete-user/${admin._id}`).set(bearer(admin.token)).expect(409)).body.error).toBe(
      'You cannot delete your own account.',
    );
    const [other] = await rows<{ id: string }>(
      db,
      sql`insert into users (name, email, email_normalized, password_hash, country, role) values ('Other admin', 'other-admin@test.local', 'other-admin@test.local', 'x', '-', 'admin') returning id`,
    );
    expect((await t.http.delete(`/api/admin/delete-user/${other.id}`).set(bearer(admin.token)).expect(409)).body.error).toBe(
      'An administrator account cannot be deleted.',
    );
    await t.http.delete(`/api/admin/delete-user/${RANDOM_UUID}`).set(bearer(admin.token)).expect(404);
    await t.http.delete('/api/admin/delete-user/not-a-uuid').set(bearer(admin.token)).expect(404);
    await t.http.get('/api/user/me').set(bearer(admin.token)).expect(200);
  });

  it('shows counts, liabilities per token and a clean ledger check on the dashboard', async () => {
    const before = await dashboard();
    expect(Object.keys(before).sort()).toEqual(['cryptoCurrencies', 'ledgerCheck', 'liabilities', 'notifications', 'openTickets', 'users', 'waiting']);
    const [{ live }] = await rows<{ live: number }>(db, sql`select count(*)::int as live from supported_tokens where deleted_at is null`);
    expect(live).toBeGreaterThanOrEqual(3);
    expect(before.cryptoCurrencies).toBe(live);
    await db.execute(sql`update supported_tokens set deleted_at = now() where coin_id = 'ethereum'`);
    expect((await dashboard()).cryptoCurrencies).toBe(live - 1);
    await db.execute(sql`update supported_tokens set deleted_at = null where coin_id = 'ethereum'`);

    const ada = await signUp(t.http);
    const bob = await signUp(t.http);
    await credit(ada._id, 'bitcoin', '500').expect(200);
    await credit(bob._id, 'bitcoin', '250').expect(200);
    await credit(bob._id, 'tether', '10').expect(200);
    await t.http.post(`/api/admin/send-notifiction/${ada._id}`).set(bearer(admin.token)).send({ title: 'Hi', message: 'there' }).expect(200);
    await t.http.post('/api/user/create-ticket').send({ subject: 's', note: 'n', email: 'a@b.co' }).expect(201);

    const after = await dashboard();
    expect(after.users).toBe(before.users + 2);
    expect(after.openTickets).toBe(before.openTickets + 1);
    // Three balance notifications (from the ledger module) and one from the admin.
    expect(after.notifications).toBe(before.notifications + 4);
    const [{ n }] = await rows<{ n: number }>(db, sql`select count(*)::int as n from notifications`);
    expect(after.notifications).toBe(n);

    const liability = (token: string) => after.liabilities.find((l: { token: string }) => l.token === token);
    const prior = (token: string) => Number(before.liabilities.find((l: { token: string }) => l.token === token)?.total ?? 0);
    expect(Number(liability('bitcoin').total) - prior('bitcoin')).toBeCloseTo(0.015, 10);
    expect(Number(liability('tether').total) - prior('tether')).toBeCloseTo(10, 10);
    const [sum] = await rows<{ total: string }>(
      db,
      sql`select coalesce(sum(balance), 0)::text as total from ledger_accounts where kind = 'customer' and token = 'bitcoin'`,
    );
    expect(Number(liability('bitcoin').total)).toBe(Number(sum.total));

    expect(after.ledgerCheck.ok).toBe(true);
    expect(after.ledgerCheck.tokens.map((x: { token: string }) => x.token)).toEqual(expect.arrayContaining(['bitcoin', 'tether']));
    for (const token of after.ledgerCheck.tokens) expect(Number(token.sum)).toBe(0);
  });

  it('reports a tampered ledger on the dashboard', async () => {
    const ada = await signUp(t.http);
    await credit(ada._id, 'ethereum', '25').expect(200);
    await db.execute(sql`update ledger_accounts set balance = balance + 1 where user_id = ${ada._id} and token = 'ethereum'`);
    try {
      const check = (await dashboard()).ledgerCheck;
      expect(check.ok).toBe(false);
      expect(check.mismatches.some((m: { token: string }) => m.token === 'ethereum')).toBe(true);
    } finally {
      await db.execute(sql`update ledger_accounts set balance = balance - 1 where user_id = ${ada._id} and token = 'ethereum'`);
    }
    expect((await dashboard()).ledgerCheck.ok).toBe(true);
  });

  it('pages the audit log newest first and filters by admin, action and target', async () => {
    const ada = await signUp(t.http);
    for (let i = 0; i < 5; i++)
      await t.http
        .post(`/api/admin/send-notifiction/${ada._id}`)
        .set(bearer(admin.token))
        .send({ title: `n${i}`, message: 'm' })
        .expect(200);

    const all: Array<{ _id: string; action: string; targetId: string; after: { title: string } }> = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { body: { items: typeof all; nextCursor: string | null } } = await t.http
        .get('/api/admin/audit')
        .query({ action: 'notification.send', targetType: 'user', targetId: ada._id, actor: admin._id, limit: '2', ...(cursor ? { cursor } : {}) })
        .set(bearer(admin.token))
        .expect(200);
      all.push(...page.body.items);
      cursor = page.body.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(all.map((a) => a.after.title)).toEqual(['n4', 'n3', 'n2', 'n1', 'n0']);
    const ids = all.map((a) => Number(a._id));
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);

    const other = await t.http.get('/api/admin/audit').query({ actor: RANDOM_UUID }).set(bearer(admin.token)).expect(200);
    expect(other.body).toEqual({ items: [], nextCursor: null });
    const signups = (await t.http.get('/api/admin/audit').query({ action: 'user.sign_up', targetId: ada._id }).set(bearer(admin.token)).expect(200)).body.items;
    expect(signups).toHaveLength(1);
    expect(signups[0]).toMatchObject({ actorId: ada._id, actorRole: 'user' });

    const first = (await t.http.get('/api/admin/audit?limit=1').set(bearer(admin.token)).expect(200)).body;
    expect(first.items).toHaveLength(1);
    expect(typeof first.nextCursor).toBe('string');

    expect((await t.http.get('/api/admin/audit?actor=bob').set(bearer(admin.token)).expect(400)).body.error).toBe('The admin filter must be an account id.');
    expect((await t.http.get('/api/admin/audit?limit=101').set(bearer(admin.token)).expect(400)).body.error).toBe(
      'Limit must be a whole number from 1 to 100.',
    );
    expect((await t.http.get('/api/admin/audit?cursor=abc').set(bearer(admin.token)).expect(400)).body.error).toBe('The page cursor is not valid.');
    await t.http.get('/api/admin/audit?unknown=1').set(bearer(admin.token)).expect(400);
    expect((await t.http.get('/api/admin/audit?action=a&action=b').set(bearer(admin.token)).expect(400)).body.error).toBe('Give one action to filter by.');
  });
});

async function rows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}
