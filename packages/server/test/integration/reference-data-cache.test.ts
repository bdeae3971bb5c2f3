import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { MarketRefreshService } from '../../src/modules/market/market-refresh.service';
import { PriceService } from '../../src/modules/market/price.service';
import { TokenNetworksRepository } from '../../src/modules/networks/token-networks.repository';
import { ReferenceDataCache } from '../../src/modules/reference-data/reference-data.cache';
import { WalletTokensRepository } from '../../src/modules/wallet/wallet-tokens.repository';
import { DATABASE_KINDS } from '../support/databases';
import { countQueries } from '../support/query-counter';
import { bearer, startTestApp, type TestApp } from '../support/test-app';
import { ADDRESSES, fund, holdings, newCustomer, startWalletApp, type WalletApp } from '../support/wallet';
import { providerCoin, startFakeCoinGecko, type FakeCoinGecko } from './market-support/fake-coingecko';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const ETH_ADDRESS_2 = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';

/** Statements that read the cached tables (the money statement's FOR SHARE re-check of token liveness is not one). */
const readsReferenceData = (statement: string) =>
  /from "coins"|from "supported_tokens"|from "token_networks"|join "coins"/.test(statement) && !/for share/i.test(statement);

const cacheOf = (t: TestApp) => t.app.get(ReferenceDataCache);
/** Another instance's change has arrived once its cache was dropped (by NOTIFY: these tests make its TTL an hour). */
const nextInvalidation = async (t: TestApp, before: number) => expect.poll(() => cacheOf(t).invalidations, { timeout: 10_000 }).toBeGreaterThan(before);

async function addCustomToken(t: WalletApp, coinId: string, price: string): Promise<string> {
  let request = t.http.post('/api/crypto/custom-token/').set(bearer(t.admin));
  const fields = { coinId, symbol: coinId.slice(0, 4).toUpperCase(), name: `${coinId} token`, current_price: price, coinAddress: ADDRESSES.ethereum };
  for (const [key, value] of Object.entries(fields)) request = request.field(key, value);
  const response = await request.attach('image', PNG, { filename: 'x.png', contentType: 'image/png' });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.token._id as string;
}

describe.each(DATABASE_KINDS)('reference data served from memory on %s', (kind) => {
  let t: WalletApp;
  beforeAll(async () => {
    t = await startWalletApp(kind);
    cacheOf(t).ttlMs = 3_600_000;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('answers token, network and price lookups without a query once warm', async () => {
    const prices = t.app.get(PriceService);
    const tokens = t.app.get(WalletTokensRepository, { strict: false });
    const networks = t.app.get(TokenNetworksRepository);
    await prices.quote('bitcoin');

    const counter = countQueries(t);
    const quote = await prices.quote('bitcoin');
    const many = await prices.quoteMany(['bitcoin', 'ethereum', 'no-such-coin']);
    const token = await tokens.findSupported('ethereum');
    const pair = await tokens.findSupportedMany(['bitcoin', 'tether', 'dogecoin']);
    const listed = await tokens.listSupported();
    const coins = await tokens.coinsByIds(['tether']);
    const tetherNetworks = await networks.listForCoin('tether');
    await expect(prices.quote('no-such-coin')).rejects.toThrow('Unknown token "no-such-coin".');
    expect(counter.statements).toEqual([]);

    expect(quote).toMatchObject({ coinId: 'bitcoin', symbol: 'btc', source: 'live' });
    expect(quote.price.toString()).toBe('50000');
    expect([...many.keys()]).toEqual(['bitcoin', 'ethereum']);
    expect(token).toMatchObject({ id: 'ethereum', symbol: 'eth' });
    expect(Number(token?.currentPrice)).toBe(2500);
    expect([...pair.keys()].sort()).toEqual(['bitcoin', 'tether']);
    expect(listed.map((x) => x.id)).toEqual(['bitcoin', 'ethereum', 'tether']);
    expect(coins.get('tether')).toMatchObject({ id: 'tether', symbol: 'usdt', name: 'Tether' });
    expect(Number(coins.get('tether')?.currentPrice)).toBe(1);
    expect(tetherNetworks.map((row) => row.network)).toEqual(['ethereum', 'tron']);
  });

  it('a swap reads no token or price row', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 1000);
    await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 10, from: 'bitcoin', to: 'ethereum' }).expect(201);
    const counter = countQueries(t);
    await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 10, from: 'bitcoin', to: 'ethereum' }).expect(201);
    expect(counter.statements.filter(readsReferenceData)).toEqual([]);
  });

  it('sees a change written behind its back once the table trigger’s NOTIFY arrives', async () => {
    const before = cacheOf(t).invalidations;
    await t.app.get<Database>(DATABASE).execute(sql`update coins set current_price = '51000' where id = 'bitcoin'`);
    await nextInvalidation(t, before);
    expect((await t.app.get(PriceService).quote('bitcoin')).price.toString()).toBe('51000');
    await t.app.get<Database>(DATABASE).execute(sql`update coins set current_price = '50000' where id = 'bitcoin'`);
  });

  it('uses a custom token’s new manual price at once, and refuses it once deleted', async () => {
    const id = await addCustomToken(t, `cache-coin-${kind}`, '2');
    const coinId = `cache-coin-${kind}`;
    const user = await newCustomer(t);
    await fund(t, user._id, 'tether', 100);
    const first = await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 10, from: 'tether', to: coinId }).expect(201);
    expect(first.body.to).toMatchObject({ token: coinId, price: '2' });

    await t.http
      .put('/api/admin/edit-custom-token/')
      .set(bearer(t.admin))
      .send({ token: `${coinId} token`, address: ADDRESSES.ethereum, tokenId: id, current_price: '4' })
      .expect(200);
    const second = await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 10, from: 'tether', to: coinId }).expect(201);
    expect(second.body.to).toMatchObject({ token: coinId, price: '4' });

    // Sold back, then deleted: no longer priced or supported.
    await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 30, from: coinId, to: 'tether' }).expect(201);
    expect((await holdings(t, user.token))[coinId] ?? '0').toMatch(/^0(\.0+)?$/);
    await t.http.delete(`/api/admin/delete-custom-token/${id}/${coinId}`).set(bearer(t.admin)).expect(200);
    await expect(t.app.get(PriceService).quote(coinId)).rejects.toThrow(`Unknown token "${coinId}".`);
    const refused = await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 10, from: 'tether', to: coinId }).expect(400);
    expect(refused.body.error).toBe(`"${coinId}" is not a supported token.`);
  });
});

describe.runIf(DATABASE_KINDS.includes('postgres'))('reference data on two instances of one PostgreSQL database', () => {
  let a: WalletApp;
  let b: TestApp;
  let fake: FakeCoinGecko;
  let bitcoinPrice = 64000;

  beforeAll(async () => {
    fake = await startFakeCoinGecko(() => ({
      status: 200,
      body: [providerCoin('bitcoin', 'btc', bitcoinPrice, 1), providerCoin('ethereum', 'eth', 2500, 2), providerCoin('tether', 'usdt', 1, 3)],
    }));
    a = await startWalletApp('postgres', { COINGECKO_BASE_URL: fake.url });
    b = await startTestApp('postgres', { COINGECKO_BASE_URL: fake.url }, { shareDatabaseWith: a });
    // Only a notification can refresh these copies within the tests.
    cacheOf(a).ttlMs = 3_600_000;
    cacheOf(b).ttlMs = 3_600_000;
  }, 180_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await fake?.close();
  });

  it('a price refresh on one instance is the next quote on the other', async () => {
    expect((await a.app.get(MarketRefreshService).refresh({ force: true })).status).toBe('refreshed');
    expect((await b.app.get(PriceService).quote('bitcoin')).price.toString()).toBe('64000');

    bitcoinPrice = 65000.5;
    const before = cacheOf(b).invalidations;
    expect((await a.app.get(MarketRefreshService).refresh({ force: true })).status).toBe('refreshed');
    await nextInvalidation(b, before);
    const counter = countQueries(b);
    expect((await b.app.get(PriceService).quote('bitcoin')).price.toString()).toBe('65000.5');
    expect(counter.statements.filter(readsReferenceData).length).toBeGreaterThan(0);
    counter.reset();
    expect((await b.app.get(PriceService).quote('bitcoin')).price.toString()).toBe('65000.5');
    expect(counter.statements).toEqual([]);
  });

  it('an admin’s token edit and delete on one instance reach the other: new address, then swap refused', async () => {
    const user = await newCustomer(a);
    await fund(a, user._id, 'bitcoin', 1000);
    const networksB = b.app.get(TokenNetworksRepository);
    expect((await networksB.listForCoin('ethereum')).map((row) => row.address)).toEqual([null]);
    await b.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 10, from: 'bitcoin', to: 'tether' }).expect(201);

    const list = (await a.http.get('/api/admin/get-tokens').set(bearer(a.admin)).expect(200)).body as Array<{ _id: string; name: string }>;
    const ethereum = list.find((x) => x.name === 'ethereum')!;
    let before = cacheOf(b).invalidations;
    await a.http
      .put('/api/admin/edit-token/')
      .set(bearer(a.admin))
      .send({ token: 'ethereum', address: ETH_ADDRESS_2, tokenId: ethereum._id, oldToken: 'ethereum' })
      .expect(200);
    await nextInvalidation(b, before);
    expect((await networksB.listForCoin('ethereum')).map((row) => row.address)).toEqual([ETH_ADDRESS_2]);

    before = cacheOf(b).invalidations;
    await a.http.delete(`/api/admin/delete-token/${ethereum._id}/ethereum`).set(bearer(a.admin)).expect(200);
    // At once, whether or not the notification has arrived yet: the money statement re-checks the token in SQL.
    await b.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 10, from: 'bitcoin', to: 'ethereum' }).expect(400);
    await nextInvalidation(b, before);
    const refused = await b.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 10, from: 'bitcoin', to: 'ethereum' }).expect(400);
    expect(refused.body.error).toBe('"ethereum" is not a supported token.');
    expect(await b.app.get(WalletTokensRepository, { strict: false }).findSupported('ethereum')).toBeUndefined();
    expect(await networksB.listForCoin('ethereum')).toEqual([]);
    expect(await holdings(a, user.token)).not.toHaveProperty('ethereum');
  });

  it('drops its copy when its LISTEN connection comes back', async () => {
    const cache = cacheOf(b);
    await cache.get();
    const before = cache.invalidations;
    const db = a.app.get<Database>(DATABASE);
    // End B's listening session the way a restart or failover would.
    await db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and query ilike 'listen %'`,
    );
    await nextInvalidation(b, before);
  });
});
