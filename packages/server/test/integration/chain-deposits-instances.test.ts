import { sql } from 'drizzle-orm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { ChainConnections } from '../../src/modules/chain/chain-connections';
import { ChainWatcherService } from '../../src/modules/chain/chain-watcher.service';
import { DepositCreditsService } from '../../src/modules/chain/deposit-credits.service';
import { ReferenceDataCache } from '../../src/modules/reference-data/reference-data.cache';
import { DATABASE_KINDS } from '../support/databases';
import { RegtestLitecoind, litecoindInstalled } from '../support/litecoind';
import { seedCoins } from '../support/market';
import { bearer, loginAdmin, signUp, startTestApp, type TestApp } from '../support/test-app';
import { supportTokens } from '../support/wallet';

/** BIP84 account key m/84'/1'/0' of the "abandon … about" test mnemonic. */
const TPUB = 'tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M';
const CONFIRMATIONS = 3;

/**
 * The watcher across processes: stopped mid-way and started again (a new app on the same database resumes from the
 * stored cursor), and — on PostgreSQL, where two instances can share a database — two instances polling at once.
 */
describe.skipIf(!litecoindInstalled).each(DATABASE_KINDS)('chain watchers across restarts and instances on %s', (kind) => {
  let ltc: RegtestLitecoind;
  const dataDir = mkdtempSync(join(tmpdir(), 'coinpurse-chain-'));
  const apps: TestApp[] = [];

  const env = () => ({
    CHAIN_LITECOIN_RPC_URL: ltc.rpcUrl,
    CHAIN_LITECOIN_XPUB: TPUB,
    CHAIN_LITECOIN_CHAIN: 'regtest',
    CHAIN_LITECOIN_CONFIRMATIONS: String(CONFIRMATIONS),
    CHAIN_LITECOIN_POLL_SECONDS: '1',
  });
  /** An app on the test's database: the first one creates it; on PostgreSQL the later ones share it. */
  const startApp = async (): Promise<TestApp> => {
    const first = apps.find((app) => app.config.databaseUrl);
    const app = kind === 'postgres' && first ? await startTestApp(kind, env(), { shareDatabaseWith: first }) : await startTestApp(kind, env(), { dataDir });
    apps.push(app);
    return app;
  };
  const watcherOf = (app: TestApp) => app.app.get(ChainWatcherService);
  const creditsOf = (app: TestApp) => app.app.get(DepositCreditsService);
  const dbOf = (app: TestApp) => app.app.get<Database>(DATABASE);
  const rows = async <T>(app: TestApp, query: ReturnType<typeof sql>) => ((await dbOf(app).execute(query)) as unknown as { rows: T[] }).rows;
  const deposit = async (app: TestApp, txid: string) =>
    rows<{ state: string; confirmations: number }>(app, sql`select state, confirmations from chain_deposits where txid = ${txid}`);
  const credits = async (app: TestApp, txid: string) =>
    (await rows<{ n: number }>(app, sql`select count(*)::int as n from journal_entries where kind = 'chain_deposit_credit' and reason like ${`%${txid}%`}`))[0]
      .n;
  const ownAddress = async (app: TestApp, token: string) => {
    const tokens = (await app.http.get('/api/crypto/get-wallet-tokens').set(bearer(token)).expect(200)).body as Array<{ id: string; address: string }>;
    return tokens.find((x) => x.id === 'litecoin')!.address;
  };

  beforeAll(async () => {
    ltc = await RegtestLitecoind.start();
    const app = await startApp();
    await seedCoins(app, { litecoin: '80' });
    await supportTokens(app, ['litecoin']);
    app.app.get(ReferenceDataCache).invalidate();
  });

  afterAll(async () => {
    // The first PostgreSQL app owns the database: close it last.
    for (const app of [...apps].reverse()) await app.close().catch(() => undefined);
    await ltc?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a watcher stopped mid-way (deposit at 1 of 3) resumes in a new process from the stored cursor and credits once', async () => {
    let app = apps[0];
    watcherOf(app).stop();
    const customer = await signUp(app.http);
    const address = await ownAddress(app, customer.token);
    await watcherOf(app).pollOnce('litecoin');
    const txid = await ltc.send(address, '1.5');
    await ltc.mine(1);
    await watcherOf(app).pollOnce('litecoin');
    expect(await deposit(app, txid)).toEqual([{ state: 'confirming', confirmations: 1 }]);

    // The process goes away (PGlite: closed; PostgreSQL: its watcher stopped for good) and the chain moves on meanwhile.
    if (kind === 'pglite') {
      await app.close();
      apps.splice(apps.indexOf(app), 1);
    }
    await ltc.mine(CONFIRMATIONS);
    app = await startApp();
    // The new process's own scheduled watcher picks up from the cursor: no test hand here.
    const deadline = Date.now() + 20_000;
    while ((await deposit(app, txid))[0]?.state !== 'credited' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await deposit(app, txid)).toEqual([{ state: 'credited', confirmations: CONFIRMATIONS + 1 }]);
    expect(await credits(app, txid)).toBe(1);
    // The same customer keeps the same address in the new process.
    const again = await app.http.post('/api/user/login-user').send({ email: customer.email, password: customer.password }).expect(200);
    expect(await ownAddress(app, again.body.token)).toBe(address);
  });

  it.skipIf(kind !== 'postgres')('two instances polling the same network at once record and credit each deposit once', async () => {
    const a = apps[apps.length - 1];
    const b = await startApp();
    for (const app of [a, b]) watcherOf(app).stop();
    const customers = await Promise.all([signUp(a.http), signUp(b.http), signUp(a.http)]);
    const addresses = await Promise.all(customers.map((c, i) => ownAddress(i % 2 ? b : a, c.token)));
    expect(new Set(addresses).size).toBe(3);
    const txids: string[] = [];
    for (const [i, address] of addresses.entries()) txids.push(await ltc.send(address, `0.${i + 1}`));
    await ltc.mine(1);
    // Both instances poll again and again while blocks come, and both try to credit directly too.
    for (let round = 0; round < CONFIRMATIONS + 1; round++) {
      await Promise.all([
        watcherOf(a).pollOnce('litecoin'),
        watcherOf(b).pollOnce('litecoin'),
        watcherOf(a).pollOnce('litecoin'),
        watcherOf(b).pollOnce('litecoin'),
      ]);
      await ltc.mine(1);
    }
    await Promise.all([watcherOf(a).pollOnce('litecoin'), watcherOf(b).pollOnce('litecoin')]);
    const chainA = a.app.get(ChainConnections).get('litecoin')!;
    const chainB = b.app.get(ChainConnections).get('litecoin')!;
    const ids = await rows<{ id: string }>(
      a,
      sql`select id from chain_deposits where txid in (${sql.join(
        txids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
    expect(ids).toHaveLength(3);
    const second = await Promise.all(ids.flatMap(({ id }) => [creditsOf(a).credit(chainA, id), creditsOf(b).credit(chainB, id)]));
    expect(second.every((credited) => credited === false)).toBe(true);
    for (const txid of txids) {
      expect(await deposit(a, txid)).toEqual([expect.objectContaining({ state: 'credited' })]);
      expect(await credits(a, txid)).toBe(1);
    }
    const admin = await loginAdmin(a.http);
    expect((await a.http.get('/api/admin/ledger/check').set(bearer(admin.token)).expect(200)).body.ok).toBe(true);
  });
});
