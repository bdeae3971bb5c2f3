import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { DATABASE_KINDS } from '../support/databases';
import { bearer } from '../support/test-app';
import { newCustomer, startWalletApp, type WalletApp } from '../support/wallet';

const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

/** The backfill statements of the networks migration (the ones after the schema changes), from whichever migration holds them. */
function backfillStatements(): string[] {
  const folder = join(__dirname, '..', '..', 'drizzle');
  const files = readdirSync(folder).filter((name) => name.endsWith('.sql'));
  const file = files.map((name) => readFileSync(join(folder, name), 'utf8')).find((text) => text.includes('INSERT INTO "token_networks"'));
  if (!file) throw new Error('No migration holds the networks backfill');
  return file
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter((s) => /^(--[^\n]*\n)*\s*(INSERT INTO "token_networks"|UPDATE "transactions")/.test(s));
}

const rows = async <T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> => {
  const result = await db.execute(query);
  return ((result as { rows?: T[] }).rows ?? (result as unknown as T[])) as T[];
};

describe.each(DATABASE_KINDS)('networks migration backfill on %s', (kind) => {
  let t: WalletApp;
  let db: Database;
  beforeAll(async () => {
    t = await startWalletApp(kind);
    db = t.app.get(DATABASE);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('gives existing tokens and transactions their network ids, losing nothing', async () => {
    const user = await newCustomer(t);
    // The data as it was before networks: no network rows, tether with a TRON deposit address, old network labels.
    await db.execute(sql`delete from token_networks`);
    await db.execute(sql`update supported_tokens set address = ${TRON} where coin_id = 'tether'`);
    const legacy: Array<[string, string, string, string | null]> = [
      ['withdrawal', 'tether', 'TRC-20', TRON],
      ['withdrawal', 'tether', 'ERC-20', ETH],
      ['deposit', 'tether', 'tether', ETH],
      ['deposit', 'tether', 'tether', TRON],
      ['withdrawal', 'bitcoin', 'bitcoin', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
      ['deposit', 'ethereum', 'ethereum', null],
      ['withdrawal', 'ethereum', 'ERC-20', ETH],
    ];
    for (const [type, token, network, address] of legacy) {
      await db.execute(sql`
        insert into transactions (user_id, type, token, network, address, coin_amount, usd_amount, status, direction)
        values (${user._id}, ${type}, ${token}, ${network}, ${address}, 1, 1, 'rejected', ${type === 'deposit' ? 'in' : 'out'})`);
    }
    const statements = backfillStatements();
    expect(statements).toHaveLength(2);
    for (const statement of statements) await db.execute(sql.raw(statement));

    const networks = await rows<{ coin_id: string; network: string; address: string | null; same_id: boolean }>(
      db,
      sql`select st.coin_id, tn.network, tn.address, tn.id = st.id as same_id from token_networks tn join supported_tokens st on st.id = tn.token_id order by st.coin_id`,
    );
    expect(networks.map((n) => [n.coin_id, n.network, n.address, n.same_id === true || (n.same_id as unknown) === 't'])).toEqual([
      ['bitcoin', 'bitcoin', null, true],
      ['ethereum', 'ethereum', null, true],
      ['tether', 'tron', TRON, true],
    ]);
    const history = (await t.http.get('/api/user/get-transaction').set(bearer(user.token)).expect(200)).body as Array<{ network: string; token: string }>;
    expect(history.map((h) => `${h.token}:${h.network}`).reverse()).toEqual([
      'tether:tron',
      'tether:ethereum',
      'tether:ethereum',
      'tether:tron',
      'bitcoin:bitcoin',
      'ethereum:ethereum',
      'ethereum:ethereum',
    ]);
    // Running it again changes nothing.
    for (const statement of statements) await db.execute(sql.raw(statement));
    expect((await t.http.get('/api/user/get-transaction').set(bearer(user.token)).expect(200)).body).toHaveLength(legacy.length);
  });
});
