// `pnpm --filter @coinpurse/server db:functions`: writes src/db/functions/<family>.sql, the current definition of every
// SQL function the migrations define (see db/function-definitions.ts), from a fresh in-memory PGlite migrated with
// drizzle/. Files of families that no longer have a function are removed.
import { PGlite } from '@electric-sql/pglite';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FUNCTIONS_DIR, migrateAndDump, renderFamilies } from '../db/function-definitions';
import { PGLITE_START_PARAMS } from '../db/pglite-seed';

const root = join(__dirname, '..', '..');

async function main(): Promise<void> {
  const migrationsDir = join(root, 'drizzle');
  const pglite = new PGlite({ startParams: PGLITE_START_PARAMS });
  let files: Map<string, string>;
  try {
    const objects = await migrateAndDump(
      {
        run: async (sql) => void (await pglite.exec(sql)),
        rows: async <T>(sql: string) => (await pglite.query<T>(sql)).rows,
      },
      migrationsDir,
    );
    files = renderFamilies(objects, migrationsDir);
  } finally {
    await pglite.close();
  }
  const dir = join(root, FUNCTIONS_DIR);
  mkdirSync(dir, { recursive: true });
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.sql') && !files.has(name))) {
    rmSync(join(dir, file));
    console.log(`removed ${FUNCTIONS_DIR}/${file}`);
  }
  for (const [file, text] of files) {
    const path = join(dir, file);
    const before = (() => {
      try {
        return readFileSync(path, 'utf8');
      } catch {
        return undefined;
      }
    })();
    if (before === text) continue;
    writeFileSync(path, text);
    console.log(`${before === undefined ? 'wrote' : 'updated'} ${FUNCTIONS_DIR}/${file}`);
  }
  console.log(`${files.size} files in ${FUNCTIONS_DIR}, up to date with drizzle/`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
