import { sql, type SQL } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.factory';
import { loadConfig } from '../../src/config/config';
import { DATABASE, type Database } from '../../src/db/database';
import { SECURITY_SUBJECTS } from '../../src/modules/security/security-mail.service';
import { SessionsPurgeService } from '../../src/modules/security/sessions-purge.service';
import { SessionsService } from '../../src/modules/security/sessions.service';
import { DATABASE_KINDS } from '../support/databases';
import { seedCoins } from '../support/market';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, signUp, startTestApp, type TestApp } from '../support/test-app';
import { ADDRESSES, PRICES, supportTokens } from '../support/wallet';
import { startSmtpServer } from './helpers/smtp';

const CODE_REQUIRED = { statusCode: 401, error: 'Enter the 6-digit code from your authenticator app.', twoFactorRequired: true };
const ENCRYPTION_KEY = 'a1'.repeat(32);
const JWT_SECRET = 'security-test-secret-that-is-long-enough-0123456789';

/** Rows of a raw query on either driver (PGlite and node-postgres shape results differently). */
async function rows<T>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}

/** The TOTP code of the step `offset` steps from now (0: this step, 1: the next one, accepted with the ±30 s window). */
function totp(secret: string, offset = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 });
}

describe.each(DATABASE_KINDS)('account security on %s', (kind) => {
  let t: TestApp;
  let db: Database;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  /** The administrator's token once enrolled (the first test enrols them). */
  let admin = '';

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestApp(kind, { SMTP_URL: smtp.url, ADMIN_REQUIRE_2FA: 'true', ENCRYPTION_KEY, JWT_SECRET }, { listen: kind === 'postgres' });
    db = t.app.get(DATABASE);
    await seedCoins(t, PRICES);
    await supportTokens(t, Object.keys(PRICES));
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const mailTo = (to: string, subject: string) => smtp.waitFor((mail) => mail.to.includes(to.toLowerCase()) && mail.subject === subject, 10_000);

  /** A customer with two-factor sign-in on: returns the session, the secret and the recovery codes. */
  async function enrolledCustomer(userAgent = 'Browser A') {
    const user = await signUp(t.http);
    const setup = await t.http.post('/api/user/2fa/setup').set(bearer(user.token)).expect(200);
    const enabled = await t.http
      .post('/api/user/2fa/enable')
      .set(bearer(user.token))
      .set('User-Agent', userAgent)
      .send({ code: await totp(setup.body.secret) })
      .expect(200);
    return { ...user, secret: setup.body.secret as string, recoveryCodes: enabled.body.recoveryCodes as string[] };
  }

  it('keeps an administrator without two-factor sign-in at the enrolment step, then lets them in', async () => {
    const login = await t.http.post('/api/admin/login-admin').send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }).expect(200);
    const token = login.body.token;
    expect((await t.http.get('/api/admin/dashboard').set(bearer(token)).expect(403)).body).toEqual({
      statusCode: 403,
      error: 'Set up two-factor authentication first.',
    });
    // Enrolment, sessions, profile and sign-out stay open.
    expect((await t.http.get('/api/user/2fa').set(bearer(token)).expect(200)).body).toEqual({ enabled: false, recoveryCodesLeft: 0, required: true });
    expect((await t.http.get('/api/admin/sessions').set(bearer(token)).expect(200)).body.some((s: { current: boolean }) => s.current)).toBe(true);
    await t.http.get('/api/user/me').set(bearer(token)).expect(200);

    const setup = await t.http.post('/api/user/2fa/setup').set(bearer(token)).expect(200);
    expect(setup.body.otpauthUrl).toMatch(/^otpauth:\/\/totp\/Coinpurse:admin%40test\.local\?secret=[A-Z2-7]+&issuer=Coinpurse$/);
    await t.http
      .post('/api/user/2fa/enable')
      .set(bearer(token))
      .send({ code: await totp(setup.body.secret) })
      .expect(200);
    // The same token now passes the gate (the session's cached check was invalidated).
    await t.http.get('/api/admin/dashboard').set(bearer(token)).expect(200);

    // Signing in again needs the code; then the gate is open.
    expect((await t.http.post('/api/admin/login-admin').send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }).expect(401)).body).toEqual(CODE_REQUIRED);
    const withCode = await t.http
      .post('/api/admin/login-admin')
      .send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD, code: await totp(setup.body.secret, 1) })
      .expect(200);
    admin = withCode.body.token;
    await t.http.get('/api/admin/dashboard').set(bearer(admin)).expect(200);
    await mailTo(ADMIN_EMAIL, SECURITY_SUBJECTS.twoFactorEnabled);
  });

  it('enrols a customer and signs in only with a fresh code; a replayed code is refused', async () => {
    const user = await signUp(t.http);
    expect((await t.http.get('/api/user/2fa').set(bearer(user.token)).expect(200)).body).toEqual({ enabled: false, recoveryCodesLeft: 0, required: false });
    const setup = await t.http.post('/api/user/2fa/setup').set(bearer(user.token)).expect(200);
    const secret: string = setup.body.secret;
    expect(setup.body.otpauthUrl).toContain(`secret=${secret}`);
    // Until enabled, sign-in needs no code.
    await t.http.post('/api/user/login-user').send({ email: user.email, password: user.password }).expect(200);

    expect((await t.http.post('/api/user/2fa/enable').set(bearer(user.token)).send({ code: '000000' }).expect(400)).body.error).toBe(
      'That code is not valid. Check the time on your device and try again.',
    );
    const first = await totp(secret);
    const enabled = await t.http.post('/api/user/2fa/enable').set(bearer(user.token)).send({ code: first }).expect(200);
    expect(enabled.body.recoveryCodes).toHaveLength(10);
    expect(new Set(enabled.body.recoveryCodes).size).toBe(10);
    await t.http.post('/api/user/2fa/setup').set(bearer(user.token)).expect(409);
    await mailTo(user.email, SECURITY_SUBJECTS.twoFactorEnabled);

    // At rest: the secret is sealed, recovery codes are hashes.
    const [stored] = await rows<{ secret_encrypted: string }>(db, sql`select secret_encrypted from two_factor where user_id = ${user._id}`);
    const sealed = stored.secret_encrypted;
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(sealed).not.toContain(secret);
    const hashes = await rows<{ code_hash: string }>(db, sql`select code_hash from recovery_codes where user_id = ${user._id}`);
    expect(hashes).toHaveLength(10);
    for (const row of hashes) expect(enabled.body.recoveryCodes).not.toContain(row.code_hash);

    const credentials = { email: user.email, password: user.password };
    // Password first: a wrong password says nothing about the second factor.
    expect(
      (
        await t.http
          .post('/api/user/login-user')
          .send({ ...credentials, password: 'wrong-password' })
          .expect(401)
      ).body,
    ).toEqual({
      statusCode: 401,
      error: 'Invalid email or password.',
    });
    expect((await t.http.post('/api/user/login-user').send(credentials).expect(401)).body).toEqual(CODE_REQUIRED);
    expect(
      (
        await t.http
          .post('/api/user/login-user')
          .send({ ...credentials, code: '123' })
          .expect(401)
      ).body,
    ).toEqual(CODE_REQUIRED);
    // The code that enabled two-factor sign-in was used: replaying it is refused.
    expect(
      (
        await t.http
          .post('/api/user/login-user')
          .send({ ...credentials, code: first })
          .expect(401)
      ).body,
    ).toEqual(CODE_REQUIRED);
    const next = await totp(secret, 1);
    const signedIn = await t.http
      .post('/api/user/login-user')
      .send({ ...credentials, code: next })
      .expect(200);
    await t.http.get('/api/user/me').set(bearer(signedIn.body.token)).expect(200);
    expect(
      (
        await t.http
          .post('/api/user/login-user')
          .send({ ...credentials, code: next })
          .expect(401)
      ).body,
    ).toEqual(CODE_REQUIRED);
    expect((await t.http.get('/api/user/2fa').set(bearer(user.token)).expect(200)).body).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
  });

  it('accepts each recovery code once, mails when one is used, and renews the set', async () => {
    const user = await enrolledCustomer();
    const credentials = { email: user.email, password: user.password };
    const [code, second] = user.recoveryCodes;
    await t.http
      .post('/api/user/login-user')
      .send({ ...credentials, code: code.toUpperCase() })
      .expect(200);
    expect(
      (
        await t.http
          .post('/api/user/login-user')
          .send({ ...credentials, code })
          .expect(401)
      ).body,
    ).toEqual(CODE_REQUIRED);
    const mail = await mailTo(user.email, SECURITY_SUBJECTS.recoveryCodeUsed);
    expect(mail.text).toContain('9 unused codes are left');
    expect(mail.text).not.toContain(code);
    expect((await t.http.get('/api/user/2fa').set(bearer(user.token)).expect(200)).body.recoveryCodesLeft).toBe(9);

    await t.http.post('/api/user/2fa/recovery-codes').set(bearer(user.token)).send({ code: 'wrong-code' }).expect(401);
    const renewed = await t.http.post('/api/user/2fa/recovery-codes').set(bearer(user.token)).send({ code: second }).expect(200);
    expect(renewed.body.recoveryCodes).toHaveLength(10);
    // The old set is gone.
    expect(
      (
        await t.http
          .post('/api/user/login-user')
          .send({ ...credentials, code: user.recoveryCodes[2] })
          .expect(401)
      ).body,
    ).toEqual(CODE_REQUIRED);
    await t.http
      .post('/api/user/login-user')
      .send({ ...credentials, code: renewed.body.recoveryCodes[0] })
      .expect(200);
  });

  it('asks for the code before a withdrawal and changes nothing without it; mails the request', async () => {
    const user = await enrolledCustomer();
    await t.http
      .post(`/api/admin/update-balance/${user._id}`)
      .set(bearer(admin))
      .send({ token: 'bitcoin', amount: 100, type: 'yes', msg: 'test funding', coinAmount: '0', symbol: 'bitcoin' })
      .expect(200);
    const transferData = { address: ADDRESSES.bitcoin, amount: '10', symbol: 'btc', coinAmount: '0' };
    const history = async () => (await t.http.get('/api/user/get-transaction').set(bearer(user.token)).expect(200)).body;
    const before = await history();
    for (const code of [undefined, '000000', 'nope-nope']) {
      const response = await t.http.post('/api/crypto/send-crypto/bitcoin').set(bearer(user.token)).send({ transferData, code }).expect(401);
      expect(response.body).toEqual(CODE_REQUIRED);
    }
    expect(await history()).toEqual(before);
    const sent = await t.http.post('/api/crypto/send-crypto/bitcoin').set(bearer(user.token)).send({ transferData, code: user.recoveryCodes[0] }).expect(201);
    expect(sent.body.transaction).toMatchObject({ type: 'withdrawal', status: 'pending', address: ADDRESSES.bitcoin });
    const mail = await mailTo(user.email, SECURITY_SUBJECTS.withdrawalRequested);
    expect(mail.text).toContain(ADDRESSES.bitcoin);
    expect(mail.text).toContain('0.00020000 BTC ($10.00)');
    expect(mail.text).toContain('on Bitcoin');
    // Without two-factor sign-in nothing is asked.
    const plain = await signUp(t.http);
    await t.http
      .post(`/api/admin/update-balance/${plain._id}`)
      .set(bearer(admin))
      .send({ token: 'bitcoin', amount: 100, type: 'yes', msg: 'test funding', coinAmount: '0', symbol: 'bitcoin' })
      .expect(200);
    await t.http.post('/api/crypto/send-crypto/bitcoin').set(bearer(plain.token)).send({ transferData }).expect(201);
  });

  it('asks for the code before saving a withdrawal address and before turning the allowlist off', async () => {
    const user = await enrolledCustomer();
    const entry = { label: 'Cold wallet', token: 'bitcoin', address: ADDRESSES.bitcoin };
    const book = async () => (await t.http.get('/api/user/addresses').set(bearer(user.token)).expect(200)).body;
    for (const code of [undefined, '000000']) {
      const refused = await t.http
        .post('/api/user/addresses')
        .set(bearer(user.token))
        .send({ ...entry, code })
        .expect(401);
      expect(refused.body).toEqual(CODE_REQUIRED);
    }
    expect((await book()).addresses).toEqual([]);
    await t.http
      .post('/api/user/addresses')
      .set(bearer(user.token))
      .send({ ...entry, code: user.recoveryCodes[0] })
      .expect(201);
    expect((await book()).addresses).toHaveLength(1);
    // Turning the allowlist on needs no code; turning it off does.
    await t.http.put('/api/user/addresses/allowlist').set(bearer(user.token)).send({ enabled: true }).expect(200);
    const refused = await t.http.put('/api/user/addresses/allowlist').set(bearer(user.token)).send({ enabled: false }).expect(401);
    expect(refused.body).toEqual(CODE_REQUIRED);
    expect((await book()).allowlistEnabled).toBe(true);
    await t.http.put('/api/user/addresses/allowlist').set(bearer(user.token)).send({ enabled: false, code: user.recoveryCodes[1] }).expect(200);
    expect((await book()).allowlistEnabled).toBe(false);
  });

  it('asks for the code before a password or email change, and before turning two-factor sign-in off', async () => {
    const user = await enrolledCustomer();
    const other = await t.http
      .post('/api/user/login-user')
      .set('User-Agent', 'Browser B')
      .send({ email: user.email, password: user.password, code: user.recoveryCodes[0] })
      .expect(200);

    // Password.
    const change = { currentPassword: user.password, newPassword: 'new-password-456' };
    expect((await t.http.post('/api/user/change-password').set(bearer(user.token)).send(change).expect(401)).body).toEqual(CODE_REQUIRED);
    await t.http.get('/api/user/me').set(bearer(user.token)).expect(200);
    const changed = await t.http
      .post('/api/user/change-password')
      .set(bearer(user.token))
      .send({ ...change, code: user.recoveryCodes[1] })
      .expect(200);
    await mailTo(user.email, SECURITY_SUBJECTS.passwordChanged);
    // Every other session ended; this device goes on with the returned session.
    await t.http.get('/api/user/me').set(bearer(other.body.token)).expect(401);
    const token = changed.body.token;
    await t.http.get('/api/user/me').set(bearer(token)).expect(200);

    // Email (name and country alone need no code).
    await t.http.patch('/api/user/profile').set(bearer(token)).send({ name: 'Renamed', country: 'Spain' }).expect(200);
    // Each field is optional on its own; an empty one is still refused.
    expect((await t.http.patch('/api/user/profile').set(bearer(token)).send({ country: 'Portugal' }).expect(200)).body).toMatchObject({
      name: 'Renamed',
      country: 'Portugal',
    });
    expect((await t.http.patch('/api/user/profile').set(bearer(token)).send({ name: ' ' }).expect(400)).body.error).toBe('Name is required.');
    const newEmail = `moved.${Date.now().toString(36)}@example.com`;
    expect((await t.http.patch('/api/user/profile').set(bearer(token)).send({ name: 'Renamed', country: 'Spain', email: newEmail }).expect(401)).body).toEqual(
      CODE_REQUIRED,
    );
    expect((await t.http.get('/api/user/me').set(bearer(token)).expect(200)).body.email).toBe(user.email);
    const moved = await t.http
      .patch('/api/user/profile')
      .set(bearer(token))
      .send({ name: 'Renamed', country: 'Spain', email: newEmail, code: user.recoveryCodes[2] })
      .expect(200);
    expect(moved.body.email).toBe(newEmail);
    expect((await t.http.get('/api/user/me').set(bearer(token)).expect(200)).body.email).toBe(newEmail);
    // The old address hears about it (whoever changed it cannot read that mailbox), and so does the new one.
    const warning = await mailTo(user.email, SECURITY_SUBJECTS.emailChanged);
    expect(warning.text).toContain(`changed from ${user.email} to ${newEmail}`);
    await mailTo(newEmail, SECURITY_SUBJECTS.emailChanged);

    // Turning two-factor sign-in off: code required, other sessions end, a mail goes out.
    const third = await t.http.post('/api/user/login-user').send({ email: newEmail, password: 'new-password-456', code: user.recoveryCodes[3] }).expect(200);
    expect((await t.http.post('/api/user/2fa/disable').set(bearer(token)).send({ code: '000000' }).expect(401)).body).toEqual(CODE_REQUIRED);
    await t.http.get('/api/user/me').set(bearer(third.body.token)).expect(200);
    await t.http
      .post('/api/user/2fa/disable')
      .set(bearer(token))
      .send({ code: await totp(user.secret, 1) })
      .expect(200);
    await mailTo(newEmail, SECURITY_SUBJECTS.twoFactorDisabled);
    await t.http.get('/api/user/me').set(bearer(third.body.token)).expect(401);
    await t.http.get('/api/user/me').set(bearer(token)).expect(200);
    expect((await t.http.get('/api/user/2fa').set(bearer(token)).expect(200)).body).toEqual({ enabled: false, recoveryCodesLeft: 0, required: false });
    await t.http.post('/api/user/login-user').send({ email: newEmail, password: 'new-password-456' }).expect(200);
  });

  it('lists sessions and ends one: token A out, token B still in; mails a sign-in from a new device', async () => {
    const user = await signUp(t.http);
    const a = await t.http.post('/api/user/login-user').set('User-Agent', 'Browser A').send({ email: user.email, password: user.password }).expect(200);
    const b = await t.http.post('/api/user/login-user').set('User-Agent', 'Browser B').send({ email: user.email, password: user.password }).expect(200);
    const mail = await mailTo(user.email, SECURITY_SUBJECTS.newSignIn);
    expect(mail.text).toContain('Browser');
    expect(mail.text).not.toContain(a.body.token);

    const list = (await t.http.get('/api/user/sessions').set(bearer(b.body.token)).expect(200)).body as Array<{
      id: string;
      current: boolean;
      userAgent: string | null;
      ip: string | null;
      createdAt: string;
      lastSeenAt: string;
    }>;
    expect(list).toHaveLength(3); // sign-up, A, B
    expect(list.filter((s) => s.current).map((s) => s.userAgent)).toEqual(['Browser B']);
    expect(Object.keys(list[0]).sort()).toEqual(['createdAt', 'current', 'id', 'ip', 'lastSeenAt', 'userAgent']);
    const sessionA = list.find((s) => s.userAgent === 'Browser A')!;

    // Another account cannot end it; an unknown or malformed id is 404.
    const stranger = await signUp(t.http);
    await t.http.delete(`/api/user/sessions/${sessionA.id}`).set(bearer(stranger.token)).expect(404);
    await t.http.delete('/api/user/sessions/00000000-0000-4000-8000-000000000000').set(bearer(b.body.token)).expect(404);
    await t.http.delete('/api/user/sessions/not-a-uuid').set(bearer(b.body.token)).expect(404);
    await t.http.get('/api/user/me').set(bearer(a.body.token)).expect(200);

    await t.http.delete(`/api/user/sessions/${sessionA.id}`).set(bearer(b.body.token)).expect(200);
    await t.http.get('/api/user/me').set(bearer(a.body.token)).expect(401);
    await t.http.get('/api/user/me').set(bearer(b.body.token)).expect(200);
    expect((await t.http.get('/api/user/sessions').set(bearer(b.body.token)).expect(200)).body).toHaveLength(2);

    // Sign out everywhere.
    await t.http.post('/api/user/logout-all').set(bearer(b.body.token)).expect(200);
    await t.http.get('/api/user/me').set(bearer(b.body.token)).expect(401);
    await t.http.get('/api/user/me').set(bearer(user.token)).expect(401);
  });

  it('commits a new-device sign-in and a spent recovery code only together with their security mail', async () => {
    const user = await enrolledCustomer('Browser A');
    const sessionsOf = async () => ((await t.http.get('/api/user/sessions').set(bearer(user.token)).expect(200)).body as unknown[]).length;
    const before = await sessionsOf();
    /** While `work` runs, the mail outbox refuses this customer's mail with `subject`: its change must not commit alone. */
    async function refusingMail(subject: string, work: () => Promise<void>) {
      const match = sql.raw(`'${user.email.toLowerCase()}' and new.subject = '${subject}'`);
      await db.execute(sql`create or replace function refuse_outbox_for_test() returns trigger language plpgsql as $$
        begin if lower(new."to") = ${match} then raise exception 'outbox refused for the test'; end if; return new; end $$`);
      await db.execute(sql`create trigger refuse_outbox_for_test before insert on mail_outbox for each row execute function refuse_outbox_for_test()`);
      try {
        await work();
      } finally {
        await db.execute(sql`drop trigger refuse_outbox_for_test on mail_outbox`);
        await db.execute(sql`drop function refuse_outbox_for_test()`);
      }
    }
    const signIn = (code: string) =>
      t.http.post('/api/user/login-user').set('User-Agent', 'Browser Z').send({ email: user.email, password: user.password, code });

    await refusingMail(SECURITY_SUBJECTS.newSignIn, async () => {
      expect((await signIn(await totp(user.secret, 1))).status).toBeGreaterThanOrEqual(500);
    });
    expect(await sessionsOf()).toBe(before);
    await refusingMail(SECURITY_SUBJECTS.recoveryCodeUsed, async () => {
      expect((await signIn(user.recoveryCodes[0])).status).toBeGreaterThanOrEqual(500);
    });
    expect(await sessionsOf()).toBe(before);

    // Nothing was spent: the same recovery code still works, and both mails go out with the sign-in.
    await signIn(user.recoveryCodes[0]).expect(200);
    expect((await mailTo(user.email, SECURITY_SUBJECTS.recoveryCodeUsed)).text).toContain(`${user.recoveryCodes.length - 1} unused codes are left`);
    expect((await mailTo(user.email, SECURITY_SUBJECTS.newSignIn)).text).toContain('Browser Z');
    expect(await sessionsOf()).toBe(before + 1);
  });

  it('gives administrators their own session list and revocation', async () => {
    const list = (await t.http.get('/api/admin/sessions').set(bearer(admin)).expect(200)).body as Array<{ id: string; current: boolean }>;
    const current = list.find((s) => s.current)!;
    const older = list.find((s) => !s.current)!;
    expect(current).toBeDefined();
    expect(older).toBeDefined();
    await t.http.delete(`/api/admin/sessions/${older.id}`).set(bearer(admin)).expect(200);
    await t.http.delete(`/api/admin/sessions/${older.id}`).set(bearer(admin)).expect(404);
    const customer = await signUp(t.http);
    await t.http.get('/api/admin/sessions').set(bearer(customer.token)).expect(403);
    await t.http.get('/api/user/sessions').set(bearer(admin)).expect(403);
    await t.http.get('/api/admin/dashboard').set(bearer(admin)).expect(200);
  });

  it('ends every session of a deactivated account', async () => {
    const user = await signUp(t.http);
    await t.http.get('/api/user/me').set(bearer(user.token)).expect(200);
    await t.http.delete(`/api/admin/delete-user/${user._id}`).set(bearer(admin)).expect(200);
    await t.http.get('/api/user/me').set(bearer(user.token)).expect(401);
    const [live] = await rows<{ live: number }>(db, sql`select count(*)::int as live from sessions where user_id = ${user._id} and revoked_at is null`);
    expect(live.live).toBe(0);
  });

  it('purges sessions that ended more than 90 days ago and keeps live and recent ones', async () => {
    const user = await signUp(t.http);
    const day = 86_400_000;
    const ago = (days: number) => new Date(Date.now() - days * day).toISOString();
    // Revoked 91 days ago (gone), revoked 10 days ago (kept), expired by age long ago (gone), the live one (kept).
    const [old, recent, expired] = await rows<{ id: string }>(
      db,
      sql`insert into sessions (user_id, created_at, last_seen_at, revoked_at) values
            (${user._id}, ${ago(100)}, ${ago(95)}, ${ago(91)}),
            (${user._id}, ${ago(20)}, ${ago(12)}, ${ago(10)}),
            (${user._id}, ${ago(200)}, ${ago(199)}, null)
          returning id`,
    );
    const purged = await t.app.get(SessionsPurgeService).purge();
    expect(purged).toBeGreaterThanOrEqual(2);
    const left = await rows<{ id: string }>(db, sql`select id from sessions where user_id = ${user._id}`);
    const ids = left.map((r) => r.id);
    expect(ids).toContain(recent.id);
    expect(ids).not.toContain(old.id);
    expect(ids).not.toContain(expired.id);
    await t.http.get('/api/user/me').set(bearer(user.token)).expect(200);
    // Running it again deletes nothing more.
    expect(await t.app.get(SessionsPurgeService).purge()).toBe(0);
  });

  it.runIf(kind === 'postgres')('revokes on every instance: a session ended on A is refused on B through LISTEN/NOTIFY', async () => {
    const second = await createApp(
      loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: ':memory:',
        DATABASE_URL: t.config.databaseUrl,
        JWT_SECRET,
        ENCRYPTION_KEY,
        ADMIN_REQUIRE_2FA: 'true',
        MARKET_REFRESH_SECONDS: '0',
        COINGECKO_BASE_URL: 'http://127.0.0.1:9',
        AUTH_RATE_LIMIT_PER_MINUTE: '100000',
      }),
      { logger: ['error'] },
    );
    await second.listen(0, '127.0.0.1');
    const urlB = `http://127.0.0.1:${(second.getHttpServer().address() as import('node:net').AddressInfo).port}`;
    const meOn = async (url: string, token: string) => (await fetch(`${url}/api/user/me`, { headers: bearer(token) })).status;
    try {
      // B trusts its cache for ten minutes here: only the notification from A can end the session on B.
      second.get(SessionsService).cacheMs = 10 * 60_000;
      const user = await signUp(t.http);
      const other = await t.http.post('/api/user/login-user').send({ email: user.email, password: user.password }).expect(200);
      expect(await meOn(urlB, user.token)).toBe(200);
      expect(await meOn(urlB, other.body.token)).toBe(200);

      const started = Date.now();
      await t.http.post('/api/user/logout').set(bearer(user.token)).expect(200);
      await expect.poll(() => meOn(urlB, user.token), { timeout: 5_000, interval: 20 }).toBe(401);
      console.log(`[security] revocation reached instance B after ${Date.now() - started} ms`);
      expect(await meOn(urlB, other.body.token)).toBe(200);

      // And the other way round, for every session of the account at once.
      await fetch(`${urlB}/api/user/logout-all`, { method: 'POST', headers: bearer(other.body.token) });
      await expect.poll(() => meOn(t.url!, other.body.token), { timeout: 5_000, interval: 20 }).toBe(401);
    } finally {
      await second.close();
    }
  });

  it('a right password with a wrong code tells the owner once per window, without the code or the address', async () => {
    const user = await enrolledCustomer();
    for (const code of ['000000', '111111']) {
      await t.http.post('/api/user/login-user').set('X-Forwarded-For', '203.0.113.9').send({ email: user.email, password: user.password, code }).expect(401);
    }
    const mail = await mailTo(user.email, 'Someone knows your Coinpurse password');
    expect(mail.text).toContain('Someone signed in with your password but not your code; change your password.');
    for (const secret of ['000000', '111111', '203.0.113.9', '127.0.0.1', user.secret]) expect(mail.text).not.toContain(secret);
    const sent = await rows<{ n: number }>(
      db,
      sql`select count(*)::int as n from mail_outbox where "to" = ${user.email} and subject = 'Someone knows your Coinpurse password'`,
    );
    expect(sent[0].n).toBe(1);
    const notes = (await t.http.get('/api/user/get-notifications').set(bearer(user.token)).expect(200)).body as Array<{ title: string }>;
    expect(notes.filter((n) => n.title === 'Someone knows your Coinpurse password')).toHaveLength(1);

    // A wrong password never gets that far, and a right code is no alert.
    const other = await enrolledCustomer();
    await t.http.post('/api/user/login-user').send({ email: other.email, password: 'wrong-password-1', code: '000000' }).expect(401);
    await t.http
      .post('/api/user/login-user')
      .send({ email: other.email, password: other.password, code: await totp(other.secret, 1) })
      .expect(200);
    const none = await rows<{ n: number }>(
      db,
      sql`select count(*)::int as n from mail_outbox where "to" = ${other.email} and subject = 'Someone knows your Coinpurse password'`,
    );
    expect(none[0].n).toBe(0);
  });
});

describe('wrong second-factor codes are throttled like passwords', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { AUTH_RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 429 once the per-minute attempts are spent, even with a right code', async () => {
    const user = await signUp(t.http);
    const setup = await t.http.post('/api/user/2fa/setup').set(bearer(user.token)).expect(200);
    await t.http
      .post('/api/user/2fa/enable')
      .set(bearer(user.token))
      .send({ code: await totp(setup.body.secret) })
      .expect(200);
    const profile = { name: 'X', country: 'Spain', email: `other.${Date.now().toString(36)}@example.com` };
    for (let attempt = 0; attempt < 2; attempt++) {
      await t.http
        .patch('/api/user/profile')
        .set(bearer(user.token))
        .send({ ...profile, code: '000000' })
        .expect(401);
    }
    const blocked = await t.http
      .patch('/api/user/profile')
      .set(bearer(user.token))
      .send({ ...profile, code: await totp(setup.body.secret, 1) })
      .expect(429);
    expect(blocked.body.error).toBe('Too many attempts. Please wait a minute and try again.');
  });
});
