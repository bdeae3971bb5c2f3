// Build step (after tsc): packs a fresh, migrated PGlite data directory into dist/pglite-seed.tar.gz, so a first start
// on an empty DATA_DIR unpacks it instead of running initdb (see db/pglite-seed.ts).
import { join } from 'node:path';
import { SERVER_ROOT } from '../config/config';
import { writePgliteSeed } from '../db/pglite-seed';

writePgliteSeed(join(SERVER_ROOT, 'drizzle')).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
