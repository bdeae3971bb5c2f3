import { sql, type SQL } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { type PayoutRecord, PayoutsRepository } from '../../src/modules/payouts/payouts.repository';
import { DATABASE_KINDS } from '../support/databases';
import { bearer, signUp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { ADDRESSES, fund, startWalletApp, type WalletApp } from '../support/wallet';

const ENV = {
  ENCRYPTION_KEY: 'c3'.repeat(32),
  // Tests deliver over plain http to loopback receivers.
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  // Three tries a second apart, and a 2 s timeout: the retry and disable paths in seconds, not days.
  WEBHOOK_RETRY_SCHEDULE: '1s,1s',
  WEBHOOK_TIMEOUT_SECONDS: '2',
  // Four-eyes on for large admin changes only: the small fundings here apply directly.
  APPROVAL_THRESHOLD_USD: '100000',
};

async function rows<T>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}

describe.each(DATABASE_KINDS)('webhooks on %s', (kind) => {
  let t: WalletApp;
  let db: Database;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    t = await startWalletApp(kind, ENV);
    db = t.app.get(DATABASE);
  });
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
    t.config.integrations.webhooks.allowPrivateNetworks = true;
  });
  afterAll(async () => {
    await t?.close();
  });

  const receiver = async () => {
    const started = await WebhookReceiver.start();
    receivers.push(started);
    return started;
  };
  const endpoint = async (token: string, url: string, events: string[], role: 'user' | 'admin' = 'user') =>
    (await t.http.post(`/api/${role}/webhooks`).set(bearer(token)).send({ url, events }).expect(201)).body as { id: string; secret: string };
  const deliveries = async (token: string, id: string) => (await t.http.get(`/api/user/webhooks/${id}/deliveries`).set(bearer(token)).expect(200)).body;

  it('signs every event with the library, in a {type, id, createdAt, data} body whose data is the REST resource', async () => {
    const hook = await receiver();
    const user = await signUp(t.http);
    const { id, secret } = await endpoint(user.token, hook.url, ['balance.adjusted', 'swap.completed', 'notification.created']);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    // The secret is shown once: never in the list.
    expect(JSON.stringify((await t.http.get('/api/user/webhooks').set(bearer(user.token)).expect(200)).body)).not.toContain(secret);

    await fund(t, user._id, 'bitcoin', 1000);
    const swap = await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 100, from: 'bitcoin', to: 'ethereum' }).expect(201);
    await expect.poll(() => hook.events('balance.adjusted', 'swap.completed').length).toBe(2);
    await expect.poll(() => hook.events('notification.created').length).toBeGreaterThanOrEqual(1);

    for (const receipt of hook.receipts) {
      expect(WebhookReceiver.verify(receipt, secret)).toEqual(receipt.event);
      expect(receipt.event.id).toBe(receipt.id);
      expect(receipt.id).toMatch(/^evt_[0-9a-f]{32}$/);
      expect(Object.keys(receipt.event)).toEqual(['type', 'id', 'createdAt', 'data']);
    }
    // A signature with another secret does not verify.
    expect(() => WebhookReceiver.verify(hook.receipts[0], `whsec_${Buffer.alloc(24, 7).toString('base64')}`)).toThrow();

    const history = (await t.http.get('/api/user/get-transaction').set(bearer(user.token)).expect(200)).body as Array<{ _id: string }>;
    const swapped = hook.events('swap.completed')[0].event.data;
    expect(swapped).toEqual(history.find((row) => row._id === swap.body.transaction._id));
    const adjusted = hook.events('balance.adjusted')[0].event.data;
    expect(adjusted).toEqual(history.find((row) => row._id === adjusted._id));
    const notes = (await t.http.get('/api/user/get-notifications').set(bearer(user.token)).expect(200)).body as Array<{ _id: string }>;
    const noted = hook.events('notification.created')[0].event.data;
    expect({ ...noted, read: false }).toEqual({ ...notes.find((note) => note._id === noted._id), read: false });

    // The deliveries list shows each with its try; a test event goes to the endpoint whatever it subscribes to.
    const allDelivered = async () => (await deliveries(user.token, id)).every((d: { state: string }) => d.state === 'delivered');
    await expect.poll(allDelivered).toBe(true);
    const listed = await deliveries(user.token, id);
    expect(listed[0].attempts).toEqual([expect.objectContaining({ status: 200, error: null, responseBody: 'ok' })]);
    await t.http.post(`/api/user/webhooks/${id}/test`).set(bearer(user.token)).expect(200);
    await expect.poll(() => hook.events('webhook.test').length).toBe(1);
    expect(WebhookReceiver.verify(hook.events('webhook.test')[0], secret)).toMatchObject({ type: 'webhook.test' });
  });

  it('withdrawals settled by hand: created, approved and completed with the txHash; a rejected one failed', async () => {
    const hook = await receiver();
    const user = await signUp(t.http);
    const { secret } = await endpoint(user.token, hook.url, ['withdrawal.created', 'withdrawal.approved', 'withdrawal.completed', 'withdrawal.failed']);
    await fund(t, user._id, 'bitcoin', 100);
    const send = async () =>
      (
        await t.http
          .post('/api/crypto/send-crypto/bitcoin')
          .set(bearer(user.token))
          .send({ transferData: { address: ADDRESSES.bitcoin, amount: '10' } })
          .expect(201)
      ).body.transaction._id as string;
    const paid = await send();
    const refused = await send();
    const txHash = 'a'.repeat(64);
    const approved = await t.http.post('/api/admin/modify-transaction').set(bearer(t.admin)).send({ tId: paid, modification: 'approved', txHash });
    expect(approved.body).toMatchObject({});
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    await t.http.post('/api/admin/modify-transaction').set(bearer(t.admin)).send({ tId: refused, modification: 'rejected' }).expect(200);
    await expect.poll(() => hook.receipts.length).toBe(5);
    const seen = hook.receipts.map((receipt) => {
      WebhookReceiver.verify(receipt, secret);
      return [receipt.event.type, receipt.event.data._id, receipt.event.data.status];
    });
    expect(seen).toEqual([
      ['withdrawal.created', paid, 'pending'],
      ['withdrawal.created', refused, 'pending'],
      ['withdrawal.approved', paid, 'approved'],
      ['withdrawal.completed', paid, 'approved'],
      ['withdrawal.failed', refused, 'rejected'],
    ]);
    expect(hook.receipts[3].event.data.txHash).toBe(txHash);
  });

  it('deposits entered by an administrator: pending then credited on approval, or credited at once', async () => {
    const hook = await receiver();
    const user = await signUp(t.http);
    const { secret } = await endpoint(user.token, hook.url, ['deposit.pending', 'deposit.confirmed', 'deposit.credited']);
    const deposit = (status: string) =>
      t.http.post(`/api/crypto/deposit/${user._id}`).set(bearer(t.admin)).send({ amount: 20, status, network: 'bitcoin' }).expect(201);
    await deposit('pending');
    await deposit('approved');
    await expect.poll(() => hook.receipts.length).toBe(2);
    const [first, second] = hook.receipts;
    expect([first.event.type, first.event.data.status, second.event.type, second.event.data.status]).toEqual([
      'deposit.pending',
      'pending',
      'deposit.credited',
      'approved',
    ]);
    await t.http.post('/api/admin/modify-transaction').set(bearer(t.admin)).send({ tId: first.event.data._id, modification: 'approved' }).expect(200);
    await expect.poll(() => hook.receipts.length).toBe(3);
    expect([hook.receipts[2].event.type, hook.receipts[2].event.data._id]).toEqual(['deposit.credited', first.event.data._id]);
    for (const receipt of hook.receipts) WebhookReceiver.verify(receipt, secret);
  });

  it('retries a 500 with the same webhook-id and body, in order per endpoint; resend repeats the same event', async () => {
    const hook = await receiver();
    hook.answer({ status: 500, body: 'try later' });
    const user = await signUp(t.http);
    const { id, secret } = await endpoint(user.token, hook.url, ['balance.adjusted']);
    await fund(t, user._id, 'bitcoin', 10);
    await fund(t, user._id, 'bitcoin', 20);
    await expect.poll(() => hook.receipts.length, { timeout: 15_000 }).toBe(3);
    const [first, again, second] = hook.receipts;
    expect(first.status).toBe(500);
    expect(again.id).toBe(first.id);
    expect(again.body).toBe(first.body);
    expect(second.id).not.toBe(first.id);
    // The second event waited for the first: order per endpoint.
    expect(first.event.data.amount).toBe(10);
    expect(second.event.data.amount).toBe(20);
    for (const receipt of hook.receipts) WebhookReceiver.verify(receipt, secret);

    await expect.poll(async () => (await deliveries(user.token, id)).map((d: { state: string }) => d.state)).toEqual(['delivered', 'delivered']);
    const [newest, oldest] = await deliveries(user.token, id);
    expect(oldest.attempts.map((a: { status: number }) => a.status)).toEqual([500, 200]);
    expect(oldest.attempts[0].responseBody).toBe('try later');
    expect(newest.attempts.map((a: { status: number }) => a.status)).toEqual([200]);

    const resent = await t.http.post(`/api/user/webhooks/${id}/deliveries/${oldest.id}/resend`).set(bearer(user.token)).expect(200);
    expect(resent.body).toMatchObject({ id: oldest.id, eventId: first.id, state: 'pending' });
    await expect.poll(() => hook.receipts.length).toBe(4);
    expect(hook.receipts[3].id).toBe(first.id);
    expect(hook.receipts[3].body).toBe(first.body);
    await t.http.post(`/api/user/webhooks/${id}/deliveries/99999999/resend`).set(bearer(user.token)).expect(404);
    // Another customer sees none of it.
    const other = await signUp(t.http);
    await t.http.get(`/api/user/webhooks/${id}/deliveries`).set(bearer(other.token)).expect(404);
    await t.http.post(`/api/user/webhooks/${id}/deliveries/${oldest.id}/resend`).set(bearer(other.token)).expect(404);
  });

  it('after the last try disables the endpoint and tells its owner; turned back on, the waiting events go out', async () => {
    const hook = await receiver();
    hook.answerAlways({ status: 503 });
    const user = await signUp(t.http);
    const { id } = await endpoint(user.token, hook.url, ['balance.adjusted']);
    await fund(t, user._id, 'bitcoin', 10);
    await expect.poll(async () => (await t.http.get('/api/user/webhooks').set(bearer(user.token))).body[0].enabled, { timeout: 20_000 }).toBe(false);
    expect(hook.receipts.map((r) => r.status)).toEqual([503, 503, 503]);
    const [listed] = (await t.http.get('/api/user/webhooks').set(bearer(user.token)).expect(200)).body;
    expect(listed.disabledReason).toMatch(/^Disabled after 3 failed tries of event evt_[0-9a-f]{32} \(balance\.adjusted\): HTTP 503$/);
    const notes = (await t.http.get('/api/user/get-notifications').set(bearer(user.token)).expect(200)).body as Array<{ title: string; message: string }>;
    expect(notes.find((note) => note.title === 'Webhook endpoint disabled')?.message).toContain(hook.url);
    expect(await rows(db, sql`select 1 from mail_outbox where "to" = ${user.email} and subject = 'A Coinpurse webhook endpoint was disabled'`)).toHaveLength(1);

    // While disabled nothing is written for it; its failed delivery can be sent again once it is on.
    await fund(t, user._id, 'bitcoin', 20);
    const [failed] = await deliveries(user.token, id);
    expect(failed.state).toBe('failed');
    await t.http.post(`/api/user/webhooks/${id}/deliveries/${failed.id}/resend`).set(bearer(user.token)).expect(409);
    hook.answerAlways({ status: 204 });
    const resumed = await t.http.patch(`/api/user/webhooks/${id}`).set(bearer(user.token)).send({ enabled: true }).expect(200);
    expect(resumed.body).toMatchObject({ enabled: true, disabledReason: null });
    await t.http.post(`/api/user/webhooks/${id}/deliveries/${failed.id}/resend`).set(bearer(user.token)).expect(200);
    await expect.poll(() => hook.receipts.filter((r) => r.status === 204).length).toBe(1);
    expect(hook.receipts.at(-1)!.event.data.amount).toBe(10);
  });

  it('a receiver that never answers delays no customer request and no other endpoint; its try ends at the timeout', async () => {
    const stuck = await receiver();
    stuck.answerAlways({ hang: true });
    const healthy = await receiver();
    const user = await signUp(t.http);
    const watcher = await signUp(t.http);
    await endpoint(user.token, stuck.url, ['swap.completed']);
    const { secret } = await endpoint(watcher.token, healthy.url, ['balance.adjusted']);
    await fund(t, user._id, 'bitcoin', 1000);
    await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 10, from: 'bitcoin', to: 'ethereum' }).expect(201);
    await expect.poll(() => stuck.receipts.length).toBe(1);
    // While the receiver holds the connection open, the customer keeps swapping (more than a pool of connections' worth)
    // and another endpoint gets its events.
    const swaps = await Promise.all(
      Array.from({ length: 12 }, () => t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 1, from: 'bitcoin', to: 'ethereum' })),
    );
    expect(swaps.map((response) => response.status)).toEqual(swaps.map(() => 201));
    expect(stuck.receipts).toHaveLength(1);
    await fund(t, watcher._id, 'bitcoin', 5);
    await expect.poll(() => healthy.receipts.length).toBe(1);
    WebhookReceiver.verify(healthy.receipts[0], secret);
    // The first try ends at the 2 s timeout and is recorded; the same event comes again.
    await expect.poll(() => stuck.receipts.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    expect(stuck.receipts[1].id).toBe(stuck.receipts[0].id);
    const [endpointRow] = await rows<{ id: string }>(db, sql`select id from webhook_endpoints where url = ${stuck.url}`);
    const errors = await rows<{ error: string }>(
      db,
      sql`select a.error from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.endpoint_id = ${endpointRow.id}`,
    );
    expect(errors[0].error).toBe('No answer within 2 s');
  });

  it('follows no redirect, keeps only the start of an answer as text, and signs with both secrets after a rotation', async () => {
    const hook = await receiver();
    const target = await receiver();
    hook.answer({ status: 302, headers: { location: target.url } }, { status: 200, body: `<script>alert(1)</script>${'x'.repeat(2000)}` });
    const user = await signUp(t.http);
    const { id, secret } = await endpoint(user.token, hook.url, ['balance.adjusted']);
    await fund(t, user._id, 'bitcoin', 10);
    await expect.poll(async () => (await deliveries(user.token, id))[0]?.state, { timeout: 10_000 }).toBe('delivered');
    expect(hook.receipts).toHaveLength(2);
    expect(target.receipts).toHaveLength(0);
    const [delivery] = await deliveries(user.token, id);
    expect(delivery.attempts.map((a: { status: number }) => a.status)).toEqual([302, 200]);
    expect(delivery.attempts[1].responseBody).toBe(`<script>alert(1)</script>${'x'.repeat(512 - 25)}`);

    const rotated = (await t.http.post(`/api/user/webhooks/${id}/rotate-secret`).set(bearer(user.token)).expect(200)).body;
    expect(rotated.secret).not.toBe(secret);
    await fund(t, user._id, 'bitcoin', 20);
    await expect.poll(() => hook.receipts.length).toBe(3);
    const after = hook.receipts[2];
    expect(after.signature.split(' ')).toHaveLength(2);
    WebhookReceiver.verify(after, rotated.secret);
    WebhookReceiver.verify(after, secret);
  });

  it('refuses http and private, loopback and link-local receivers without the setting, and checks again at delivery', async () => {
    const hook = await receiver();
    const user = await signUp(t.http);
    // Saved while allowed; then the operator turns private networks off.
    const { id } = await endpoint(user.token, hook.url, ['balance.adjusted']);
    t.config.integrations.webhooks.allowPrivateNetworks = false;
    const refuse = async (url: string, message: RegExp) =>
      expect(
        (
          await t.http
            .post('/api/user/webhooks')
            .set(bearer(user.token))
            .send({ url, events: ['swap.completed'] })
            .expect(400)
        ).body.error,
      ).toMatch(message);
    await refuse('http://example.com/hooks', /must start with https:\/\//);
    for (const url of [
      'https://127.0.0.1/h',
      'https://10.1.2.3/h',
      'https://192.168.0.10/h',
      'https://169.254.169.254/latest',
      'https://[::1]/h',
      'https://[fe80::1]/h',
      'https://[::ffff:127.0.0.1]/h',
      'https://localhost/h',
    ]) {
      await refuse(url, /private, loopback or link-local/);
    }
    await refuse('https://user:pw@example.com/h', /user name or password/);
    await refuse('not a url', /full URL/);
    await t.http.patch(`/api/user/webhooks/${id}`).set(bearer(user.token)).send({ url: 'https://10.0.0.1/' }).expect(400);

    await fund(t, user._id, 'bitcoin', 10);
    await expect.poll(async () => (await deliveries(user.token, id))[0]?.attempts.length ?? 0, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    expect((await deliveries(user.token, id))[0].attempts[0]).toMatchObject({ status: null, error: 'Refused: 127.0.0.1 is not a public address' });
    expect(hook.receipts).toHaveLength(0);
    // Customers' endpoints take customers' events only.
    t.config.integrations.webhooks.allowPrivateNetworks = true;
    expect(
      (
        await t.http
          .post('/api/user/webhooks')
          .set(bearer(user.token))
          .send({ url: hook.url, events: ['approval.requested'] })
          .expect(400)
      ).body.error,
    ).toMatch(/administrators' endpoints/);
  });

  it("payout.awaiting_funds and payout.awaiting_cold_signature reach administrators' endpoints, with the reason", async () => {
    const hook = await receiver();
    const { secret } = await endpoint(t.admin, hook.url, ['payout.awaiting_funds', 'payout.awaiting_cold_signature'], 'admin');
    const user = await signUp(t.http);
    await fund(t, user._id, 'bitcoin', 100);
    const id = (
      await t.http
        .post('/api/crypto/send-crypto/bitcoin')
        .set(bearer(user.token))
        .send({ transferData: { address: ADDRESSES.bitcoin, amount: '10' } })
        .expect(201)
    ).body.transaction._id as string;
    // The payout job's own writes (PayoutsRepository.update mirrors each state into the withdrawal): the hot wallet
    // short of coins, then the amount sent to the cold side.
    const [payout] = await rows<PayoutRecord>(
      db,
      sql`insert into payouts (transaction_id, network, address, amount_base, state, required_confirmations)
        values (${id}, 'bitcoin', ${ADDRESSES.bitcoin}, 20000000, 'approved', 3) returning id`,
    );
    const repository = t.app.get(PayoutsRepository);
    const reason = 'The hot wallet holds 0.1 BTC; this payout needs 0.2 BTC.';
    await repository.update(payout, { state: 'awaiting_funds', lastError: reason, attempted: true }, 8, db);
    await repository.update(payout, { state: 'awaiting_cold_signature', coldReason: 'above the hot limit' }, 8, db);
    await expect.poll(() => hook.receipts.length).toBe(2);
    const seen = hook.receipts.map((receipt) => {
      WebhookReceiver.verify(receipt, secret);
      return [receipt.event.type, receipt.event.data._id, receipt.event.data.payoutState];
    });
    expect(seen).toEqual([
      ['payout.awaiting_funds', id, 'awaiting_funds'],
      ['payout.awaiting_cold_signature', id, 'awaiting_cold_signature'],
    ]);
    // Administrators are told why it waits; a customer's endpoint never gets payout events.
    expect(hook.receipts[0].event.data.payoutReason).toBe(reason);
    await t.http
      .post('/api/user/webhooks')
      .set(bearer(user.token))
      .send({ url: hook.url, events: ['payout.awaiting_funds'] })
      .expect(400);
  });

  it("an administrator's endpoint gets every customer's events and the back office's", async () => {
    const hook = await receiver();
    const { secret } = await endpoint(t.admin, hook.url, ['balance.adjusted', 'approval.requested', 'approval.decided'], 'admin');
    const user = await signUp(t.http);
    await fund(t, user._id, 'tether', 3);
    await expect.poll(() => hook.events('balance.adjusted').some((r) => r.event.data.user.email === user.email)).toBe(true);
    const held = await t.http
      .post(`/api/admin/update-balance/${user._id}`)
      .set(bearer(t.admin))
      .send({ token: 'tether', amount: '200000', type: 'yes' })
      .expect(202);
    await expect.poll(() => hook.events('approval.requested').length).toBe(1);
    const approvals = (await t.http.get('/api/admin/approvals').set(bearer(t.admin)).expect(200)).body as Array<{ _id: string }>;
    expect(hook.events('approval.requested')[0].event.data).toEqual(approvals.find((a) => a._id === held.body.approvalId));
    await t.http.post(`/api/admin/approvals/${held.body.approvalId}/reject`).set(bearer(t.admin)).send({ reason: 'Too large' }).expect(200);
    await expect.poll(() => hook.events('approval.decided').length).toBe(1);
    expect(hook.events('approval.decided')[0].event.data).toMatchObject({ _id: held.body.approvalId, status: 'rejected', decisionReason: 'Too large' });
    for (const receipt of hook.receipts) WebhookReceiver.verify(receipt, secret);
    await t.http.get('/api/admin/webhooks').set(bearer(t.admin)).expect(200);
    await t.http.get('/api/user/webhooks').set(bearer(t.admin)).expect(403);
  });
});
