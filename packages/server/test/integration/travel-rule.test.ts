import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases';
import { bearer } from '../support/test-app';
import { ADDRESSES, expectLedgerClean, fund, newCustomer, startWalletApp, type WalletApp } from '../support/wallet';

/**
 * Travel-rule details (issue 35): a send at or above TRAVEL_RULE_THRESHOLD_USD (1,000 here, tether at 1 USD) needs
 * whose wallet it is, the beneficiary's name for someone else's, the exchange's name for an exchange; kept with the
 * withdrawal, shown to admins and in the transactions CSV; below the threshold none are asked.
 */
describe.each(DATABASE_KINDS)('travel rule on %s', (kind) => {
  let t: WalletApp;

  beforeAll(async () => {
    t = await startWalletApp(kind, { TRAVEL_RULE_THRESHOLD_USD: '1000' });
  }, 180_000);
  afterAll(async () => {
    if (t) await expectLedgerClean(t);
    await t?.close();
  });

  const send = (token: string, usd: string, travelRule?: object) =>
    t.http
      .post('/api/crypto/send-crypto/tether')
      .set(bearer(token))
      .send({ transferData: { address: ADDRESSES.ethereum, amount: usd }, ...(travelRule ? { travelRule } : {}) });

  it('asks for the details at the threshold, not just under it, and says which is missing', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'tether', 5000);
    expect((await t.http.get('/api/user/addresses').set(bearer(user.token)).expect(200)).body.travelRuleThresholdUsd).toBe(1000);

    await send(user.token, '999.99').expect(201);
    expect((await send(user.token, '1000').expect(400)).body.error).toMatch(/^A send of 1000 USD or more needs to say who it goes to/);
    const missing: Array<[object, RegExp]> = [
      [{ wallet: 'self-hosted' }, /whose wallet/],
      [{ recipient: 'other', wallet: 'self-hosted' }, /beneficiary's full name/],
      [{ recipient: 'other', beneficiaryName: '  ', wallet: 'self-hosted' }, /beneficiary's full name/],
      [{ recipient: 'own', wallet: 'exchange' }, /exchange's name/],
      [{ recipient: 'own' }, /self-hosted wallet or at an exchange/],
      [{ recipient: 'other', wallet: 'self-hosted', beneficiaryName: 'x'.repeat(141) }, /at most 140/],
    ];
    for (const [body, message] of missing) expect((await send(user.token, '1000', body).expect(400)).body.error).toMatch(message);
    expect((await send(user.token, '1000', 'yes' as unknown as object).expect(400)).body.error).toMatch(/Say who this send goes to/);

    const own = await send(user.token, '1000', { recipient: 'own', wallet: 'exchange', exchangeName: 'Kraken' }).expect(201);
    const other = await send(user.token, '2500', { recipient: 'other', beneficiaryName: 'Ada Lovelace', wallet: 'self-hosted' }).expect(201);
    // The customer's own view is unchanged; the back office sees the details.
    expect(own.body.transaction.travelRule).toBeUndefined();
    const listed = (await t.http.get(`/api/admin/transaction?userId=${user._id}&type=withdrawal`).set(bearer(t.admin)).expect(200)).body;
    const byId = new Map(listed.map((row: { _id: string }) => [row._id, row]));
    expect(byId.get(own.body.transaction._id)).toMatchObject({ travelRule: { recipient: 'own', wallet: 'exchange', exchangeName: 'Kraken' } });
    expect(byId.get(other.body.transaction._id)).toMatchObject({ travelRule: { recipient: 'other', beneficiaryName: 'Ada Lovelace', wallet: 'self-hosted' } });

    const csv = await t.http
      .get(`/api/admin/export/transactions?search=${encodeURIComponent(user.email)}`)
      .set(bearer(t.admin))
      .buffer(true)
      .expect(200);
    const lines = csv.text.split('\r\n');
    expect(lines[0]).toMatch(/,"Recipient wallet","Beneficiary name","Wallet type","Exchange name"$/);
    expect(lines.find((line) => line.includes(other.body.transaction._id))).toMatch(/,"other","Ada Lovelace","self-hosted",("")?$/);
    expect(lines.find((line) => line.includes(own.body.transaction._id))).toMatch(/,"own",("")?,"exchange","Kraken"$/);
  });
});
