import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_HANDLE } from '../../src/db/database.module';
import { DATABASE, type Database, type DatabaseHandle } from '../../src/db/database';
import { MailRepository } from '../../src/modules/mail/mail.repository';
import { WebhooksRepository } from '../../src/modules/webhooks/webhooks.repository';
import { DATABASE_KINDS } from '../support/databases';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The outbox jobs (mail, webhooks) sleep until the next row is due, or their poll interval when none is pending. An
 * empty outbox once read as "due now" (greatest(0, NULL) is 0), so an idle app polled both every 50 ms: a fifth of a
 * core on PGlite doing nothing (issue 36's idle work).
 */
describe.each(DATABASE_KINDS)('outbox polling on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('an empty outbox has nothing due; a pending row is due at its time, never in the past', async () => {
    const db = t.app.get<Database>(DATABASE);
    const mail = t.app.get(MailRepository);
    await db.execute(sql`delete from mail_outbox`);
    expect(await mail.nextDueInMs()).toBeUndefined();

    await db.execute(sql`insert into mail_outbox ("to", subject, text, next_attempt_at) values ('a@test.local', 's', 't', now() + interval '20 seconds')`);
    const later = await mail.nextDueInMs();
    expect(later).toBeGreaterThan(15_000);
    expect(later).toBeLessThanOrEqual(20_000);

    await db.execute(sql`update mail_outbox set next_attempt_at = now() - interval '1 minute'`);
    expect(await mail.nextDueInMs()).toBe(0);
    await db.execute(sql`delete from mail_outbox`);

    expect(await t.app.get(WebhooksRepository).nextDueInMs()).toBeUndefined();
  });

  it('an idle app reads its outboxes a few times a second at most, not every 50 ms', async () => {
    const { queries } = t.app.get<DatabaseHandle>(DATABASE_HANDLE);
    const before = queries.total;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    // Every statement of the app (its scheduled jobs: nothing else runs). With mail polling every 5 s and webhooks
    // every 1 s (a lock, a claim and a due read each, in a transaction), a few dozen; about 600 before.
    expect(queries.total - before).toBeLessThan(60);
  });
});
