import { sql } from 'drizzle-orm';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { MailService } from '../../src/modules/mail/mail.service';
import { DATABASE_KINDS } from '../support/databases';
import { storedImageNames } from '../support/images';
import { signUp, startTestApp, type TestApp, uniqueEmail } from '../support/test-app';
import { startSmtpServer } from './helpers/smtp';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), Buffer.from('IHDR'), Buffer.alloc(64, 7)]);
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(32, 9)]);

async function rows<T>(t: TestApp, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await t.app.get<Database>(DATABASE).execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const login = (t: TestApp, email: string, password: string, forwardedFor?: string) => {
  const request = t.http.post('/api/user/login-user');
  return (forwardedFor ? request.set('X-Forwarded-For', forwardedFor) : request).send({ email, password });
};

describe('rate limits: standard headers and TRUST_PROXY', () => {
  let off: TestApp;
  let on: TestApp;
  beforeAll(async () => {
    off = await startTestApp('pglite', { AUTH_RATE_LIMIT_PER_MINUTE: '3' });
    on = await startTestApp('pglite', { AUTH_RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: '1' });
  }, 180_000);
  afterAll(async () => {
    await off?.close();
    await on?.close();
  });

  it('answers 429 with Retry-After and the IETF RateLimit fields', async () => {
    // Its own forwarded address on the TRUST_PROXY app, so the other tests' buckets stay untouched.
    const email = uniqueEmail('headers');
    const from = '192.0.2.200';
    const first = await login(on, email, 'wrong-password-1', from).expect(401);
    expect(first.headers['ratelimit-policy']).toBe('"address";q=3;w=60, "account";q=3;w=60, "account-wide";q=30;w=900');
    expect(first.headers['ratelimit']).toMatch(/^"address";r=\d+;t=\d+, "account";r=2;t=\d+, "account-wide";r=29;t=\d+$/);
    await login(on, email, 'wrong-password-2', from).expect(401);
    await login(on, email, 'wrong-password-3', from).expect(401);
    const limited = await login(on, email, 'wrong-password-4', from).expect(429);
    expect(limited.body).toEqual({ statusCode: 429, error: 'Too many attempts. Please wait a minute and try again.' });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers['ratelimit']).toMatch(/"address";r=0;t=\d+$/);
  });

  it('TRUST_PROXY off: X-Forwarded-For is ignored, every forwarded address shares the socket address bucket', async () => {
    // Different accounts, so only the per-address limit can stop the fourth.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await login(off, uniqueEmail('xff-off'), 'wrong-password', `203.0.113.${i + 1}`)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it('TRUST_PROXY=1: the forwarded address is the client, each with its own bucket', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await login(on, uniqueEmail('xff-on'), 'wrong-password', '198.51.100.7')).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    // Another forwarded address (same socket) is not limited.
    await login(on, uniqueEmail('xff-on'), 'wrong-password', '198.51.100.8').expect(401);
    // Only the nearest hop is believed: a client-made entry in front does not pick a fresh bucket.
    await login(on, uniqueEmail('xff-on'), 'wrong-password', '10.9.9.9, 198.51.100.7').expect(429);
  });

  it('refuses TRUST_PROXY values it cannot understand at boot', async () => {
    await expect(startTestApp('pglite', { TRUST_PROXY: 'true' })).rejects.toThrow(/TRUST_PROXY/);
    await expect(startTestApp('pglite', { TRUST_PROXY: '10.0.0.0/33' })).rejects.toThrow(/not understood: 10.0.0.0\/33/);
  });
});

describe('rate limits: the owner is not locked out from elsewhere', () => {
  let t: TestApp;
  afterAll(async () => {
    await t?.close();
  });

  it('10 failures for an account from one address do not stop the owner logging in from another', async () => {
    t = await startTestApp('pglite', { AUTH_RATE_LIMIT_PER_MINUTE: '10', TRUST_PROXY: '1' });
    const owner = await signUp(t.http);
    for (let i = 0; i < 10; i++) await login(t, owner.email, `attacker-guess-${i}`, '192.0.2.66').expect(401);
    await login(t, owner.email, 'attacker-guess-10', '192.0.2.66').expect(429);
    // Even the right password from the attacker's address waits: the limit is per (account, address).
    await login(t, owner.email, owner.password, '192.0.2.66').expect(429);
    const session = await login(t, owner.email, owner.password, '198.51.100.20').expect(200);
    expect(session.body._id).toBe(owner._id);
  }, 300_000);

  it('guesses spread over many addresses meet the slower account-wide limit (10 × the per-minute limit per 15 minutes)', async () => {
    const app = await startTestApp('pglite', { AUTH_RATE_LIMIT_PER_MINUTE: '1', TRUST_PROXY: '1' });
    try {
      const owner = await signUp(app.http);
      const statuses: number[] = [];
      // 10 addresses × 1 guess = 10 = the account-wide limit (each address stays within its own limit of 1).
      for (let address = 1; address <= 10; address++) statuses.push((await login(app, owner.email, `spread-${address}`, `192.0.2.${address}`)).status);
      expect(statuses.every((s) => s === 401)).toBe(true);
      const limited = await login(app, owner.email, 'spread-next', '192.0.2.99').expect(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(60);
    } finally {
      await app.close();
    }
  }, 300_000);
});

describe.each(DATABASE_KINDS)('uploaded images on disk are moved into the database at start on %s', (kind) => {
  let t: TestApp;
  let dataDir: string;
  const pngName = `${'a'.repeat(32)}.png`;
  const gifName = `${'b'.repeat(32)}.gif`;
  const fakeName = `${'c'.repeat(32)}.png`;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'coinpurse-import-'));
    const uploads = join(dataDir, 'uploads');
    mkdirSync(uploads);
    writeFileSync(join(uploads, pngName), PNG);
    writeFileSync(join(uploads, gifName), GIF);
    writeFileSync(join(uploads, fakeName), '<svg onload="alert(1)"></svg>');
    writeFileSync(join(uploads, 'notes.txt'), 'not an upload');
    t = await startTestApp(kind, {}, { dataDir });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('imports the images under their names and serves them with the same headers; skips what is not an image', async () => {
    expect(await storedImageNames(t)).toEqual([pngName, gifName]);
    const png = await t.http.get(`/images/${pngName}`).expect(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['x-content-type-options']).toBe('nosniff');
    expect(png.headers['cache-control']).toBe('public, max-age=86400');
    expect(Buffer.compare(png.body as Buffer, PNG)).toBe(0);
    await t.http.get(`/images/${pngName}`).set('If-None-Match', png.headers.etag).expect(304);
    expect((await t.http.get(`/images/${gifName}`).expect(200)).headers['content-type']).toBe('image/gif');
    await t.http.get(`/images/${fakeName}`).expect(404);
    // Coin icons shipped with the server are still served from disk.
    expect((await t.http.get('/images/btc.png').expect(200)).headers['content-type']).toBe('image/png');
  });

  it('a restart imports nothing twice', async () => {
    if (kind === 'pglite') {
      // PGlite keeps its data in DATA_DIR/pglite: reopen the same directory.
      await t.app.close();
      t = { ...t, ...(await startTestApp('pglite', {}, { dataDir })) };
    } else {
      const again = await startTestApp('postgres', {}, { dataDir, shareDatabaseWith: t });
      await again.close();
    }
    expect(await storedImageNames(t)).toEqual([pngName, gifName]);
  });
});

describe.each(DATABASE_KINDS)('mail outbox on %s', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let port: number;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    port = Number(new URL(smtp.url).port);
    t = await startTestApp(kind, { SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const outboxRow = async (subject: string) =>
    (
      await rows<{ attempts: number; sent_at: unknown; last_error: string | null }>(
        t,
        sql`select attempts, sent_at, last_error from mail_outbox where subject = ${subject}`,
      )
    )[0];

  it('sends a mail enqueued in a committed transaction, and never one from a rolled-back transaction', async () => {
    const mail = t.app.get(MailService);
    const db = t.app.get<Database>(DATABASE);
    const rolledBack = `rolled back ${uniqueEmail()}`;
    await expect(
      db.transaction(async (tx) => {
        await mail.send({ to: 'someone@example.com', subject: rolledBack, text: 'must never leave' }, tx);
        throw new Error('the cause failed');
      }),
    ).rejects.toThrow('the cause failed');
    const committed = `committed ${uniqueEmail()}`;
    await db.transaction(async (tx) => {
      await mail.send({ to: 'someone@example.com', subject: committed, text: 'goes out after commit' }, tx);
    });
    const received = await smtp.waitFor((m) => m.subject === committed);
    expect(received.to).toEqual(['someone@example.com']);
    await expect.poll(async () => (await outboxRow(committed))?.sent_at ?? null).not.toBeNull();
    expect(await outboxRow(rolledBack)).toBeUndefined();
    expect(smtp.mails.some((m) => m.subject === rolledBack)).toBe(false);
  });

  it('keeps mails pending while the SMTP server is down and delivers them once it is back', async () => {
    await smtp.close();
    const subject = `during the outage ${uniqueEmail()}`;
    await t.app.get(MailService).send({ to: 'patient@example.com', subject, text: 'still coming' });
    await expect.poll(async () => (await outboxRow(subject))?.last_error ?? null, { timeout: 15_000 }).not.toBeNull();
    const pending = await outboxRow(subject);
    expect(pending.attempts).toBeGreaterThanOrEqual(1);
    expect(pending.sent_at).toBeNull();
    smtp = await startSmtpServer({ port });
    const received = await smtp.waitFor((m) => m.subject === subject, 30_000);
    expect(received.to).toEqual(['patient@example.com']);
    await expect.poll(async () => (await outboxRow(subject))?.sent_at ?? null).not.toBeNull();
    expect(smtp.mails.filter((m) => m.subject === subject)).toHaveLength(1);
  });
});
