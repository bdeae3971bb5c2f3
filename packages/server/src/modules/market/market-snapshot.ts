import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_ROOT } from '../../config/config';
import type { CoinUpsert } from './coins.repository';
import { parseMarketRows } from './coingecko';

export const SNAPSHOT_FILE = 'coins-snapshot.json';

/**
 * Where the committed snapshot lives: beside this file when a build copied it, else in the package's source tree
 * (resolved from the package root, so `dist/` finds it too).
 */
export function snapshotPath(): string {
  const candidates = [join(__dirname, 'snapshot', SNAPSHOT_FILE), join(SERVER_ROOT, 'src', 'modules', 'market', 'snapshot', SNAPSHOT_FILE)];
  const found = candidates.find((path) => existsSync(path));
  if (!found) throw new Error(`Market snapshot not found (looked in ${candidates.join(', ')})`);
  return found;
}

/** The offline market: top 100 coins with 7-day sparklines, each priced as of the snapshot's time. */
export function loadSnapshot(): { asOf: Date; rows: CoinUpsert[] } {
  const data = JSON.parse(readFileSync(snapshotPath(), 'utf8')) as { as_of: string; coins: unknown[] };
  const asOf = new Date(data.as_of);
  const { rows } = parseMarketRows(data.coins, 'snapshot', new Date(Math.max(Date.now(), asOf.getTime())));
  return { asOf, rows };
}
