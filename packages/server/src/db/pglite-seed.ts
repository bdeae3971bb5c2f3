import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SERVER_ROOT } from '../config/config';

/**
 * PGlite's start parameters: its defaults with smaller shared buffers. PostgreSQL's default 128 MB of shared buffers
 * is allocated and touched inside the WASM heap at start (about 115 MB of resident memory before a single row is
 * read); the embedded database's working set is far smaller and the files stay in the OS page cache anyway.
 */
export const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * A freshly initialised, fully migrated PGlite data directory, packed at build time (`dist/pglite-seed.tar.gz`, see
 * scripts/build-pglite-seed.ts). A new data directory is unpacked from it instead of running initdb, which takes a few
 * seconds and several hundred MB of WASM heap that is never given back. Its `.json` sidecar names the migrations it
 * holds: a seed built from other migrations is ignored (initdb then runs as before). Found from the package root, as
 * the code runs from the bundle (`dist/main.js`), from tsc's `dist/db/` and from `src/db/`.
 */
export const PGLITE_SEED_FILE = join(SERVER_ROOT, 'dist', 'pglite-seed.tar.gz');

/** A digest of the migration files (journal and SQL): the seed is only used for exactly these migrations. */
export function migrationsFingerprint(migrationsDir: string): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(join(migrationsDir, 'meta', '_journal.json')));
  for (const name of readdirSync(migrationsDir)
    .filter((file) => file.endsWith('.sql'))
    .sort()) {
    hash.update(name).update(readFileSync(join(migrationsDir, name)));
  }
  return hash.digest('hex');
}

/** The seed as a Blob for PGlite's `loadDataDir`, when one exists for these migrations and `dataDir` is empty. */
export function seedFor(dataDir: string, migrationsDir: string, seedFile = PGLITE_SEED_FILE): Blob | undefined {
  if (existsSync(join(dataDir, 'PG_VERSION')) || !seedIsCurrent(migrationsDir, seedFile)) return undefined;
  try {
    return new Blob([readFileSync(seedFile)]);
  } catch {
    return undefined;
  }
}

/** Whether `seedFile` holds a seed for exactly these migrations. */
export function seedIsCurrent(migrationsDir: string, seedFile = PGLITE_SEED_FILE): boolean {
  try {
    const { migrations } = JSON.parse(readFileSync(`${seedFile}.json`, 'utf8')) as { migrations?: string };
    return existsSync(seedFile) && migrations === migrationsFingerprint(migrationsDir);
  } catch {
    return false;
  }
}

/**
 * Packs a fresh PGlite data directory migrated with `migrationsDir` into `seedFile`, with its sidecar. Each file is
 * written aside and renamed into place, the sidecar last, so a process starting meanwhile (or a second writer: the
 * browser and integration tests may both build it) reads either no seed or a whole one.
 */
export async function writePgliteSeed(migrationsDir: string, seedFile = PGLITE_SEED_FILE): Promise<void> {
  const pglite = new PGlite({ startParams: PGLITE_START_PARAMS });
  try {
    await migrate(drizzle(pglite), { migrationsFolder: migrationsDir });
    const dump = await pglite.dumpDataDir('gzip');
    mkdirSync(dirname(seedFile), { recursive: true });
    const place = (file: string, content: string | Buffer) => {
      writeFileSync(`${file}.${process.pid}.tmp`, content);
      renameSync(`${file}.${process.pid}.tmp`, file);
    };
    place(seedFile, Buffer.from(await dump.arrayBuffer()));
    place(`${seedFile}.json`, JSON.stringify({ migrations: migrationsFingerprint(migrationsDir) }) + '\n');
  } finally {
    await pglite.close();
  }
}
