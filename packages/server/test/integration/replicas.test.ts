import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { MailService } from '../../src/modules/mail/mail.service';
import { LiveEventsService } from '../../src/modules/notifications/live-events.service';
import { RateLimitPurgeService } from '../../src/modules/rate-limit/rate-limit-purge.service';
import { DATABASE_KINDS } from '../support/databases';
import { bearer, loginAdmin, signUp, startTestApp, type TestApp, uniqueEmail } from '../support/test-app';
import { startFakeCoinGecko, providerCoin, type FakeCoinGecko } from './market-support/fake-coingecko';
import { openEventStream } from './helpers/sse';
import { startSmtpServer } from './helpers/smtp';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), Buffer.from('IHDR'), Buffer.alloc(64, 5)]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const market = () => [providerCoin('bitcoin', 'btc', 64000.5, 1), providerCoin('ethereum', 'eth', 3100.25, 2), providerCoin('tether', 'usdt', 1, 3)];

describe.runIf(DATABASE_KINDS.includes('postgres'))('two instances on one PostgreSQL database', () => {
  describe('the login rate limit', () => {
    let a: TestApp;
    let b: TestApp;
    beforeAll(async () => {
      a = await startTestApp('postgres', { AUTH_RATE_LIMIT_PER_MINUTE: '10' });
      b = await startTestApp('postgres', { AUTH_RATE_LIMIT_PER_MINUTE: '10' }, { shareDatabaseWith: a });
    }, 180_000);
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    it('is shared: 10 attempts in all across both instances, the 11th gets 429 with Retry-After', async () => {
      const email = uniqueEmail('shared-limit');
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) {
        const instance = i % 2 === 0 ? a : b;
        statuses.push((await instance.http.post('/api/user/login-user').send({ email, password: `guess-${i}-password` })).status);
      }
      expect(statuses).toEqual(Array(10).fill(401));
      for (const instance of [a, b]) {
        const limited = await instance.http.post('/api/user/login-user').send({ email, password: 'guess-11-password' }).expect(429);
        expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
        expect(limited.headers['ratelimit']).toContain('r=0');
      }
    }, 300_000);

    it('purges ended counters on one instance at a time', async () => {
      const db = a.app.get<Database>(DATABASE);
      await db.execute(sql`insert into rate_limits (key, hits, window_ends_at) values ('test:ended', 3, now() - interval '1 minute')`);
      await db.execute(sql`insert into rate_limits (key, hits, window_ends_at) values ('test:live', 3, now() + interval '1 minute')`);
      const purged = await Promise.all([a.app.get(RateLimitPurgeService).purge(), b.app.get(RateLimitPurgeService).purge()]);
      const left = (await db.execute(sql`select key from rate_limits where key like 'test:%'`)) as unknown as { rows: Array<{ key: string }> };
      expect(left.rows.map((r) => r.key)).toEqual(['test:live']);
      expect(purged.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(1);
    });
  });

  describe('shared state', () => {
    let a: TestApp;
    let b: TestApp;
    let fake: FakeCoinGecko;
    let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
    let bothStarted = 0;
    beforeAll(async () => {
      fake = await startFakeCoinGecko(() => ({ status: 200, body: market() }));
      smtp = await startSmtpServer();
      const env = { COINGECKO_BASE_URL: fake.url, MARKET_REFRESH_SECONDS: '2', SMTP_URL: smtp.url };
      a = await startTestApp('postgres', env, { listen: true });
      b = await startTestApp('postgres', env, { listen: true, shareDatabaseWith: a });
      bothStarted = Date.now();
    }, 180_000);
    afterAll(async () => {
      await b?.close();
      await a?.close();
      await fake?.close();
      await smtp?.close();
    });

    it('serves on B a ticket image uploaded through A', async () => {
      const created = await a.http
        .post('/api/user/create-ticket')
        .field('subject', 'Screenshot')
        .field('note', 'See the image')
        .field('email', uniqueEmail('ticket'))
        .attach('image', PNG, { filename: 'shot.png', contentType: 'image/png' })
        .expect(201);
      const admin = await loginAdmin(b.http);
      const detail = (await b.http.get(`/api/admin/tickets/${created.body._id}`).set(bearer(admin.token)).expect(200)).body;
      expect(detail.image).toMatch(/^\/images\/[0-9a-f]{32}\.png$/);
      const image = await b.http.get(detail.image).expect(200);
      expect(image.headers['content-type']).toBe('image/png');
      expect(Buffer.compare(image.body as Buffer, PNG)).toBe(0);
    });

    it('refuses on B a session that was revoked on A', async () => {
      const ada = await signUp(a.http);
      await b.http.get('/api/user/me').set(bearer(ada.token)).expect(200);
      await a.http.post('/api/user/logout').set(bearer(ada.token)).expect(200);
      await b.http.get('/api/user/me').set(bearer(ada.token)).expect(401);
    });

    it('streams to a customer connected to B a notification an admin sends through A', async () => {
      const ada = await signUp(a.http);
      const admin = await loginAdmin(a.http);
      const stream = await openEventStream(b.url!, ada.token);
      try {
        expect(stream.status).toBe(200);
        await expect.poll(() => b.app.get(LiveEventsService).openStreams(ada._id)).toBe(1);
        await a.http.post(`/api/admin/send-notifiction/${ada._id}`).set(bearer(admin.token)).send({ title: 'Cross', message: 'From A to B' }).expect(200);
        const event = await stream.next((e) => e.event === 'notification');
        expect(JSON.parse(event.data)).toMatchObject({ title: 'Cross', message: 'From A to B' });
      } finally {
        stream.close();
      }
    });

    it('delivers each queued mail once, whichever instance queued it', async () => {
      const subjects = Array.from({ length: 12 }, (_, i) => `replica mail ${i} ${uniqueEmail()}`);
      await Promise.all(subjects.map((subject, i) => (i % 2 ? a : b).app.get(MailService).send({ to: 'many@example.com', subject, text: 'once' })));
      for (const subject of subjects) await smtp.waitFor((m) => m.subject === subject, 20_000);
      await sleep(500);
      for (const subject of subjects) expect(smtp.mails.filter((m) => m.subject === subject)).toHaveLength(1);
    });

    it('runs one price refresh per interval across both (each scheduled every 2 s)', async () => {
      // Both have been running since `bothStarted`; look at a fresh window of several intervals.
      await sleep(Math.max(0, 1000 - (Date.now() - bothStarted)));
      const from = Date.now();
      await sleep(7000);
      const to = Date.now();
      const hits = fake.requests
        .map((r) => r.at)
        .filter((at) => at >= from && at <= to)
        .sort((x, y) => x - y);
      // Uncoordinated, two instances would call about twice per interval.
      expect(hits.length).toBeGreaterThanOrEqual(2);
      expect(hits.length).toBeLessThanOrEqual(Math.floor((to - from) / 2000) + 1);
      for (let i = 1; i < hits.length; i++) expect(hits[i] - hits[i - 1]).toBeGreaterThanOrEqual(1500);
    });
  });
});
