import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Announcer, MAX_NOTIFY_PAYLOAD_BYTES, type NotifySender, unpackAnnouncements } from './announcer';

describe('Announcer', () => {
  /** Records each statement's NOTIFYs; `gate` holds a send until released. */
  function recorder() {
    const sent: Array<Array<readonly [string, string]>> = [];
    let release: (() => void) | undefined;
    let gate: Promise<void> | undefined;
    const send: NotifySender = async (notifies) => {
      sent.push([...notifies]);
      await gate;
    };
    return {
      sent,
      send,
      hold: () => (gate = new Promise<void>((resolve) => (release = resolve))),
      release: () => release?.(),
    };
  }

  it('sends what one turn of the event loop announced in one statement, JSON packed per channel, wake-ups once', async () => {
    const r = recorder();
    const announcer = new Announcer(r.send, (error) => {
      throw error;
    });
    announcer.announceJson('live', JSON.stringify({ u: 'a', e: 'balance' }));
    announcer.wake('mail');
    announcer.announceJson('live', JSON.stringify({ u: 'b', e: 'balance' }));
    announcer.wake('mail');
    await announcer.flush();
    expect(r.sent).toEqual([
      [
        ['live', '[{"u":"a","e":"balance"},{"u":"b","e":"balance"}]'],
        ['mail', ''],
      ],
    ]);
    expect(unpackAnnouncements(r.sent[0][0][1])).toEqual([
      { u: 'a', e: 'balance' },
      { u: 'b', e: 'balance' },
    ]);
  });

  it('keeps one statement in flight: what arrives meanwhile goes in the next one, together', async () => {
    const r = recorder();
    const announcer = new Announcer(r.send, () => undefined);
    r.hold();
    announcer.announceJson('live', '1');
    await new Promise((resolve) => setImmediate(resolve));
    expect(r.sent).toHaveLength(1);
    for (let i = 2; i <= 5; i++) announcer.announceJson('live', String(i));
    expect(r.sent).toHaveLength(1);
    r.release();
    await announcer.flush();
    expect(r.sent.map((statement) => statement.map(([, payload]) => payload))).toEqual([['[1]'], ['[2,3,4,5]']]);
  });

  it('splits a channel into arrays that each fit a NOTIFY payload (multi-byte characters counted as bytes)', async () => {
    const r = recorder();
    const announcer = new Announcer(r.send, () => undefined);
    const one = JSON.stringify({ note: 'é'.repeat(1000) }); // ~2 KB in UTF-8, 1 K characters
    for (let i = 0; i < 10; i++) announcer.announceJson('live', one);
    await announcer.flush();
    const payloads = r.sent.flat().map(([, payload]) => payload);
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(MAX_NOTIFY_PAYLOAD_BYTES);
    expect(payloads.flatMap(unpackAnnouncements)).toHaveLength(10);
  });

  it('refuses a single announcement too long for NOTIFY, and reports a failed send without throwing', async () => {
    const errors: string[] = [];
    const announcer = new Announcer(
      () => Promise.reject(new Error('connection lost')),
      (error) => errors.push(error.message),
    );
    expect(() => announcer.announceJson('live', JSON.stringify('x'.repeat(MAX_NOTIFY_PAYLOAD_BYTES)))).toThrow(/longer than a NOTIFY payload/);
    announcer.wake('mail');
    await announcer.flush();
    expect(errors).toEqual(['connection lost']);
  });

  describe('on a database', () => {
    let pglite: PGlite;
    beforeAll(async () => {
      pglite = new PGlite();
      await pglite.waitReady;
    });
    afterAll(() => pglite.close());

    it('delivers each announced value to the listener, unpacked', async () => {
      const received: unknown[] = [];
      await pglite.listen('live', (payload) => received.push(...unpackAnnouncements(payload)));
      const announcer = new Announcer(
        async (notifies) => {
          await pglite.query(`select ${notifies.map((_, i) => `pg_notify($${2 * i + 1}, $${2 * i + 2})`).join(', ')}`, notifies.flat());
        },
        () => undefined,
      );
      for (let i = 0; i < 3; i++) announcer.announceJson('live', JSON.stringify({ i }));
      await announcer.flush();
      await expect.poll(() => received).toEqual([{ i: 0 }, { i: 1 }, { i: 2 }]);
    });
  });
});
