import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createPostgresDatabase, DATABASE_KINDS } from '../support/databases';
import { request, type ServerProcess, spawnServer } from '../support/server-process';
import { ADMIN_EMAIL, ADMIN_PASSWORD, uniqueEmail } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

/** Two server processes start in this test; on two busy cores one start can take tens of seconds. */
const PROCESS_TEST_TIMEOUT = 240_000;

const running = new Set<ServerProcess>();
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  await Promise.all([...running].map((server) => server.stop('SIGKILL')));
  running.clear();
});
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe.each(DATABASE_KINDS)('webhooks through a crash of the app on %s', (kind) => {
  it(
    'an event committed, then the process SIGKILLed before delivering it: the restarted app delivers it, signed',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'coinpurse-webhook-crash-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      const database = kind === 'postgres' ? await createPostgresDatabase() : undefined;
      if (database) cleanups.push(() => database.drop());
      const env = {
        DATA_DIR: dataDir,
        ...(database ? { DATABASE_URL: database.url } : {}),
        ENCRYPTION_KEY: 'd4'.repeat(32),
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s,1s,1s,1s,1s,1s,1s,1s',
        WEBHOOK_TIMEOUT_SECONDS: '2',
      };
      // The receiver's port, kept closed until the first process is dead: nothing can be delivered before the crash.
      const reserved = await WebhookReceiver.start();
      const port = Number(new URL(reserved.url).port);
      await reserved.close();

      const first = await spawnServer(env);
      running.add(first);
      const customer = await request(first.url, 'POST', '/api/user/create-user', {
        body: { name: 'Crash Test', email: uniqueEmail('crash'), password: 'password-123', country: 'Germany' },
      });
      expect(customer.status).toBe(201);
      const hook = await request(first.url, 'POST', '/api/user/webhooks', {
        token: customer.body.token,
        body: { url: reserved.url, events: ['notification.created'] },
      });
      expect(hook.status).toBe(201);
      const admin = (await request(first.url, 'POST', '/api/admin/login-admin', { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } })).body.token;
      const sent = await request(first.url, 'POST', `/api/admin/send-notifiction/${customer.body._id}`, {
        token: admin,
        body: { title: 'Before the crash', message: 'Committed, not yet delivered.' },
      });
      expect(sent.status).toBe(200);
      expect(await first.stop('SIGKILL')).toBe('SIGKILL');

      const receiver = await WebhookReceiver.start({ port });
      cleanups.push(() => receiver.close());
      const second = await spawnServer(env);
      running.add(second);
      await expect.poll(() => receiver.receipts.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
      const [receipt] = receiver.receipts;
      expect(WebhookReceiver.verify(receipt, hook.body.secret)).toMatchObject({
        type: 'notification.created',
        data: { title: 'Before the crash', message: 'Committed, not yet delivered.' },
      });
      // Every try of it, before and after the crash, carried the same event id.
      const deliveries = await request(second.url, 'GET', `/api/user/webhooks/${hook.body.id}/deliveries`, { token: customer.body.token });
      expect(deliveries.body).toHaveLength(1);
      expect(deliveries.body[0].eventId).toBe(receipt.id);
    },
    PROCESS_TEST_TIMEOUT,
  );
});
