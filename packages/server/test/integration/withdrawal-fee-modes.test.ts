import { type SQL, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { DATABASE, type Database } from '../../src/db/database';
import { moneyRefusalOf } from '../../src/modules/ledger/money-errors';
import { SEND } from '../../src/modules/wallet/wallet-functions';
import { PRICE_CHANGE_GRACE_MS } from '../../src/modules/wallet/wallet-tokens.repository';
import { addAdministrator } from '../../src/modules/admin/add-administrator';
import { DATABASE_KINDS } from '../support/databases';
import { bearer, uniqueEmail } from '../support/test-app';
import { ADDRESSES, expectLedgerClean, fund, holdings, newCustomer, PRICES, startWalletApp, type WalletApp } from '../support/wallet';

async function rows<T>(t: WalletApp, query: SQL): Promise<T[]> {
  return ((await t.app.get<Database>(DATABASE).execute(query)) as unknown as { rows: T[] }).rows;
}

async function revenue(t: WalletApp, token: string): Promise<number> {
  const [row] = await rows<{ sum: string }>(
    t,
    sql`select coalesce(sum(balance), 0)::text as sum from ledger_accounts where kind = 'platform' and split_part(platform_code, '#', 1) = 'revenue_withdrawal_fee' and token = ${token}`,
  );
  return Number(row.sum);
}

/**
 * Issue 34: the withdrawal fee per token and network, with its mode (drizzle/0062_withdrawal_fee_modes.sql). `network`:
 * the network fee passed through plus the fee (what a token's withdrawalFee always was); `fixed`: the customer pays
 * the fee only and the withdrawal says so (details.withdrawalFeeMode), so its payout's network fee is the platform's
 * (the payout itself: chain-payouts-litecoin.test.ts). A schedule without entries sends exactly as before.
 */
describe.each(DATABASE_KINDS)('withdrawal fees per network and mode on %s', (kind) => {
  let t: WalletApp;
  beforeAll(async () => {
    t = await startWalletApp(kind);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    if (t) await expectLedgerClean(t);
  });
  const setFees = (body: object) => t.http.put('/api/admin/fees/bitcoin').set(bearer(t.admin)).send(body);
  const send = (token: string, usd: string) =>
    t.http
      .post('/api/crypto/send-crypto/bitcoin')
      .set(bearer(token))
      .send({ transferData: { address: ADDRESSES.bitcoin, amount: usd } })
      .expect(201);
  const detailsOf = async (id: string) =>
    (await rows<{ details: Record<string, unknown> }>(t, sql`select details from transactions where id = ${id}`))[0].details;

  it('without entries a send is as before; the Fees row lists every network of the token, not set', async () => {
    const row = (await t.http.get('/api/admin/fees').set(bearer(t.admin)).expect(200)).body.rows.find((r: { token: string }) => r.token === 'bitcoin');
    expect(row.withdrawalNetworks).toEqual([{ network: 'bitcoin', name: 'Bitcoin', mode: null, fee: null }]);
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    const sent = await send(user.token, '50');
    expect(sent.body.transaction).toMatchObject({ coinAmount: '0.00100000' });
    expect(Object.keys(await detailsOf(sent.body.transaction._id)).sort()).toEqual(['priceSource']);
    expect(await rows(t, sql`select mode, trim_scale(fee)::text as fee from cp_withdrawal_terms('bitcoin', 'bitcoin')`)).toEqual([
      { mode: 'network', fee: '0' },
    ]);
  });

  it('fixed on a network: the customer pays the fee only, the withdrawal says the platform pays the network fee; the confirm step says so', async () => {
    await setFees({ withdrawalFee: '0.0001', withdrawalNetworks: [{ network: 'bitcoin', mode: 'fixed', fee: '0.0002' }] }).expect(200);
    const row = (await t.http.get('/api/admin/fees').set(bearer(t.admin)).expect(200)).body.rows.find((r: { token: string }) => r.token === 'bitcoin');
    expect(row).toMatchObject({ withdrawalFee: '0.0001', withdrawalNetworks: [{ network: 'bitcoin', name: 'Bitcoin', mode: 'fixed', fee: '0.0002' }] });
    const [audit] = await rows<{ after: Record<string, unknown> }>(
      t,
      sql`select after from audit_log where action = 'fees.update' order by created_at desc limit 1`,
    );
    expect(audit.after).toMatchObject({ withdrawalFee: '0.000100000000000000', withdrawalNetworks: { bitcoin: { mode: 'fixed', fee: '0.0002' } } });

    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    const fee = (await t.http.get('/api/crypto/network-fee/bitcoin').query({ coinAmount: '0.001' }).set(bearer(user.token)).expect(200)).body;
    expect(fee).toMatchObject({ withdrawalFee: '0.0002', feePaidBy: 'platform', estimatedFee: '0', recipientGets: '0.0008' });
    const before = await revenue(t, 'bitcoin');
    const sent = await send(user.token, '50');
    // 50 USD = 0.001 BTC: 0.0002 is the fee, 0.0008 is held and paid out whole.
    expect(sent.body.transaction).toMatchObject({ coinAmount: '0.00080000' });
    expect(await detailsOf(sent.body.transaction._id)).toMatchObject({ withdrawalFee: '0.0002', withdrawalFeeMode: 'fixed' });
    expect(await holdings(t, user.token)).toMatchObject({ bitcoin: '0.00100000' });
    expect((await revenue(t, 'bitcoin')) - before).toBeCloseTo(0.0002, 12);
    // Rejected: the fee goes back with the amount, as in the network mode.
    await t.http.post('/api/admin/modify-transaction').set(bearer(t.admin)).send({ tId: sent.body.transaction._id, modification: 'rejected' }).expect(200);
    expect(await holdings(t, user.token)).toMatchObject({ bitcoin: '0.00200000' });
    expect((await revenue(t, 'bitcoin')) - before).toBeCloseTo(0, 12);
  });

  it('network on a network: its own margin, the network fee passed through; cleared: the token fee again', async () => {
    await setFees({ withdrawalNetworks: [{ network: 'bitcoin', mode: 'network', fee: '0.0003' }] }).expect(200);
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    const sent = await send(user.token, '50');
    expect(sent.body.transaction).toMatchObject({ coinAmount: '0.00070000' });
    const details = await detailsOf(sent.body.transaction._id);
    expect(details).toMatchObject({ withdrawalFee: '0.0003' });
    expect(details).not.toHaveProperty('withdrawalFeeMode');

    await setFees({ withdrawalNetworks: null }).expect(200);
    expect(await rows(t, sql`select mode, trim_scale(fee)::text as fee from cp_withdrawal_terms('bitcoin', 'bitcoin')`)).toEqual([
      { mode: 'network', fee: '0.0001' },
    ]);
    const again = await send(user.token, '50');
    expect(again.body.transaction).toMatchObject({ coinAmount: '0.00090000' });
    await setFees({ withdrawalFee: null }).expect(200);
  });

  it('refuses a network the token is not on, a mode it does not know and a fee that is not an amount (400, nothing changes)', async () => {
    const bad = await setFees({ withdrawalNetworks: [{ network: 'ethereum', mode: 'fixed', fee: '1' }] }).expect(400);
    expect(bad.body.error).toBe('"ethereum" is not a network of Bitcoin (bitcoin).');
    await setFees({ withdrawalNetworks: [{ network: 'bitcoin', mode: 'free', fee: '1' }] }).expect(400);
    await setFees({ withdrawalNetworks: [{ network: 'bitcoin', mode: 'fixed', fee: '-1' }] }).expect(400);
    await setFees({ withdrawalNetworks: 'bitcoin' }).expect(400);
    await t.http
      .put('/api/admin/fees/*')
      .set(bearer(t.admin))
      .send({ withdrawalNetworks: [{ network: 'bitcoin', mode: 'fixed', fee: '1' }] })
      .expect(400);
    const row = (await t.http.get('/api/admin/fees').set(bearer(t.admin)).expect(200)).body.rows.find((r: { token: string }) => r.token === 'bitcoin');
    expect(row.withdrawalNetworks).toEqual([{ network: 'bitcoin', name: 'Bitcoin', mode: null, fee: null }]);
  });

  it('a send whose copy of the schedule is stale is written under the schedule in the database (cp_send: CPF01, read again)', async () => {
    await setFees({ withdrawalFee: null, withdrawalNetworks: [{ network: 'bitcoin', mode: 'fixed', fee: '0' }] }).expect(200);
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    // The send reads the schedule (fixed) from the reference data; the database's says network now: refused with
    // CPF01, read again and sent under the schedule now (no mode on the withdrawal).
    await t.app.get<Database>(DATABASE).execute(sql`update fee_schedule set withdrawal_networks = null where token = 'bitcoin'`);
    const sent = await send(user.token, '50');
    expect(await detailsOf(sent.body.transaction._id)).not.toHaveProperty('withdrawalFeeMode');
    expect(sent.body.transaction).toMatchObject({ coinAmount: '0.00100000' });
  });

  it("cp_send itself refuses a fee or a mode that is not the schedule's (CPF01) and writes nothing", async () => {
    await setFees({ withdrawalFee: null, withdrawalNetworks: [{ network: 'bitcoin', mode: 'fixed', fee: '0.0001' }] }).expect(200);
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    const db = t.app.get<Database>(DATABASE);
    // cp_send's values as SendsService gives them (wallet-functions.ts), with the fee and the details' mode chosen here.
    const sendWith = (fee: string, details: Record<string, unknown>) =>
      SEND.call(db, [
        randomUUID(),
        user._id,
        'bitcoin',
        'bitcoin',
        ADDRESSES.bitcoin,
        null,
        '0.001',
        '50',
        PRICES.bitcoin,
        details,
        new Date(),
        true,
        PRICE_CHANGE_GRACE_MS,
        1,
        null,
        null,
        fee,
      ]).then(
        () => 'sent',
        (error: unknown) => moneyRefusalOf(error)?.code ?? String(error),
      );
    const withdrawals = async () =>
      (await rows<{ n: number }>(t, sql`select count(*)::int as n from transactions where user_id = ${user._id} and type = 'withdrawal'`))[0].n;

    expect(await sendWith('0', { withdrawalFeeMode: 'fixed' })).toBe('CPF01'); // the fee is not the schedule's
    expect(await sendWith('0.0001', {})).toBe('CPF01'); // the mode is not ('network' when the details name none)
    expect(await sendWith('0.0001', { withdrawalFeeMode: 'network' })).toBe('CPF01');
    expect(await withdrawals()).toBe(0);
    expect((await holdings(t, user.token)).bitcoin).toBe('0.00200000');

    expect(await sendWith('0.0001', { withdrawalFeeMode: 'fixed' })).toBe('sent');
    expect(await withdrawals()).toBe(1);
    expect((await holdings(t, user.token)).bitcoin).toBe('0.00100000');
    await t.app.get<Database>(DATABASE).execute(sql`update fee_schedule set withdrawal_networks = null where token = 'bitcoin'`);
  });
});

describe.each(DATABASE_KINDS)('a per-network withdrawal fee change by four-eyes on %s', (kind) => {
  let t: WalletApp;
  beforeAll(async () => {
    t = await startWalletApp(kind, { APPROVAL_THRESHOLD_USD: '10000' });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('waits for a second administrator, who applies it audited', async () => {
    const email = uniqueEmail('admin');
    await addAdministrator(t.app.get(DATABASE), { name: 'Second', email, password: 'an-admin-password' });
    const second = (await t.http.post('/api/admin/login-admin').send({ email, password: 'an-admin-password' }).expect(200)).body;
    const change = { withdrawalNetworks: [{ network: 'bitcoin', mode: 'fixed', fee: '0.0002' }] };
    const held = await t.http.put('/api/admin/fees/bitcoin').set(bearer(t.admin)).send(change).expect(202);
    const [approval] = await rows<{ summary: string }>(t, sql`select summary from admin_approvals where id = ${held.body.approvalId}`);
    expect(approval.summary).toBe('Change the fee schedule of Bitcoin: withdrawalNetworks → bitcoin fixed 0.0002');
    const bitcoin = async () =>
      (await t.http.get('/api/admin/fees').set(bearer(t.admin)).expect(200)).body.rows.find((r: { token: string }) => r.token === 'bitcoin');
    expect((await bitcoin()).withdrawalNetworks[0].mode).toBeNull();
    await t.http.post(`/api/admin/approvals/${held.body.approvalId}/approve`).set(bearer(second.token)).expect(200);
    expect((await bitcoin()).withdrawalNetworks).toEqual([{ network: 'bitcoin', name: 'Bitcoin', mode: 'fixed', fee: '0.0002' }]);
    const [audit] = await rows<{ after: Record<string, unknown> }>(
      t,
      sql`select after from audit_log where action = 'fees.update' order by created_at desc limit 1`,
    );
    expect(audit.after).toMatchObject({ withdrawalNetworks: { bitcoin: { mode: 'fixed', fee: '0.0002' } } });
  });
});
