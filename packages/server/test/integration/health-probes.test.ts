import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases';
import { startTestApp, type TestApp } from '../support/test-app';

describe.each(DATABASE_KINDS)('liveness and readiness on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers liveness without touching dependencies', async () => {
    const response = await t.http.get('/api/health/live').expect(200);
    expect(response.body).toMatchObject({ status: 'ok' });
  });

  it('is ready when the database answers and is migrated, and reports the price age without failing on it', async () => {
    const response = await t.http.get('/api/health/ready').expect(200);
    expect(response.body.status).toBe('ok');
    expect(response.body.details.database).toEqual({ status: 'up', driver: kind });
    // The bundled snapshot is days old: stale, reported, still ready.
    expect(response.body.details.prices).toMatchObject({ status: 'up', source: 'snapshot', stale: true });
    expect(response.body.details.prices.ageSeconds).toBeGreaterThan(0);
  });

  it('keeps GET /api/health as before', async () => {
    const response = await t.http.get('/api/health').expect(200);
    expect(response.body).toMatchObject({ status: 'ok', database: kind });
  });
});

describe.runIf(DATABASE_KINDS.includes('postgres'))('readiness when PostgreSQL goes away', () => {
  let t: TestApp;
  let admin: Client;
  let name: string;
  beforeAll(async () => {
    t = await startTestApp('postgres');
    name = new URL(t.config.databaseUrl!).pathname.slice(1);
    admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.query(`alter database ${name} allow_connections true`).catch(() => undefined);
    await admin?.end();
    await t?.close();
  });

  it('answers 503 while the database refuses connections and 200 again once it is back', async () => {
    await t.http.get('/api/health/ready').expect(200);

    // Refuse new connections and cut the open ones (the pool's and the LISTEN connection).
    await admin.query(`alter database ${name} allow_connections false`);
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);

    const down = await t.http.get('/api/health/ready').expect(503);
    expect(down.body.status).toBe('error');
    expect(down.body.error.database.status).toBe('down');
    expect(down.body.error.database.message).toContain('not reachable');
    // Liveness does not depend on the database: the process is fine, a restart would not help.
    await t.http.get('/api/health/live').expect(200);

    await admin.query(`alter database ${name} allow_connections true`);
    const up = await t.http.get('/api/health/ready').expect(200);
    expect(up.body.details.database.status).toBe('up');
  });
});
