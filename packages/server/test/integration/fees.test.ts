import { type SQL, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { addAdministrator } from '../../src/modules/admin/add-administrator';
import { CoinsRepository } from '../../src/modules/market/coins.repository';
import { DATABASE_KINDS } from '../support/databases';
import { bearer, uniqueEmail } from '../support/test-app';
import { ADDRESSES, call, expectLedgerClean, fund, holdings, newCustomer, startWalletApp, type WalletApp } from '../support/wallet';

async function rows<T>(t: WalletApp, query: SQL): Promise<T[]> {
  return ((await t.app.get<Database>(DATABASE).execute(query)) as unknown as { rows: T[] }).rows;
}

/** Σ balances of a platform account (all its shards) in a token. */
async function platform(t: WalletApp, code: string, token: string): Promise<string> {
  const [row] = await rows<{ sum: string }>(
    t,
    sql`select coalesce(sum(balance), 0)::text as sum from ledger_accounts where kind = 'platform' and split_part(platform_code, '#', 1) = ${code} and token = ${token}`,
  );
  return Number(row.sum).toString();
}

async function setPrice(t: WalletApp, id: string, symbol: string, name: string, price: string): Promise<void> {
  await t.app.get(CoinsRepository).upsertMany([{ id, symbol, name, image: `${symbol}.png`, currentPrice: price, lastUpdated: new Date(), source: 'live' }]);
}

const SPREAD_AND_FEE = { swapSpreadBps: 50, swapFeeBps: 10, swapFeeMinUsd: '0.5' };
const ZERO = { swapSpreadBps: null, swapFeeBps: null, swapFeeMinUsd: null };

describe.each(DATABASE_KINDS)('fees, quotes, revenue and the house position on %s', (kind) => {
  let t: WalletApp;
  beforeAll(async () => {
    t = await startWalletApp(kind, {}, { listen: kind === 'postgres' });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    if (t) await expectLedgerClean(t);
  });
  const setFees = (token: string, body: object) => t.http.put(`/api/admin/fees/${token}`).set(bearer(t.admin)).send(body);

  it('with a zero schedule a swap without a quote answers as before (fields only added) and posts no revenue', async () => {
    await setFees('*', ZERO).expect(200);
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 200);
    const response = await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 100, from: 'bitcoin', to: 'ethereum' }).expect(201);
    expect(response.body).toMatchObject({
      message: 'Swap successful',
      amount: 100,
      from: { token: 'bitcoin', symbol: 'btc', coinAmount: '0.00200000', price: '50000' },
      to: { token: 'ethereum', symbol: 'eth', coinAmount: '0.040000', price: '2500' },
      transaction: { type: 'swap', status: 'approved', swap: { fromToken: 'bitcoin', toToken: 'ethereum', toCoinAmount: '0.040000' } },
      rate: '20',
      spreadBps: 0,
      fee: { usd: '0', token: 'ethereum', coinAmount: '0.000000' },
    });
    expect(Object.keys(response.body).slice(0, 5)).toEqual(['message', 'amount', 'from', 'to', 'transaction']);
    const [details] = await rows<{ details: Record<string, unknown> }>(t, sql`select details from transactions where id = ${response.body.transaction._id}`);
    expect(Object.keys(details.details).sort()).toEqual(['fromPrice', 'priceSource', 'toCoinAmount', 'toPrice', 'toToken']);
    expect(await rows(t, sql`select 1 from ledger_accounts where platform_code like 'revenue%'`)).toEqual([]);
  });

  it('a quote executes exactly its numbers when the price moves, once; spread and fee land in the revenue accounts', async () => {
    const set = await setFees('*', SPREAD_AND_FEE).expect(200);
    expect(set.body.row).toMatchObject({ token: '*', swapSpreadBps: 50, swapFeeBps: 10, swapFeeMinUsd: '0.5' });
    const [audit] = await rows<{ after: Record<string, unknown> }>(
      t,
      sql`select after from audit_log where action = 'fees.update' order by created_at desc limit 1`,
    );
    expect(audit.after).toMatchObject({ swapSpreadBps: 50, swapFeeBps: 10 });
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 200);
    const spreadBefore = Number(await platform(t, 'revenue_swap_spread', 'ethereum'));
    const feeBefore = Number(await platform(t, 'revenue_swap_fee', 'ethereum'));

    const quote = await t.http.post('/api/crypto/swap-quote').set(bearer(user.token)).send({ amount: 100, from: 'bitcoin', to: 'ethereum' }).expect(201);
    // 100 USD: spread 0.5 %, fee max(0.1 %, 0.50 USD) = 0.50 → the customer gets (100 − 0.5 − 0.5) / 2500 = 0.0396 ETH.
    expect(quote.body).toMatchObject({
      amount: 100,
      from: { token: 'bitcoin', coinAmount: '0.00200000', price: '50000' },
      to: { token: 'ethereum', coinAmount: '0.039600', price: '2500' },
      rate: '19.9',
      spreadBps: 50,
      fee: { usd: '0.5', token: 'ethereum', coinAmount: '0.000200' },
    });
    const expiresIn = Date.parse(quote.body.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(10_000);
    expect(expiresIn).toBeLessThanOrEqual(15_000);

    await setPrice(t, 'ethereum', 'eth', 'Ethereum', '3000');
    try {
      const swap = await t.http
        .post('/api/crypto/swap')
        .set(bearer(user.token))
        .send({ amount: 100, from: 'bitcoin', to: 'ethereum', quoteId: quote.body.quoteId })
        .expect(201);
      expect(swap.body).toMatchObject({ to: { coinAmount: '0.039600', price: '2500' }, rate: '19.9', quoteId: quote.body.quoteId });
      expect(await holdings(t, user.token)).toMatchObject({ bitcoin: '0.00200000', ethereum: '0.039600' });
      expect(Number(await platform(t, 'revenue_swap_spread', 'ethereum')) - spreadBefore).toBeCloseTo(0.0002, 12);
      expect(Number(await platform(t, 'revenue_swap_fee', 'ethereum')) - feeBefore).toBeCloseTo(0.0002, 12);

      const again = await t.http
        .post('/api/crypto/swap')
        .set(bearer(user.token))
        .send({ amount: 100, from: 'bitcoin', to: 'ethereum', quoteId: quote.body.quoteId })
        .expect(409);
      expect(again.body.error).toBe('This quote was already used: ask for a new quote.');
      expect(await holdings(t, user.token)).toMatchObject({ bitcoin: '0.00200000', ethereum: '0.039600' });

      // Without a quote: priced now (3000), the same way.
      const now = await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 50, from: 'bitcoin', to: 'ethereum' }).expect(201);
      // 50 USD: spread 0.25, fee 0.50 → (50 − 0.75) / 3000 = 0.016416…
      expect(now.body).toMatchObject({ to: { coinAmount: '0.016416', price: '3000' }, fee: { usd: '0.5', coinAmount: '0.000166' } });
    } finally {
      await setPrice(t, 'ethereum', 'eth', 'Ethereum', '2500');
    }
  });

  it('an expired quote and another customer’s quote are refused and nothing moves', async () => {
    await setFees('*', SPREAD_AND_FEE).expect(200);
    const [owner, other] = [await newCustomer(t), await newCustomer(t)];
    await fund(t, owner._id, 'bitcoin', 100);
    await fund(t, other._id, 'bitcoin', 100);
    const body = { amount: 40, from: 'bitcoin', to: 'tether' };
    const quote = (await t.http.post('/api/crypto/swap-quote').set(bearer(owner.token)).send(body).expect(201)).body;
    const stolen = await t.http
      .post('/api/crypto/swap')
      .set(bearer(other.token))
      .send({ ...body, quoteId: quote.quoteId })
      .expect(404);
    expect(stolen.body.error).toBe('This quote was not found: ask for a new quote.');
    const notTheQuote = await t.http
      .post('/api/crypto/swap')
      .set(bearer(owner.token))
      .send({ ...body, amount: 41, quoteId: quote.quoteId })
      .expect(400);
    expect(notTheQuote.body.error).toMatch(/^This swap is not the one quoted/);
    await rows(t, sql`update swap_quotes set expires_at = now() - interval '1 second' where id = ${quote.quoteId}`);
    const expired = await t.http
      .post('/api/crypto/swap')
      .set(bearer(owner.token))
      .send({ ...body, quoteId: quote.quoteId })
      .expect(409);
    expect(expired.body.error).toBe('quote expired');
    for (const u of [owner, other]) expect(await holdings(t, u.token)).toMatchObject({ bitcoin: '0.00200000', tether: '0.00' });
    expect(await rows(t, sql`select 1 from transactions where type = 'swap' and user_id in (${owner._id}, ${other._id})`)).toEqual([]);
  });

  it('a withdrawal fee goes to revenue and back to the customer when the withdrawal is rejected; the Revenue screen and CSV show it', async () => {
    await setFees('bitcoin', { withdrawalFee: '0.0001' }).expect(200);
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    const before = Number(await platform(t, 'revenue_withdrawal_fee', 'bitcoin'));
    const sent = await t.http
      .post('/api/crypto/send-crypto/bitcoin')
      .set(bearer(user.token))
      .send({ transferData: { address: ADDRESSES.bitcoin, amount: '50' } })
      .expect(201);
    // 50 USD = 0.001 BTC: 0.0001 is the fee, 0.0009 is held and paid out.
    expect(sent.body.transaction).toMatchObject({ coinAmount: '0.00090000' });
    expect(await holdings(t, user.token)).toMatchObject({ bitcoin: '0.00100000' });
    expect(Number(await platform(t, 'revenue_withdrawal_fee', 'bitcoin')) - before).toBeCloseTo(0.0001, 12);

    const revenue = await t.http.get('/api/admin/revenue').set(bearer(t.admin)).expect(200);
    expect(revenue.body.rows).toEqual(expect.arrayContaining([expect.objectContaining({ token: 'bitcoin', kind: 'withdrawal_fee', symbol: 'btc' })]));
    expect(revenue.body.rows).toEqual(expect.arrayContaining([expect.objectContaining({ token: 'ethereum', kind: 'swap_spread' })]));
    const csv = await t.http.get('/api/admin/revenue/export').set(bearer(t.admin)).expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.text.split('\r\n')[0]).toBe('"day","token","symbol","kind","coinAmount","usd","count"');
    expect(csv.text).toContain('"withdrawal_fee"');

    await t.http.post('/api/admin/modify-transaction').set(bearer(t.admin)).send({ tId: sent.body.transaction._id, modification: 'rejected' }).expect(200);
    expect(await holdings(t, user.token)).toMatchObject({ bitcoin: '0.00200000' });
    expect(Number(await platform(t, 'revenue_withdrawal_fee', 'bitcoin')) - before).toBeCloseTo(0, 12);
    await setFees('bitcoin', { withdrawalFee: null }).expect(200);
  });

  it('the house position: a swap into a token the house does not hold (its configured inventory) is refused with 409, the alert once', async () => {
    await setFees('*', ZERO).expect(200);
    await setFees('tether', { inventory: '0' }).expect(200);
    const start = (await t.http.get('/api/admin/fees').set(bearer(t.admin)).expect(200)).body.rows.find((r: { token: string }) => r.token === 'tether');
    // What customers are owed in tether now, plus 30: the house may sell 30 USDT more.
    const owed = -Number(start.position);
    await setFees('tether', { inventory: String(owed + 30) }).expect(200);
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    const message = 'Swaps into Tether are paused: not enough Tether is available. Please try again later or choose another token.';

    const quote = await t.http.post('/api/crypto/swap-quote').set(bearer(user.token)).send({ amount: 40, from: 'bitcoin', to: 'tether' }).expect(409);
    expect(quote.body.error).toBe(message);
    const swap = await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 40, from: 'bitcoin', to: 'tether' }).expect(409);
    expect(swap.body.error).toBe(message);
    expect(await holdings(t, user.token)).toMatchObject({ bitcoin: '0.00200000', tether: '0.00' });
    await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 25, from: 'bitcoin', to: 'tether' }).expect(201);
    await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 10, from: 'bitcoin', to: 'tether' }).expect(409);

    // Alerted once for three refusals: one audit entry, one notification per admin.
    await expect.poll(async () => (await rows(t, sql`select 1 from audit_log where action = 'house.exposure' and target_id = 'tether'`)).length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await rows(t, sql`select 1 from audit_log where action = 'house.exposure' and target_id = 'tether'`)).toHaveLength(1);
    expect(await rows(t, sql`select 1 from notifications where title = 'House position of tether too low'`)).toHaveLength(1);
    await setFees('tether', { inventory: null }).expect(200);
  });

  it.runIf(kind === 'postgres')('100 concurrent swaps with one quote execute once', async () => {
    await setFees('*', SPREAD_AND_FEE).expect(200);
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 500);
    const body = { amount: 100, from: 'bitcoin', to: 'ethereum' };
    const quote = (await call(t, 'POST', '/api/crypto/swap-quote', user.token, body)).body;
    const results = await Promise.all(Array.from({ length: 100 }, () => call(t, 'POST', '/api/crypto/swap', user.token, { ...body, quoteId: quote.quoteId })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 201 && s !== 409 && s !== 429)).toEqual([]);
    expect(await holdings(t, user.token)).toMatchObject({ bitcoin: '0.00800000', ethereum: '0.039600' });
    expect(await rows(t, sql`select 1 from transactions where type = 'swap' and user_id = ${user._id}`)).toHaveLength(1);
  });
});

describe.each(DATABASE_KINDS)('fee schedule changes by four-eyes on %s', (kind) => {
  let t: WalletApp;
  beforeAll(async () => {
    t = await startWalletApp(kind, { APPROVAL_THRESHOLD_USD: '10000', FEE_SWAP_SPREAD_BPS: '25' });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('defaults come from the configuration; a change waits for a second admin, who applies it audited', async () => {
    const schedule = (await t.http.get('/api/admin/fees').set(bearer(t.admin)).expect(200)).body;
    expect(schedule).toMatchObject({ fourEyes: true, quoteSeconds: 15 });
    expect(schedule.rows[0]).toMatchObject({ token: '*', swapSpreadBps: 25, setAt: null });

    const lonely = await t.http.put('/api/admin/fees/*').set(bearer(t.admin)).send({ swapSpreadBps: 50 }).expect(409);
    expect(lonely.body.error).toMatch(/^No other active administrator can approve this/);
    const email = uniqueEmail('admin');
    await addAdministrator(t.app.get(DATABASE), { name: 'Second', email, password: 'an-admin-password' });
    const second = (await t.http.post('/api/admin/login-admin').send({ email, password: 'an-admin-password' }).expect(200)).body;

    const held = await t.http.put('/api/admin/fees/*').set(bearer(t.admin)).send({ swapSpreadBps: 50 }).expect(202);
    expect(held.body).toMatchObject({ pendingApproval: true });
    expect((await t.http.get('/api/admin/fees').set(bearer(t.admin)).expect(200)).body.rows[0].swapSpreadBps).toBe(25);
    await t.http.post(`/api/admin/approvals/${held.body.approvalId}/approve`).set(bearer(t.admin)).expect(403);
    await t.http.post(`/api/admin/approvals/${held.body.approvalId}/approve`).set(bearer(second.token)).expect(200);
    const after = (await t.http.get('/api/admin/fees').set(bearer(t.admin)).expect(200)).body.rows[0];
    expect(after.swapSpreadBps).toBe(50);
    expect(after.setAt).not.toBeNull();
    const [audit] = await rows<{ before: Record<string, unknown>; after: Record<string, unknown> }>(
      t,
      sql`select before, after from audit_log where action = 'fees.update' order by created_at desc limit 1`,
    );
    expect(audit.before).toMatchObject({ swapSpreadBps: 25 });
    expect(audit.after).toMatchObject({ swapSpreadBps: 50 });

    await t.http.put('/api/admin/fees/bitcoin').set(bearer(t.admin)).send({ swapFeeBps: 10 }).expect(400);
    await t.http.put('/api/admin/fees/*').set(bearer(t.admin)).send({ inventory: '1' }).expect(400);
    await t.http.put('/api/admin/fees/*').set(bearer(t.admin)).send({ swapSpreadBps: 5000 }).expect(400);
    await t.http.put('/api/admin/fees/nope').set(bearer(t.admin)).send({ swapSpreadBps: 1 }).expect(400);
  });
});
