// Sanctions screening and the deposit limit on the regtest litecoind (issue 35): a deposit paid from a sanctioned
// address is flagged and the account frozen when it is mined, then held (not credited) once confirmed; a deposit above
// the level's deposit limit is held and released by the watcher once the level allows it.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonRpcClient } from '../../src/chain-core/json-rpc';
import { DATABASE, type Database } from '../../src/db/database';
import { ChainWatcherService } from '../../src/modules/chain/chain-watcher.service';
import { DATABASE_KINDS } from '../support/databases';
import { RegtestLitecoind, litecoindInstalled } from '../support/litecoind';
import { seedCoins } from '../support/market';
import { bearer, loginAdmin, signUp, startTestApp, type TestApp } from '../support/test-app';
import { expectLedgerClean, supportTokens, type WalletApp } from '../support/wallet';

const TPUB = 'tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M';
const CONFIRMATIONS = 2;

describe.skipIf(!litecoindInstalled)('deposits screened on a regtest litecoind', () => {
  let ltc: RegtestLitecoind;
  beforeAll(async () => {
    // -txindex: the node finds the previous transactions of a deposit's inputs, so it can tell who sent it.
    ltc = await RegtestLitecoind.start({ args: ['-txindex=1'] });
  });
  afterAll(async () => {
    await ltc?.close();
  });

  describe.each(DATABASE_KINDS)('on %s', (kind) => {
    let t: WalletApp;
    let db: Database;
    let watcher: ChainWatcherService;

    beforeAll(async () => {
      const app: TestApp = await startTestApp(kind, {
        CHAIN_LITECOIN_RPC_URL: ltc.rpcUrl,
        CHAIN_LITECOIN_XPUB: TPUB,
        CHAIN_LITECOIN_CHAIN: 'regtest',
        CHAIN_LITECOIN_CONFIRMATIONS: String(CONFIRMATIONS),
        CHAIN_LITECOIN_POLL_SECONDS: '1',
        KYC_LIMITS: 'on',
      });
      await seedCoins(app, { bitcoin: '50000', litecoin: '80' });
      await supportTokens(app, ['bitcoin', 'litecoin']);
      t = Object.assign(app, { admin: (await loginAdmin(app.http)).token });
      db = t.app.get(DATABASE);
      watcher = t.app.get(ChainWatcherService);
      watcher.stop();
    });
    afterAll(async () => {
      await t?.close();
    });

    const rows = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
    const poll = () => watcher.pollOnce('litecoin');
    const depositAddress = async (token: string) => {
      const tokens = (await t.http.get('/api/crypto/get-wallet-tokens').set(bearer(token)).expect(200)).body as Array<{ id: string; address: string | null }>;
      return tokens.find((x) => x.id === 'litecoin')!.address!;
    };
    const deposit = async (txid: string) =>
      (await rows<{ state: string; hold: string | null }>(sql`select state, hold from chain_deposits where txid = ${txid}`))[0];
    const balance = async (userId: string) =>
      (await rows<{ balance: string }>(sql`select balance::text as balance from ledger_accounts where user_id = ${userId} and token = 'litecoin'`))[0]
        ?.balance ?? '0';
    const history = async (token: string, txid: string) =>
      ((await t.http.get('/api/user/get-transaction').set(bearer(token)).expect(200)).body as Array<Record<string, unknown>>).find((x) => x.txHash === txid);

    it('a deposit paid from a sanctioned address: flagged and the account frozen when mined, held once confirmed, admins told', async () => {
      const customer = await signUp(t.http);
      const address = await depositAddress(customer.token);
      // An outside wallet whose only coins sit on the sanctioned address S.
      const name = `outsider-${kind}`;
      await ltc.node.call('createwallet', [name]);
      const outsider = new JsonRpcClient({ rpcUrl: `${ltc.rpcUrl}/wallet/${name}`, rpcUrlForLogs: name, timeoutMs: 60_000 });
      const sanctioned = await outsider.call<string>('getnewaddress', ['', 'bech32']);
      await ltc.send(sanctioned, '3');
      await ltc.mine(1);
      await t.http
        .put('/api/admin/sanctions')
        .set(bearer(t.admin))
        .send({ list: `network,address\nlitecoin,${sanctioned.toUpperCase()}\n` })
        .expect(200);
      await poll(); // the cursor starts at the node's tip

      const txid = await outsider.call<string>('sendtoaddress', [address, '1']);
      await ltc.mine(1);
      await poll();
      expect(await deposit(txid)).toEqual({ state: 'confirming', hold: null });
      const hits = (await t.http.get('/api/admin/sanctions/hits?kind=deposit').set(bearer(t.admin)).expect(200)).body as Array<Record<string, unknown>>;
      expect(hits.filter((h) => h.txid === txid)).toEqual([
        expect.objectContaining({ kind: 'deposit', userId: customer._id, network: 'litecoin', address: sanctioned, token: 'litecoin' }),
      ]);
      expect(await rows(sql`select frozen_by as "frozenBy", reason from account_freezes where user_id = ${customer._id}`)).toEqual([
        { frozenBy: null, reason: expect.stringContaining(`sanctioned address (litecoin ${sanctioned}, transaction ${txid})`) },
      ]);
      // Every admin is told: a notification and a mail.
      const [adminRow] = await rows<{ id: string; email: string }>(sql`select id, email from users where role = 'admin' order by created_at limit 1`);
      expect(
        (
          await rows<{ message: string }>(sql`select message from notifications where user_id = ${adminRow.id} and title = 'Deposit from a sanctioned address'`)
        )[0]?.message,
      ).toContain(txid);
      expect(await rows(sql`select subject from mail_outbox where "to" = ${adminRow.email} and text like ${`%${txid}%`}`)).toEqual([
        { subject: 'ALERT: a deposit from a sanctioned address (Litecoin)' },
      ]);
      // Frozen: nothing leaves the account.
      await t.http
        .post('/api/crypto/send-crypto/litecoin')
        .set(bearer(customer.token))
        .send({ transferData: { address: sanctioned, amount: 1 } })
        .expect(403);

      await ltc.mine(CONFIRMATIONS - 1);
      await poll();
      expect(await deposit(txid)).toEqual({ state: 'held', hold: 'sanctions' });
      expect(await balance(customer._id)).toBe('0');
      expect(await history(customer.token, txid)).toMatchObject({ status: 'pending', hold: 'review', note: 'Held: under review. Please contact support.' });
      // Replays and the release pass: nothing credits it, nothing is recorded twice.
      await ltc.mine(1);
      await poll();
      expect(await deposit(txid)).toEqual({ state: 'held', hold: 'sanctions' });
      expect(await rows(sql`select count(*)::int as n from sanctions_hits where txid = ${txid}`)).toEqual([{ n: 1 }]);
      await expectLedgerClean(t);
    });

    it('a deposit above the level-0 deposit limit is held on the chain, then released by the watcher once a raised level allows it', async () => {
      const customer = await signUp(t.http);
      const address = await depositAddress(customer.token);
      await poll();
      // 13 LTC at 80 USD: 1,040 USD, over level 0's 1,000 a day.
      const txid = await ltc.send(address, '13');
      await ltc.mine(CONFIRMATIONS);
      await poll();
      expect(await deposit(txid)).toEqual({ state: 'held', hold: 'limit' });
      expect(await history(customer.token, txid)).toMatchObject({
        status: 'pending',
        hold: 'limit',
        note: "Held: above your verification level's deposit limit — verify to release.",
      });
      expect(await balance(customer._id)).toBe('0');
      // Screening asked the node, found no sanctioned sender: no hit, no freeze.
      expect(await rows(sql`select 1 from account_freezes where user_id = ${customer._id}`)).toEqual([]);

      await db.execute(sql`update users set verification_level = 1 where id = ${customer._id}`);
      await ltc.mine(1);
      await poll();
      expect(await deposit(txid)).toEqual({ state: 'credited', hold: 'limit' });
      expect(await balance(customer._id)).toMatch(/^13(\.0*)?$/);
      expect(await history(customer.token, txid)).toMatchObject({ status: 'approved' });
      await expectLedgerClean(t);
    });
  });
});
