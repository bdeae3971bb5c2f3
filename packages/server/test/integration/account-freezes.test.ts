import { sql } from 'drizzle-orm';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_FROZEN_MESSAGE } from '@coinpurse/contract';
import { DATABASE, type Database } from '../../src/db/database';
import { addAdministrator } from '../../src/modules/admin/add-administrator';
import { DATABASE_KINDS } from '../support/databases';
import { bearer, uniqueEmail } from '../support/test-app';
import { ADDRESSES, expectLedgerClean, fund, holdings, newCustomer, startWalletApp, type WalletApp } from '../support/wallet';

/**
 * Frozen accounts (issue 35): an admin freezes a customer with a reason; sign-in, reading and deposits go on, nothing
 * leaves (send, swap, keys with trade or withdraw: 403 "contact support"); unfreezing gives it all back. With four-eyes
 * on, both are requests a second admin approves. On PostgreSQL: a send waits for a freeze being written and is refused.
 */
async function rows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}

describe.each(DATABASE_KINDS)('frozen accounts on %s', (kind) => {
  let t: WalletApp;
  let db: Database;

  beforeAll(async () => {
    t = await startWalletApp(kind, {}, { listen: kind === 'postgres' });
    db = t.app.get(DATABASE);
  }, 180_000);
  afterAll(async () => {
    if (t) await expectLedgerClean(t);
    await t?.close();
  });

  const freeze = (admin: string, userId: string, body: object) => t.http.post(`/api/admin/users/${userId}/freeze`).set(bearer(admin)).send(body);
  const unfreeze = (admin: string, userId: string, body: object) => t.http.post(`/api/admin/users/${userId}/unfreeze`).set(bearer(admin)).send(body);
  const send = (token: string, usd: number) =>
    t.http
      .post('/api/crypto/send-crypto/tether')
      .set(bearer(token))
      .send({ transferData: { address: ADDRESSES.ethereum, amount: String(usd) } });
  const swap = (token: string) => t.http.post('/api/crypto/swap').set(bearer(token)).send({ amount: 10, from: 'tether', to: 'bitcoin' });

  it('refuses bad requests with a message and changes nothing', async () => {
    const user = await newCustomer(t);
    expect((await freeze(t.admin, user._id, {}).expect(400)).body.error).toMatch(/reason is required/i);
    expect((await freeze(t.admin, user._id, { reason: '   ' }).expect(400)).body.error).toMatch(/reason is required/i);
    expect((await freeze(t.admin, '00000000-0000-4000-8000-000000000000', { reason: 'x' }).expect(404)).body.error).toBe('Customer not found.');
    await freeze(t.admin, 'not-a-uuid', { reason: 'x' }).expect(404);
    expect((await unfreeze(t.admin, user._id, { reason: 'x' }).expect(409)).body.error).toBe('This account is not frozen.');
    // A customer cannot freeze anyone.
    await freeze(user.token, user._id, { reason: 'x' }).expect(403);
    expect(await rows(db, sql`select 1 from account_freezes where user_id = ${user._id}`)).toEqual([]);
  });

  it('a frozen customer signs in and reads, deposits credit, but send, swap and a trade key are refused; unfreezing gives them back', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'tether', 500);
    const key = (
      await t.http
        .post('/api/user/api-keys')
        .set(bearer(user.token))
        .send({ name: 'bot', scopes: ['read', 'trade'] })
        .expect(201)
    ).body.key;

    const frozen = await freeze(t.admin, user._id, { reason: 'Suspected account takeover (ticket 42)' }).expect(200);
    expect(frozen.body).toEqual({
      message: 'Account frozen',
      userId: user._id,
      freeze: { reason: 'Suspected account takeover (ticket 42)', frozenAt: expect.any(String), frozenBy: expect.any(String) },
    });
    expect((await freeze(t.admin, user._id, { reason: 'again' }).expect(409)).body.error).toBe('This account is already frozen.');

    // Sign-in and reading still work.
    const signedIn = await t.http.post('/api/user/login-user').send({ email: user.email, password: user.password });
    expect(signedIn.status).toBe(200);
    const before = await holdings(t, user.token);
    expect(Number(before.tether)).toBe(500);
    await t.http.get('/api/user/get-transaction').set(bearer(key)).expect(200);

    // Nothing leaves: send and swap (session and key) refused by the money functions and the key check.
    expect((await send(user.token, 10).expect(403)).body).toEqual({ statusCode: 403, error: ACCOUNT_FROZEN_MESSAGE });
    expect((await swap(user.token).expect(403)).body.error).toBe(ACCOUNT_FROZEN_MESSAGE);
    expect((await swap(key).expect(403)).body.error).toBe(ACCOUNT_FROZEN_MESSAGE);
    expect(await holdings(t, user.token)).toEqual(before);

    // Deposits still credit.
    await fund(t, user._id, 'tether', 25);
    expect(Number((await holdings(t, user.token)).tether)).toBe(525);

    // The admin sees it on the customer's page and in the audit log; the customer was told.
    const detail = (await t.http.get(`/api/admin/users/${user._id}`).set(bearer(t.admin)).expect(200)).body;
    expect(detail.profile.freeze).toEqual(frozen.body.freeze);
    expect(detail.audit).toEqual(expect.arrayContaining([expect.objectContaining({ action: 'account.freeze' })]));
    const notes = (await t.http.get('/api/user/get-notifications').set(bearer(user.token)).expect(200)).body;
    expect(JSON.stringify(notes)).toContain('Account frozen');

    const thawed = await unfreeze(t.admin, user._id, { reason: 'Customer verified by phone' }).expect(200);
    expect(thawed.body).toEqual({ message: 'Account unfrozen', userId: user._id, freeze: null });
    await send(user.token, 10).expect(201);
    await swap(key).expect(201);
    const audit = await rows<{ action: string; after: { reason: string } }>(
      db,
      sql`select action, after from audit_log where target_id = ${user._id} and action like 'account.%' order by id`,
    );
    expect(audit.map((a) => [a.action, a.after.reason])).toEqual([
      ['account.freeze', 'Suspected account takeover (ticket 42)'],
      ['account.unfreeze', 'Customer verified by phone'],
    ]);
  });

  it.runIf(kind === 'postgres')('a send that starts while a freeze is being written waits for it, then is refused', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'tether', 100);
    const locker = new Client({ connectionString: t.config.databaseUrl });
    await locker.connect();
    try {
      // The freeze as the service writes it: the customer's row locked, the freeze inserted, not committed yet.
      await locker.query('begin');
      await locker.query(`select id from users where id = $1 for update`, [user._id]);
      await locker.query(`insert into account_freezes (user_id, reason) values ($1, 'race')`, [user._id]);
      let answered = false;
      const pending = send(user.token, 10).then((response) => {
        answered = true;
        return response;
      });
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(answered).toBe(false);
      await locker.query('commit');
      const response = await pending;
      expect(response.status).toBe(403);
      expect(response.body.error).toBe(ACCOUNT_FROZEN_MESSAGE);
    } finally {
      await locker.query('rollback').catch(() => undefined);
      await locker.end();
    }
    expect(Number((await holdings(t, user.token)).tether)).toBe(100);
  });
});

describe.each(DATABASE_KINDS)('freezing with four-eyes on, on %s', (kind) => {
  let t: WalletApp;
  let db: Database;

  beforeAll(async () => {
    t = await startWalletApp(kind, { APPROVAL_THRESHOLD_USD: '10000' });
    db = t.app.get(DATABASE);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  it('a freeze and an unfreeze are requests a second admin approves; the requester cannot approve their own', async () => {
    const email = uniqueEmail('admin');
    await addAdministrator(db, { name: 'Second', email, password: 'an-admin-password' });
    const second = (await t.http.post('/api/admin/login-admin').send({ email, password: 'an-admin-password' }).expect(200)).body.token;
    const user = await newCustomer(t);
    await fund(t, user._id, 'tether', 50);

    const held = await t.http.post(`/api/admin/users/${user._id}/freeze`).set(bearer(t.admin)).send({ reason: 'Sanctions review' }).expect(202);
    expect(held.body).toMatchObject({ pendingApproval: true });
    // Not frozen yet.
    await t.http
      .post('/api/crypto/send-crypto/tether')
      .set(bearer(user.token))
      .send({ transferData: { address: ADDRESSES.ethereum, amount: '1' } })
      .expect(201);
    await t.http.post(`/api/admin/approvals/${held.body.approvalId}/approve`).set(bearer(t.admin)).expect(403);
    const listed = (await t.http.get('/api/admin/approvals').set(bearer(second)).expect(200)).body.find((a: { _id: string }) => a._id === held.body.approvalId);
    expect(listed).toMatchObject({ action: 'freeze-account', reason: 'Sanctions review', gatedBecause: ['account-freeze'], posting: [], userId: user._id });
    await t.http.post(`/api/admin/approvals/${held.body.approvalId}/approve`).set(bearer(second)).expect(200);
    await t.http
      .post('/api/crypto/send-crypto/tether')
      .set(bearer(user.token))
      .send({ transferData: { address: ADDRESSES.ethereum, amount: '1' } })
      .expect(403);

    const release = await t.http.post(`/api/admin/users/${user._id}/unfreeze`).set(bearer(second)).send({ reason: 'Cleared' }).expect(202);
    await t.http.post(`/api/admin/approvals/${release.body.approvalId}/approve`).set(bearer(t.admin)).expect(200);
    await t.http
      .post('/api/crypto/send-crypto/tether')
      .set(bearer(user.token))
      .send({ transferData: { address: ADDRESSES.ethereum, amount: '1' } })
      .expect(201);
    const audit = await rows<{ action: string }>(db, sql`select action from audit_log where target_id = ${user._id} and action like 'account.%' order by id`);
    expect(audit.map((a) => a.action)).toEqual(['account.freeze', 'account.unfreeze']);
  });
});
