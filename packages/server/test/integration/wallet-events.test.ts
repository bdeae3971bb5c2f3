import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LiveEventsService } from '../../src/modules/notifications/live-events.service';
import { DATABASE_KINDS } from '../support/databases';
import { bearer } from '../support/test-app';
import { ADDRESSES, expectLedgerClean, fund, newCustomer, startWalletApp, type WalletApp } from '../support/wallet';
import { openEventStream } from './helpers/sse';

describe.each(DATABASE_KINDS)('live balance events of money operations on %s', (kind) => {
  let t: WalletApp;
  beforeAll(async () => {
    t = await startWalletApp(kind, {}, { listen: true });
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    if (t) await expectLedgerClean(t);
  });

  /** Opens the customer's stream and waits until the server holds it. */
  async function stream(user: { _id: string; token: string }) {
    const events = await openEventStream(t.url!, user.token);
    await expect.poll(() => t.app.get(LiveEventsService).openStreams(user._id)).toBe(1);
    return events;
  }
  const balanceTokens = (events: Array<{ event: string; data: string }>) =>
    events.filter((e) => e.event === 'balance').map((e) => (JSON.parse(e.data) as { token: string }).token);

  it("a swap pushes a balance event per token to the customer's stream, and nothing to others", async () => {
    const ada = await newCustomer(t);
    const bob = await newCustomer(t);
    const adaStream = await stream(ada);
    const bobStream = await stream(bob);
    try {
      // The funding's own event first (announced after its commit, it may arrive after a stream opened just then).
      await fund(t, ada._id, 'bitcoin', 100);
      await adaStream.next((e) => e.event === 'balance' && JSON.parse(e.data).token === 'bitcoin');
      adaStream.events.splice(0);
      await t.http.post('/api/crypto/swap').set(bearer(ada.token)).send({ amount: '40.00', from: 'bitcoin', to: 'ethereum' }).expect(201);
      await adaStream.next((e) => e.event === 'balance' && JSON.parse(e.data).token === 'ethereum');
      await adaStream.next((e) => e.event === 'balance' && JSON.parse(e.data).token === 'bitcoin');
      expect(balanceTokens(adaStream.events).sort()).toEqual(['bitcoin', 'ethereum']);
      expect(JSON.parse(adaStream.events.find((e) => e.event === 'balance')!.data)).toEqual({ token: expect.any(String) });

      // A refused swap changes nothing and sends nothing.
      await t.http.post('/api/crypto/swap').set(bearer(ada.token)).send({ amount: '5000', from: 'bitcoin', to: 'ethereum' }).expect(400);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(balanceTokens(adaStream.events)).toHaveLength(2);
      expect(bobStream.events).toEqual([]);
    } finally {
      adaStream.close();
      bobStream.close();
    }
  });

  it('deposits, sends, status changes, adjustments and voids push balance events only when the balance changes', async () => {
    const ada = await newCustomer(t);
    const events = await stream(ada);
    const balances = () => balanceTokens(events.events);
    const waitFor = async (n: number) => {
      await expect.poll(balances).toHaveLength(n);
      return balances();
    };
    try {
      const pending = await t.http
        .post(`/api/crypto/deposit/${ada._id}`)
        .set(bearer(t.admin))
        .send({ amount: 100, status: 'pending', network: 'tether' })
        .expect(201);
      await events.next((e) => e.event === 'notification');
      expect(balances()).toEqual([]); // pending: no balance change
      await t.http.post('/api/admin/modify-transaction').set(bearer(t.admin)).send({ tId: pending.body._id, modification: 'approved' }).expect(200);
      expect(await waitFor(1)).toEqual(['tether']);

      const sent = await t.http
        .post('/api/crypto/send-crypto/tether')
        .set(bearer(ada.token))
        .send({ transferData: { address: ADDRESSES.tetherTron, amount: 10 } })
        .expect(201);
      expect(await waitFor(2)).toEqual(['tether', 'tether']);
      await t.http.post('/api/admin/modify-transaction').set(bearer(t.admin)).send({ tId: sent.body.transaction._id, modification: 'rejected' }).expect(200);
      await waitFor(3);

      const adjusted = await t.http
        .post(`/api/admin/update-balance/${ada._id}`)
        .set(bearer(t.admin))
        .send({ token: 'bitcoin', amount: 50, type: 'yes', msg: 'bonus' })
        .expect(200);
      expect((await waitFor(4)).at(-1)).toBe('bitcoin');
      await t.http.delete(`/api/crypto/delete-trx/${adjusted.body.transaction._id}`).set(bearer(t.admin)).expect(200);
      expect((await waitFor(5)).at(-1)).toBe('bitcoin');
    } finally {
      events.close();
    }
  });
});
