import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** Which databases the integration tests run on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const DATABASE_KINDS: Array<'pglite' | 'postgres'> = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/**
 * Creates a fresh PostgreSQL database and returns its name, URL and a drop function: empty, or a copy of `template` (the
 * run's migrated template, see global-setup.ts: copying takes a fifth of the time migrating does, and the app then
 * finds nothing to migrate).
 */
export async function createPostgresDatabase({ template }: { template?: string } = {}): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const name = `coinpurse_t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const client = new Client({ connectionString: base });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
