// Build step (after tsc): packs a fresh, migrated PGlite data directory into dist/pglite-seed.tar.gz, so a first start
// on an empty DATA_DIR unpacks it instead of running initdb (see db/pglite-seed.ts).
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_ROOT } from '../config/config';
import { migrationsFingerprint, PGLITE_SEED_FILE, PGLITE_START_PARAMS } from '../db/pglite-seed';

async function main(): Promise<void> {
  const migrationsDir = join(SERVER_ROOT, 'drizzle');
  const pglite = new PGlite({ startParams: PGLITE_START_PARAMS });
  try {
    await migrate(drizzle(pglite), { migrationsFolder: migrationsDir });
    const dump = await pglite.dumpDataDir('gzip');
    writeFileSync(PGLITE_SEED_FILE, Buffer.from(await dump.arrayBuffer()));
    writeFileSync(`${PGLITE_SEED_FILE}.json`, JSON.stringify({ migrations: migrationsFingerprint(migrationsDir) }) + '\n');
  } finally {
    await pglite.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
