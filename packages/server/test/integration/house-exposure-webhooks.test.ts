import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HouseExposureService } from '../../src/modules/fees/house-exposure.service';
import { DATABASE_KINDS } from '../support/databases';
import { bearer } from '../support/test-app';
import { fund, newCustomer, startWalletApp, type WalletApp } from '../support/wallet';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * Issue 34: the house exposure alert reaches administrators' webhooks — house.exposure when it opens (a swap into a
 * token the house does not hold enough of was refused), house.recovered when the position is back — once each, signed,
 * to a real receiver on loopback (drizzle/0062_withdrawal_fee_modes.sql: a trigger on house_exposure_alerts).
 */
describe.each(DATABASE_KINDS)('house exposure webhooks on %s', (kind) => {
  let t: WalletApp;
  let hook: WebhookReceiver;
  beforeAll(async () => {
    t = await startWalletApp(kind, { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    hook = await WebhookReceiver.start();
  }, 120_000);
  afterAll(async () => {
    await hook?.close();
    await t?.close();
  });
  const setFees = (token: string, body: object) => t.http.put(`/api/admin/fees/${token}`).set(bearer(t.admin)).send(body).expect(200);

  it('the alert opens: house.exposure once for several refusals; it closes: house.recovered', async () => {
    const endpoint = (
      await t.http
        .post('/api/admin/webhooks')
        .set(bearer(t.admin))
        .send({ url: hook.url, events: ['house.exposure', 'house.recovered'] })
        .expect(201)
    ).body;
    // A customer's endpoint may not take them (administrators' only).
    const customer = await newCustomer(t);
    await t.http
      .post('/api/user/webhooks')
      .set(bearer(customer.token))
      .send({ url: hook.url, events: ['house.exposure'] })
      .expect(400);

    const start = (await t.http.get('/api/admin/fees').set(bearer(t.admin)).expect(200)).body.rows.find((r: { token: string }) => r.token === 'tether');
    const owed = -Number(start.position);
    // The house may sell 30 USDT more than customers are owed.
    await setFees('tether', { inventory: String(owed + 30) });
    await fund(t, customer._id, 'bitcoin', 100);
    for (const amount of [40, 50]) {
      await t.http.post('/api/crypto/swap').set(bearer(customer.token)).send({ amount, from: 'bitcoin', to: 'tether' }).expect(409);
    }
    await expect.poll(() => hook.receipts.length, { timeout: 20_000 }).toBe(1);
    const [opened] = hook.receipts;
    WebhookReceiver.verify(opened, endpoint.secret);
    expect(opened.event).toMatchObject({
      type: 'house.exposure',
      data: { token: 'tether', symbol: 'usdt', name: 'Tether', position: expect.any(String), minPositionUsd: '0', recoveredAt: null },
    });
    expect(Number(opened.event.data.position)).toBeCloseTo(30, 6);
    expect(new Date(opened.event.data.alertedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);

    // Holdings added: the recovery check closes the alert.
    await setFees('tether', { inventory: String(owed + 1000) });
    await t.app.get(HouseExposureService).closeRecovered();
    await expect.poll(() => hook.receipts.length, { timeout: 20_000 }).toBe(2);
    const closed = hook.receipts[1];
    WebhookReceiver.verify(closed, endpoint.secret);
    expect(closed.event).toMatchObject({ type: 'house.recovered', data: { token: 'tether', alertedAt: opened.event.data.alertedAt } });
    expect(Number(closed.event.data.position)).toBeCloseTo(1000, 6);
    expect(closed.event.data.recoveredAt).toEqual(expect.any(String));

    await setFees('tether', { inventory: null });
    await t.http.delete(`/api/admin/webhooks/${endpoint.id}`).set(bearer(t.admin)).expect(200);
  });
});
