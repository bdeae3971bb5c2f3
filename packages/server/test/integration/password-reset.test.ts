import { sql } from 'drizzle-orm';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { hashResetToken } from '../../src/modules/password-reset/password-reset.service';
import { DATABASE_KINDS } from '../support/databases';
import { bearer, loginAdmin, signUp, startTestApp, type TestApp, uniqueEmail } from '../support/test-app';
import { type ReceivedMail, startSmtpServer } from './helpers/smtp';

const INVALID = 'This password reset link is invalid or has expired. Please request a new one.';

function linkIn(mail: ReceivedMail): { url: URL; token: string } {
  const match = /https:\/\/wallet\.example\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match) throw new Error(`No reset link in mail:\n${mail.text}`);
  return { url: new URL(match[0]), token: match[1] };
}

describe.each(DATABASE_KINDS)('password reset by mail on %s', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let db: Database;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestApp(kind, { SMTP_URL: smtp.url, PUBLIC_URL: 'https://wallet.example' });
    db = t.app.get(DATABASE);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const forgot = (email: string) => t.http.post('/api/user/forgot-password').send({ email });
  const reset = (token: string | undefined, password: string) => {
    const req = t.http.post('/api/user/reset-password');
    return (token ? req.set(bearer(token)) : req).send({ password });
  };
  const mailFor = (email: string, after = 0) => smtp.waitFor((m) => smtp.mails.indexOf(m) >= after && m.to.includes(email.toLowerCase()));

  it('answers the same for known and unknown emails, and mails a single-use link only to the known one', async () => {
    const ada = await signUp(t.http);
    const unknownEmail = uniqueEmail('nobody');
    const known = await forgot(ada.email).expect(200);
    const unknown = await forgot(unknownEmail).expect(200);
    expect(known.body).toEqual({ message: 'Check your email for the password reset link' });
    expect(unknown.body).toEqual(known.body);

    const mail = await mailFor(ada.email);
    expect(mail.subject).toBe('Reset your Coinpurse password');
    const { url, token } = linkIn(mail);
    expect(url.pathname).toBe('/reset-password');
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    // Only the hash is stored.
    const stored = await rows<{ token_hash: string; expires_at: Date | string }>(
      db,
      sql`select token_hash, expires_at from password_resets where user_id = ${ada._id}`,
    );
    expect(stored).toHaveLength(1);
    expect(stored[0].token_hash).toBe(hashResetToken(token));
    expect(stored[0].token_hash).not.toContain(token);
    const minutes = (new Date(stored[0].expires_at).getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30);

    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.mails.some((m) => m.to.includes(unknownEmail))).toBe(false);
  });

  it('sets the new password with the link token as bearer, ends older sessions, and refuses reuse', async () => {
    const ada = await signUp(t.http);
    const before = smtp.mails.length;
    await forgot(ada.email.toUpperCase()).expect(200);
    const { token } = linkIn(await mailFor(ada.email, before));

    expect((await reset(token, 'short').expect(400)).body.error).toBe('Password must be at least 8 characters.');
    const ok = await reset(token, 'brand-new-password').expect(200);
    expect(ok.body).toEqual({ message: 'Password Changed Successfully' });
    // The security mail (waited for: delivery may be asynchronous), with no token in it.
    const notice = await smtp.waitFor((mail) => mail.to.includes(ada.email.toLowerCase()) && mail.subject === 'Your Coinpurse password was changed');
    expect(notice.text).not.toContain(token);

    await t.http.get('/api/user/me').set(bearer(ada.token)).expect(401);
    await t.http.post('/api/user/login-user').send({ email: ada.email, password: ada.password }).expect(401);
    const login = await t.http.post('/api/user/login-user').send({ email: ada.email, password: 'brand-new-password' }).expect(200);
    await t.http.get('/api/user/me').set(bearer(login.body.token)).expect(200);

    expect((await reset(token, 'another-password-1').expect(400)).body).toEqual({ statusCode: 400, error: INVALID });
    await t.http.post('/api/user/login-user').send({ email: ada.email, password: 'another-password-1' }).expect(401);

    const audit = (await t.http.get(`/api/admin/audit?targetType=user&targetId=${ada._id}`).set(bearer((await loginAdmin(t.http)).token))).body.items;
    expect(audit.map((a: { action: string }) => a.action).slice(0, 2)).toEqual(['user.password_reset', 'user.password_reset_requested']);
  });

  it.runIf(kind === 'postgres')('lets only one of several concurrent uses of a link succeed', async () => {
    const ada = await signUp(t.http);
    const before = smtp.mails.length;
    await forgot(ada.email).expect(200);
    const { token } = linkIn(await mailFor(ada.email, before));
    const statuses = await Promise.all(Array.from({ length: 6 }, (_, i) => reset(token, `concurrent-password-${i}`).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(5);
  });

  it('refuses an expired link', async () => {
    const ada = await signUp(t.http);
    const before = smtp.mails.length;
    await forgot(ada.email).expect(200);
    const { token } = linkIn(await mailFor(ada.email, before));
    await db.execute(sql`update password_resets set expires_at = now() - interval '1 second' where token_hash = ${hashResetToken(token)}`);
    expect((await reset(token, 'brand-new-password').expect(400)).body.error).toBe(INVALID);
    await t.http.post('/api/user/login-user').send({ email: ada.email, password: ada.password }).expect(200);
  });

  it('a newer link ends the older one', async () => {
    const ada = await signUp(t.http);
    let before = smtp.mails.length;
    await forgot(ada.email).expect(200);
    const first = linkIn(await mailFor(ada.email, before)).token;
    before = smtp.mails.length;
    await forgot(ada.email).expect(200);
    const second = linkIn(await mailFor(ada.email, before)).token;
    expect(second).not.toBe(first);
    await reset(first, 'brand-new-password').expect(400);
    await reset(second, 'brand-new-password').expect(200);
  });

  it('refuses a missing, forged or session token, and needs no session (the guard lets it through)', async () => {
    const ada = await signUp(t.http);
    expect((await reset(undefined, 'brand-new-password').expect(400)).body.error).toBe(INVALID);
    await reset('A'.repeat(43), 'brand-new-password').expect(400);
    await reset(ada.token, 'brand-new-password').expect(400);
    await reset('x'.repeat(500), 'brand-new-password').expect(400);
    await t.http.post('/api/user/login-user').send({ email: ada.email, password: ada.password }).expect(200);
  });

  it('sends no link to a deactivated customer or an admin, with the same answer', async () => {
    const admin = await loginAdmin(t.http);
    const gone = await signUp(t.http);
    await t.http.delete(`/api/admin/delete-user/${gone._id}`).set(bearer(admin.token)).expect(200);
    const before = smtp.mails.length;
    expect((await forgot(gone.email).expect(200)).body.message).toBe('Check your email for the password reset link');
    expect((await forgot('admin@test.local').expect(200)).body.message).toBe('Check your email for the password reset link');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.mails.slice(before)).toEqual([]);
  });

  it('refuses a link issued before the account was deactivated', async () => {
    const admin = await loginAdmin(t.http);
    const ada = await signUp(t.http);
    const before = smtp.mails.length;
    await forgot(ada.email).expect(200);
    const { token } = linkIn(await mailFor(ada.email, before));
    await t.http.delete(`/api/admin/delete-user/${ada._id}`).set(bearer(admin.token)).expect(200);
    expect((await reset(token, 'brand-new-password').expect(400)).body.error).toBe(INVALID);
    await t.http.post('/api/user/login-user').send({ email: ada.email, password: 'brand-new-password' }).expect(401);
  });

  it('validates the email', async () => {
    expect((await forgot('not-an-email').expect(400)).body.error).toBe('Please enter a valid email address.');
    expect((await t.http.post('/api/user/forgot-password').send({}).expect(400)).body.error).toBe('Email is required.');
  });
});

describe('password reset without SMTP_URL (outbox)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { PUBLIC_URL: 'https://wallet.example' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('writes the mail to DATA_DIR/outbox so the link works offline', async () => {
    const ada = await signUp(t.http);
    await t.http.post('/api/user/forgot-password').send({ email: ada.email }).expect(200);
    const outbox = join(t.config.dataDir, 'outbox');
    await expect.poll(() => existsSync(outbox) && readdirSync(outbox).length, { timeout: 15_000 }).toBe(1);
    const [file] = readdirSync(outbox);
    expect(file.endsWith('.eml')).toBe(true);
    const raw = readFileSync(join(outbox, file), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    expect(raw).toContain(`To: ${ada.email}`);
    const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(raw)![1];
    await t.http.post('/api/user/reset-password').set(bearer(token)).send({ password: 'brand-new-password' }).expect(200);
  });
});

describe('password reset throttling', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { AUTH_RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('throttles forgot-password and reset-password', async () => {
    const email = uniqueEmail();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await t.http.post('/api/user/forgot-password').send({ email })).status);
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.slice(3)).toEqual([429, 429]);
    const resets: number[] = [];
    for (let i = 0; i < 5; i++)
      resets.push(
        (
          await t.http
            .post('/api/user/reset-password')
            .set(bearer('A'.repeat(43)))
            .send({ password: 'brand-new-password' })
        ).status,
      );
    expect(resets).toEqual([400, 400, 400, 429, 429]);
  });
});

async function rows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}
