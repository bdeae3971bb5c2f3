import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { LiveEventsService } from '../../src/modules/notifications/live-events.service';
import { NotificationsService } from '../../src/modules/notifications/notifications.service';
import { DATABASE_KINDS } from '../support/databases';
import { bearer, loginAdmin, signUp, startTestApp, type TestApp } from '../support/test-app';
import { openEventStream } from './helpers/sse';

const RANDOM_UUID = '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b';

describe.each(DATABASE_KINDS)('notifications and live events on %s', (kind) => {
  let t: TestApp;
  let admin: { token: string; _id: string };
  let db: Database;
  beforeAll(async () => {
    t = await startTestApp(kind, {}, { listen: true });
    admin = await loginAdmin(t.http);
    db = t.app.get(DATABASE);
  });
  afterAll(async () => {
    await t?.close();
  });

  const notify = (userId: string, body: object) => t.http.post(`/api/admin/send-notifiction/${userId}`).set(bearer(admin.token)).send(body);

  it("lists only the caller's notifications, newest first, with the spec's fields", async () => {
    const ada = await signUp(t.http);
    const bob = await signUp(t.http);
    await notify(ada._id, { title: 'First', message: 'one', userId: ada._id }).expect(200);
    await notify(bob._id, { title: 'For Bob', message: 'not for Ada' }).expect(200);
    const response = await notify(ada._id, { title: 'Second', message: 'two' }).expect(200);
    expect(response.body).toEqual({ ok: true, message: 'User Notified Successfully', sent: 1 });
    // A transaction notification with a status, from another module's transaction.
    await t.app.get(NotificationsService).notify({ userId: ada._id, title: 'Deposit', message: 'Approved', status: 'approved' });

    const list = await t.http.get('/api/user/get-notifications').set(bearer(ada.token)).expect(200);
    expect(list.body.map((n: { title: string }) => n.title)).toEqual(['Deposit', 'Second', 'First']);
    expect(Object.keys(list.body[1]).sort()).toEqual(['_id', 'createdAt', 'message', 'read', 'title']);
    expect(list.body[0]).toMatchObject({ status: 'approved', read: false });
    expect(list.body[1].read).toBe(false);
    expect(new Date(list.body[1].createdAt).toISOString()).toBe(list.body[1].createdAt);
  });

  it("marks a notification read; another customer's id or a bad id is 404 and changes nothing", async () => {
    const ada = await signUp(t.http);
    const eve = await signUp(t.http);
    await notify(ada._id, { title: 'Hello', message: 'm' }).expect(200);
    const [item] = (await t.http.get('/api/user/get-notifications').set(bearer(ada.token)).expect(200)).body;

    const stolen = await t.http.put(`/api/user/read-notification/${item._id}`).set(bearer(eve.token)).expect(404);
    expect(stolen.body).toEqual({ statusCode: 404, error: 'Notification not found.' });
    expect((await t.http.get('/api/user/get-notifications').set(bearer(ada.token))).body[0].read).toBe(false);
    await t.http.put('/api/user/read-notification/not-a-uuid').set(bearer(ada.token)).expect(404);
    await t.http.put(`/api/user/read-notification/${RANDOM_UUID}`).set(bearer(ada.token)).expect(404);
    await t.http.put(`/api/user/read-notification/${item._id}`).set(bearer(admin.token)).expect(403);
    await t.http.put(`/api/user/read-notification/${item._id}`).expect(401);

    const read = await t.http.put(`/api/user/read-notification/${item._id}`).set(bearer(ada.token)).expect(200);
    expect(read.body).toMatchObject({ _id: item._id, read: true });
    expect((await t.http.get('/api/user/get-notifications').set(bearer(ada.token))).body[0].read).toBe(true);
    // Idempotent.
    await t.http.put(`/api/user/read-notification/${item._id}`).set(bearer(ada.token)).expect(200);
  });

  it('validates the admin notification: fields required, unknown or inactive user 404, mismatched body user 400', async () => {
    const ada = await signUp(t.http);
    expect((await notify(ada._id, { message: 'm' }).expect(400)).body.error).toBe('Title is required.');
    expect((await notify(ada._id, { title: '  ', message: 'm' }).expect(400)).body.error).toBe('Title is required.');
    expect((await notify(ada._id, { title: 't' }).expect(400)).body.error).toBe('Message is required.');
    expect((await notify(RANDOM_UUID, { title: 't', message: 'm' }).expect(404)).body.error).toBe('User not found.');
    await notify('nope', { title: 't', message: 'm' }).expect(404);
    await notify(admin._id, { title: 't', message: 'm' }).expect(404);
    expect((await notify(ada._id, { title: 't', message: 'm', userId: RANDOM_UUID }).expect(400)).body.error).toBe(
      'The user in the body does not match the address.',
    );
    expect((await t.http.get('/api/user/get-notifications').set(bearer(ada.token))).body).toEqual([]);
  });

  it("streams a notification an admin sends to the customer's open event stream, and only to them", async () => {
    const ada = await signUp(t.http);
    const bob = await signUp(t.http);
    const adaStream = await openEventStream(t.url!, ada.token);
    const bobStream = await openEventStream(t.url!, bob.token);
    try {
      expect(adaStream.status).toBe(200);
      expect(adaStream.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(adaStream.headers.get('cache-control')).toContain('no-cache');
      await expect.poll(() => t.app.get(LiveEventsService).openStreams(ada._id)).toBe(1);

      await notify(ada._id, { title: 'Live', message: 'Pushed to you' }).expect(200);
      const event = await adaStream.next((e) => e.event === 'notification');
      const data = JSON.parse(event.data);
      expect(data).toMatchObject({ title: 'Live', message: 'Pushed to you', read: false });
      const [stored] = (await t.http.get('/api/user/get-notifications').set(bearer(ada.token))).body;
      expect(data._id).toBe(stored._id);

      await t.app.get(LiveEventsService).publish(ada._id, { type: 'balance', data: { token: 'bitcoin' } });
      expect(JSON.parse((await adaStream.next((e) => e.event === 'balance')).data)).toEqual({ token: 'bitcoin' });
      expect(bobStream.events).toEqual([]);
    } finally {
      adaStream.close();
      bobStream.close();
    }
    await expect.poll(() => t.app.get(LiveEventsService).openStreams(ada._id)).toBe(0);
  });

  it('sends nothing for a transaction that rolls back, and the event only after commit', async () => {
    const ada = await signUp(t.http);
    const stream = await openEventStream(t.url!, ada.token);
    const live = t.app.get(LiveEventsService);
    const notifications = t.app.get(NotificationsService);
    try {
      await expect.poll(() => live.openStreams(ada._id)).toBe(1);
      await expect(
        db.transaction(async (tx) => {
          await notifications.notify({ userId: ada._id, title: 'Rolled back', message: 'never' }, tx);
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      await db.transaction(async (tx) => {
        await notifications.notify({ userId: ada._id, title: 'Committed', message: 'yes' }, tx);
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(stream.events).toEqual([]);
      });
      const event = await stream.next((e) => e.event === 'notification');
      expect(JSON.parse(event.data).title).toBe('Committed');
      expect(stream.events.map((e) => JSON.parse(e.data).title)).toEqual(['Committed']);
    } finally {
      stream.close();
    }
  });

  it('delivers events NOTIFYed by another connection (another instance) through LISTEN', async () => {
    const ada = await signUp(t.http);
    const stream = await openEventStream(t.url!, ada.token);
    try {
      await expect.poll(() => t.app.get(LiveEventsService).openStreams(ada._id)).toBe(1);
      const payload = JSON.stringify({ u: ada._id, e: 'balance', d: { token: 'tether' } });
      if (kind === 'postgres') {
        const { Client } = await import('pg');
        const other = new Client({ connectionString: t.config.databaseUrl });
        await other.connect();
        await other.query('select pg_notify($1, $2)', ['coinpurse_live', payload]);
        await other.end();
      } else {
        await db.execute(sql`select pg_notify('coinpurse_live', ${payload})`);
      }
      expect(JSON.parse((await stream.next((e) => e.event === 'balance')).data)).toEqual({ token: 'tether' });
    } finally {
      stream.close();
    }
  });

  it.runIf(kind === 'postgres')('re-establishes the LISTEN connection after PostgreSQL drops it', async () => {
    const ada = await signUp(t.http);
    const stream = await openEventStream(t.url!, ada.token);
    const live = t.app.get(LiveEventsService);
    try {
      await expect.poll(() => live.openStreams(ada._id)).toBe(1);
      const [listener] = await rows<{ pid: number }>(db, sql`select pid from pg_stat_activity where datname = current_database() and query ilike 'listen %'`);
      expect(listener).toBeDefined();
      await db.execute(sql`select pg_terminate_backend(${listener.pid})`);
      // Events sent while the connection is down are lost (the client refetches); once it is back they flow again.
      let n = 0;
      await expect
        .poll(
          async () => {
            n += 1;
            await live.publish(ada._id, { type: 'balance', data: { token: `try-${n}` } });
            return stream.events.length > 0;
          },
          { timeout: 15_000, interval: 300 },
        )
        .toBe(true);
      const [again] = await rows<{ pid: number }>(db, sql`select pid from pg_stat_activity where datname = current_database() and query ilike 'listen %'`);
      expect(again.pid).not.toBe(listener.pid);
    } finally {
      stream.close();
    }
  });

  it('broadcasts to every active customer (stored and streamed), audited', async () => {
    const ada = await signUp(t.http);
    const gone = await signUp(t.http);
    await t.http.delete(`/api/admin/delete-user/${gone._id}`).set(bearer(admin.token)).expect(200);
    const stream = await openEventStream(t.url!, ada.token);
    try {
      await expect.poll(() => t.app.get(LiveEventsService).openStreams(ada._id)).toBe(1);
      const response = await t.http.post('/api/admin/broadcast').set(bearer(admin.token)).send({ title: 'Maintenance', message: 'Tonight 2am' }).expect(200);
      const [{ count }] = await rows<{ count: number }>(db, sql`select count(*)::int as count from users where role = 'user' and deactivated_at is null`);
      expect(response.body).toMatchObject({ ok: true, sent: count });
      const event = await stream.next((e) => e.event === 'notification');
      expect(JSON.parse(event.data)).toMatchObject({ title: 'Maintenance', message: 'Tonight 2am', read: false });
      expect((await t.http.get('/api/user/get-notifications').set(bearer(ada.token))).body[0]).toMatchObject({ title: 'Maintenance', read: false });
      const [{ n }] = await rows<{ n: number }>(db, sql`select count(*)::int as n from notifications where user_id = ${gone._id}`);
      expect(n).toBe(0);
      const audit = await t.http.get('/api/admin/audit?action=notification.broadcast').set(bearer(admin.token)).expect(200);
      expect(audit.body.items[0]).toMatchObject({ actorId: admin._id, action: 'notification.broadcast', after: { title: 'Maintenance', sent: count } });
      expect((await t.http.post('/api/admin/broadcast').set(bearer(admin.token)).send({ title: 'x' }).expect(400)).body.error).toBe('Message is required.');
    } finally {
      stream.close();
    }
  });

  it('sends heartbeat comments and ends the stream with a session event once the session is revoked', async () => {
    const ada = await signUp(t.http);
    const live = t.app.get(LiveEventsService);
    live.heartbeatMs = 150;
    const stream = await openEventStream(t.url!, ada.token);
    try {
      await expect.poll(() => stream.comments.filter((c) => c === 'heartbeat').length, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
      await t.http.post('/api/user/logout').set(bearer(ada.token)).expect(200);
      const event = await stream.next((e) => e.event === 'session', 5000);
      expect(JSON.parse(event.data)).toEqual({ expired: true });
      await stream.ended;
      expect(live.openStreams(ada._id)).toBe(0);
    } finally {
      live.heartbeatMs = 25_000;
      stream.close();
    }
  });

  it('refuses the stream without a customer session', async () => {
    expect((await t.http.get('/api/user/events').expect(401)).body.statusCode).toBe(401);
    await t.http.get('/api/user/events').set(bearer(admin.token)).expect(403);
    await t.http.get('/api/user/events').set(bearer('garbage.token.here')).expect(401);
  });
});

describe('live events on shutdown', () => {
  it('ends open streams when the app closes, so shutdown does not hang', async () => {
    const t = await startTestApp('pglite', {}, { listen: true });
    const ada = await signUp(t.http);
    const stream = await openEventStream(t.url!, ada.token);
    await expect.poll(() => t.app.get(LiveEventsService).openStreams(ada._id)).toBe(1);
    const started = Date.now();
    await t.close();
    await stream.ended;
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

async function rows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}
