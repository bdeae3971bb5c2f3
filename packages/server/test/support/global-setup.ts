// Once per run of the integration or browser tests, before any file: what every app start would otherwise redo.
// - PGlite: the build's migrated seed (dist/pglite-seed.tar.gz), written when missing or made from other migrations.
//   Without it each app on PGlite runs initdb and every migration (about 7 s on a loaded two-core machine, against
//   under 2 s from the seed); `pnpm test` runs from a fresh clone, where nothing is built yet.
// - PostgreSQL (TEST_DATABASE_URL): a template database with every migration applied, which apps started by
//   startTestApp copy (createPostgresDatabase({ template })). Dropped at the end of the run.
import { join } from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { Pool } from 'pg';
import type { TestProject } from 'vitest/node';
import { seedIsCurrent, writePgliteSeed } from '../../src/db/pglite-seed';
import { createPostgresDatabase } from './databases';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated template database's name, when the run has PostgreSQL. */
    postgresTemplate: string | undefined;
  }
}

const MIGRATIONS = join(__dirname, '..', '..', 'drizzle');

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!seedIsCurrent(MIGRATIONS)) await writePgliteSeed(MIGRATIONS);
  if (!process.env.TEST_DATABASE_URL) {
    project.provide('postgresTemplate', undefined);
    return undefined;
  }
  const template = await createPostgresDatabase();
  const pool = new Pool({ connectionString: template.url, max: 1 });
  try {
    await migrate(drizzle(pool), { migrationsFolder: MIGRATIONS });
  } finally {
    // A template must have no connection left when it is copied.
    await pool.end();
  }
  project.provide('postgresTemplate', template.name);
  return template.drop;
}
