import { PGlite } from '@electric-sql/pglite';
import { Logger } from '@nestjs/common';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
/** Both drivers share Drizzle's PostgreSQL surface; repositories only use that. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Either the database or an open transaction: repositories accept both. */
export type Executor = Database | Tx;

export const DATABASE = Symbol('DATABASE');

export interface DatabaseHandle {
  db: Database;
  driver: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const MIGRATION_LOCK = 7_300_001;

/** Opens the database (PostgreSQL when `databaseUrl` is set, else PGlite) and applies the migrations. */
export async function openDatabase(options: { databaseUrl?: string; dataDir: string; migrationsDir: string }): Promise<DatabaseHandle> {
  const logger = new Logger('Database');
  if (options.databaseUrl) {
    const pool = new Pool({ connectionString: options.databaseUrl, max: 20 });
    // An idle client that errors (server restart) must not crash the process.
    pool.on('error', (error) => logger.warn(`PostgreSQL pool: ${error.message}`));
    const client = await pool.connect();
    try {
      // Several instances may start at once: one migrates, the others wait.
      await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder: options.migrationsDir });
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    } finally {
      client.release();
    }
    return { db: drizzlePg(pool, { schema }) as unknown as Database, driver: 'postgres', close: () => pool.end() };
  }

  let pglite: PGlite;
  if (options.dataDir === ':memory:') {
    pglite = new PGlite();
  } else {
    const dir = join(options.dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
    pglite = new PGlite(dir);
  }
  await pglite.waitReady;
  const db = drizzlePglite(pglite, { schema });
  await migratePglite(db, { migrationsFolder: options.migrationsDir });
  return { db: db as unknown as Database, driver: 'pglite', close: () => pglite.close() };
}
