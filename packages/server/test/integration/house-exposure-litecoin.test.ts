import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { ReservesService } from '../../src/modules/reserves/reserves.service';
import { TPUB } from '../support/chain-e2e';
import { DATABASE_KINDS } from '../support/databases';
import { RegtestLitecoind, litecoindInstalled } from '../support/litecoind';
import { seedCoins } from '../support/market';
import { bearer, loginAdmin, signUp, startTestApp, type TestApp } from '../support/test-app';
import { supportTokens } from '../support/wallet';

/**
 * The house position against a real node (issue 34): what the operator holds of Litecoin is what the reserves check
 * reads on a regtest litecoind — the customers' deposit addresses and a cold address — and a swap that would sell more
 * LTC than that is refused with nothing moved, the operator alerted once; coins moved to the cold address let swaps
 * into Litecoin go on, up to them.
 */
describe.skipIf(!litecoindInstalled).each(DATABASE_KINDS)('the house position on a regtest litecoind on %s', (kind) => {
  let ltc: RegtestLitecoind;
  let t: TestApp;
  let db: Database;
  let admin = '';
  let cold = '';
  const paused = 'Swaps into Litecoin are paused: not enough Litecoin is available. Please try again later or choose another token.';

  beforeAll(async () => {
    ltc = await RegtestLitecoind.start();
    cold = await ltc.newAddress();
    t = await startTestApp(kind, {
      CHAIN_LITECOIN_RPC_URL: ltc.rpcUrl,
      CHAIN_LITECOIN_XPUB: TPUB,
      CHAIN_LITECOIN_CHAIN: 'regtest',
      CHAIN_LITECOIN_CONFIRMATIONS: '1',
      CHAIN_LITECOIN_POLL_SECONDS: '1',
      CHAIN_LITECOIN_COLD_ADDRESSES: cold,
    });
    await seedCoins(t, { bitcoin: '50000', litecoin: '80' });
    await supportTokens(t, ['bitcoin', 'litecoin']);
    admin = (await loginAdmin(t.http)).token;
    db = t.app.get(DATABASE);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await ltc?.close();
  });

  const rows = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const holdingsOf = async (token: string) =>
    Object.fromEntries(
      ((await t.http.get('/api/user/get-user-balance').set(bearer(token)).expect(200)).body.balances as Array<{ token: string; coinAmountExact: string }>).map(
        (row) => [row.token, row.coinAmountExact],
      ),
    );
  const swap = (token: string, amount: number) => t.http.post('/api/crypto/swap').set(bearer(token)).send({ amount, from: 'bitcoin', to: 'litecoin' });

  it('a swap selling more LTC than the deposit and cold addresses hold is refused, nothing moved, the alert once; cold coins let it through', async () => {
    // A customer deposits 1 LTC on the chain: the house holds 1 LTC and owes 1 LTC, a position of 0.
    const depositor = await signUp(t.http);
    const tokens = (await t.http.get('/api/crypto/get-wallet-tokens').set(bearer(depositor.token)).expect(200)).body as Array<{ id: string; address: string }>;
    await ltc.send(tokens.find((row) => row.id === 'litecoin')!.address, '1');
    await ltc.mine(1);
    await expect.poll(async () => (await holdingsOf(depositor.token)).litecoin, { timeout: 30_000 }).toBe('1');
    const reserves = t.app.get(ReservesService);
    await reserves.check();
    expect((await rows<{ on_chain: string }>(sql`select on_chain::text from house_holdings where token = 'litecoin'`))[0].on_chain).toMatch(/^1(\.0+)?$/);

    // Another customer, with 100 USD of BTC, swaps into LTC: the house would sell coins it does not hold.
    const buyer = await signUp(t.http);
    await t.http.post(`/api/crypto/deposit/${buyer._id}`).set(bearer(admin)).send({ amount: 100, status: 'approved', network: 'bitcoin' }).expect(201);
    const before = await holdingsOf(buyer.token);
    const quote = await t.http.post('/api/crypto/swap-quote').set(bearer(buyer.token)).send({ amount: 8, from: 'bitcoin', to: 'litecoin' }).expect(409);
    expect(quote.body.error).toBe(paused);
    expect((await swap(buyer.token, 8).expect(409)).body.error).toBe(paused);
    await swap(buyer.token, 1).expect(409);
    expect(await holdingsOf(buyer.token)).toEqual(before);
    expect(await rows(sql`select 1 from transactions where type = 'swap' and user_id = ${buyer._id}`)).toHaveLength(0);
    // Alerted once for three refusals.
    await expect.poll(async () => (await rows(sql`select 1 from audit_log where action = 'house.exposure' and target_id = 'litecoin'`)).length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await rows(sql`select 1 from audit_log where action = 'house.exposure' and target_id = 'litecoin'`)).toHaveLength(1);

    // The operator puts 0.5 LTC in the cold wallet: read at the next check, the house may sell up to 0.5 LTC (40 USD).
    await ltc.send(cold, '0.5');
    await ltc.mine(1);
    await reserves.check();
    expect((await rows<{ on_chain: string }>(sql`select on_chain::text from house_holdings where token = 'litecoin'`))[0].on_chain).toMatch(/^1\.50*$/);
    await swap(buyer.token, 24).expect(201);
    expect((await holdingsOf(buyer.token)).litecoin).toBe('0.3');
    // 0.2 LTC left to sell: 24 USD (0.3 LTC) more is refused, 16 USD (0.2 LTC) is not.
    expect((await swap(buyer.token, 24).expect(409)).body.error).toBe(paused);
    await swap(buyer.token, 16).expect(201);
    expect((await holdingsOf(buyer.token)).litecoin).toBe('0.5');
    await swap(buyer.token, 1).expect(409);

    // The books: every entry balanced, and customers are owed exactly what the chain holds.
    expect((await t.http.get('/api/admin/ledger/check').set(bearer(admin)).expect(200)).body).toMatchObject({ ok: true });
    const [owed] = await rows<{ sum: string }>(sql`select sum(balance)::text as sum from ledger_accounts where kind = 'customer' and token = 'litecoin'`);
    expect(Number(owed.sum)).toBe(1.5);
  });
});
