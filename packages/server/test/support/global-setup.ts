// Once per run of the integration or browser tests, before any file: what every app start would otherwise redo.
// - PGlite: the build's migrated seed (dist/pglite-seed.tar.gz), written when missing or made from other migrations.
//   Without it each app on PGlite runs initdb and every migration (about 7 s on a loaded two-core machine, against
//   under 2 s from the seed); `pnpm test` runs from a fresh clone, where nothing is built yet.
// - PostgreSQL (TEST_DATABASE_URL): a template database with every migration applied, which apps started by
//   startTestApp copy (createPostgresDatabase({ migrated: true })). Dropped at the end of the run.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { Client, Pool } from 'pg';
import type { TestProject } from 'vitest/node';
import { seedIsCurrent, writePgliteSeed } from '../../src/db/pglite-seed';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated template database's name, when the run has PostgreSQL. */
    postgresTemplate: string | undefined;
  }
}

const MIGRATIONS = join(__dirname, '..', '..', 'drizzle');

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!seedIsCurrent(MIGRATIONS)) await writePgliteSeed(MIGRATIONS);
  const base = process.env.TEST_DATABASE_URL;
  if (!base) {
    project.provide('postgresTemplate', undefined);
    return undefined;
  }
  const name = `coinpurse_template_${process.pid}_${randomBytes(3).toString('hex')}`;
  const run = async (statement: string) => {
    const admin = new Client({ connectionString: base });
    await admin.connect();
    try {
      await admin.query(statement);
    } finally {
      await admin.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const pool = new Pool({ connectionString: url.toString(), max: 1 });
  try {
    await migrate(drizzle(pool), { migrationsFolder: MIGRATIONS });
  } finally {
    // A template must have no connection left when it is copied.
    await pool.end();
  }
  project.provide('postgresTemplate', name);
  return () => run(`drop database if exists ${name} with (force)`);
}
