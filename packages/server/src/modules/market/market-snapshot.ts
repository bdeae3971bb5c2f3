import { join } from 'node:path';
import { SERVER_ROOT } from '../../config/config';
import type { CoinUpsert } from './coins.repository';
import { parseMarketRows } from './coingecko';
// Imported (not read at run time) so `tsc` copies it into dist/ beside the compiled code.
import snapshot from './snapshot/coins-snapshot.json';

export const SNAPSHOT_FILE = 'coins-snapshot.json';

/** The committed snapshot's source file (generated once by snapshot/generate-snapshot.mjs). */
export function snapshotPath(): string {
  return join(SERVER_ROOT, 'src', 'modules', 'market', 'snapshot', SNAPSHOT_FILE);
}

/** The offline market: top 100 coins with 7-day sparklines, each priced as of the snapshot's time. */
export function loadSnapshot(): { asOf: Date; rows: CoinUpsert[] } {
  const data = snapshot as { as_of: string; coins: unknown[] };
  const asOf = new Date(data.as_of);
  const { rows } = parseMarketRows(data.coins, 'snapshot', new Date(Math.max(Date.now(), asOf.getTime())));
  return { asOf, rows };
}
