import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { DATABASE_KINDS } from '../support/databases';
import { seedCoins } from '../support/market';
import { bearer } from '../support/test-app';
import { call, expectLedgerClean, fund, holdings, newCustomer, startWalletApp, supportTokens, type WalletApp } from '../support/wallet';

const POSTGRES = Boolean(process.env.TEST_DATABASE_URL);
if (!POSTGRES) {
  console.warn(
    'wallet-token-delete: SKIPPED — set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test). PGlite runs one transaction at a time and would hide races.',
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function rows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Money left with customers in tokens that are no longer supported: balances, and pending transactions. */
async function exposureInDeletedTokens(db: Database): Promise<{ balances: unknown[]; pending: unknown[] }> {
  const deleted = sql`not exists (select 1 from supported_tokens s where s.coin_id = token and s.deleted_at is null)`;
  return {
    balances: await rows(db, sql`select user_id, token, balance::text from ledger_accounts where kind = 'customer' and balance <> 0 and ${deleted}`),
    pending: await rows(db, sql`select id, token from transactions where status = 'pending' and voided_at is null and ${deleted}`),
  };
}

describe.skipIf(!POSTGRES)('token delete racing money operations on PostgreSQL (skipped without TEST_DATABASE_URL)', () => {
  let t: WalletApp;
  let db: Database;
  beforeAll(async () => {
    // These races check correctness, not latency: on busy CI cores hundreds of requests queued on one account can
    // exceed the production lock/statement timeouts (a 503 "busy", tested in faults.test.ts), so they get generous ones.
    t = await startWalletApp('postgres', { DB_LOCK_TIMEOUT_MS: '60000', DB_STATEMENT_TIMEOUT_MS: '120000' }, { listen: true });
    await seedCoins(t, { bitcoin: '50000', ethereum: '2500', tether: '1', solana: '100' });
    db = t.app.get<Database>(DATABASE);
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    if (t) await expectLedgerClean(t);
  });

  it('deposits, adjustments and swaps racing deletes: no customer ends up holding a deleted token', async () => {
    const users = await Promise.all(Array.from({ length: 4 }, () => newCustomer(t)));
    for (const u of users) await fund(t, u._id, 'bitcoin', 1000);
    const seen = { deleted: 0, deleteRefused: 0, moved: 0, refusedRemoved: 0 };
    const REFUSALS = [
      /^SOL is no longer a supported token: it was removed meanwhile\./,
      /^Unknown (token|network) "solana"/,
      /^No supported token is on Solana\./, // "solana" is also a network id: deposits name the token on it

      /^"solana" is not a supported token\./,
    ];

    // The delete's head start in the rounds it starts first. On a loaded machine a few ms may not be enough for it to
    // win even once (24 rounds lost in a CI run), so each time it loses from a head start the next one doubles.
    let lead = 12;
    for (let round = 0; round < 24; round++) {
      await supportTokens(t, ['solana']);
      const money = () =>
        users.flatMap((u, i) => [
          call(t, 'POST', `/api/crypto/deposit/${u._id}`, t.admin, { amount: 10, status: i % 2 ? 'approved' : 'pending', network: 'solana' }),
          call(t, 'POST', `/api/admin/update-balance/${u._id}`, t.admin, { token: 'solana', amount: 5, type: 'yes', msg: 'race' }),
          call(t, 'POST', '/api/crypto/swap', u.token, { amount: '5.00', from: 'bitcoin', to: 'solana' }),
        ]);
      // Vary who starts first: the delete with a head start, together, or a little after the money.
      const head = [lead, 4, 0, -2, -6][round % 5];
      const remove = async () => {
        if (head < 0) await sleep(-head);
        return call(t, 'DELETE', '/api/admin/delete-token/solana/solana', t.admin);
      };
      const moneyLater = async () => {
        if (head > 0) await sleep(head);
        return Promise.all(money());
      };
      const [deleted, results] = await Promise.all([remove(), moneyLater()]);

      expect([200, 409]).toContain(deleted.status);
      if (deleted.status === 200) seen.deleted += 1;
      else seen.deleteRefused += 1;
      if (deleted.status === 409 && head === lead) lead = Math.min(lead * 2, 400);
      for (const r of results) {
        expect([200, 201, 400]).toContain(r.status);
        if (r.status === 400) {
          expect(
            REFUSALS.some((pattern) => pattern.test(r.body.error)),
            r.body.error,
          ).toBe(true);
          seen.refusedRemoved += 1;
        } else seen.moved += 1;
      }
      expect(await exposureInDeletedTokens(db)).toEqual({ balances: [], pending: [] });

      if (deleted.status === 409) {
        // Clear the round's money so the next delete can win: reject pending deposits, set balances to zero.
        const pending = await rows<{ id: string }>(db, sql`select id from transactions where token = 'solana' and status = 'pending' and voided_at is null`);
        for (const { id } of pending)
          expect((await call(t, 'POST', '/api/admin/modify-transaction', t.admin, { tId: id, modification: 'rejected' })).status).toBe(200);
        for (const u of users)
          expect((await call(t, 'POST', `/api/admin/update-balance/${u._id}`, t.admin, { token: 'solana', amount: 0, type: 'no', msg: 'reset' })).status).toBe(
            200,
          );
        expect((await call(t, 'DELETE', '/api/admin/delete-token/solana/solana', t.admin)).status).toBe(200);
      }
    }
    // Both sides won sometimes: the race was exercised.
    expect(seen.deleted).toBeGreaterThan(0);
    expect(seen.moved).toBeGreaterThan(0);
    expect(seen.refusedRemoved).toBeGreaterThan(0);
    expect(await exposureInDeletedTokens(db)).toEqual({ balances: [], pending: [] });
  });
});

describe.each(DATABASE_KINDS)('status changes and voids after a token delete on %s', (kind) => {
  let t: WalletApp;
  beforeAll(async () => {
    t = await startWalletApp(kind);
    await seedCoins(t, { bitcoin: '50000', ethereum: '2500', tether: '1', solana: '100' });
    await supportTokens(t, ['solana']);
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    if (t) await expectLedgerClean(t);
  });

  it('refuses (409) whatever would give a customer money or a pending transaction in a removed token', async () => {
    const user = await newCustomer(t);
    const admin = (path: string, body: object) => t.http.post(path).set(bearer(t.admin)).send(body);
    const modify = (tId: string, modification: string) => admin('/api/admin/modify-transaction', { tId, modification });
    const rejectedDeposit = (await admin(`/api/crypto/deposit/${user._id}`, { amount: 100, status: 'rejected', network: 'solana' }).expect(201)).body;
    await fund(t, user._id, 'solana', 50);
    const sent = await t.http
      .post('/api/crypto/send-crypto/solana')
      .set(bearer(user.token))
      .send({ transferData: { address: 'So11111111111111111111111111111111111111112', amount: 50 } })
      .expect(201);
    await modify(sent.body.transaction._id, 'approved').expect(200);
    await t.http.delete('/api/admin/delete-token/solana/solana').set(bearer(t.admin)).expect(200);

    const refusal = 'SOL is no longer a supported token, so this would leave the customer holding it. Add the token again first.';
    for (const [id, status] of [
      [rejectedDeposit._id, 'approved'],
      [rejectedDeposit._id, 'pending'],
      [sent.body.transaction._id, 'rejected'],
      [sent.body.transaction._id, 'pending'],
    ]) {
      expect((await modify(id, status).expect(409)).body.error).toBe(refusal);
    }
    expect((await t.http.delete(`/api/crypto/delete-trx/${sent.body.transaction._id}`).set(bearer(t.admin)).expect(409)).body.error).toBe(refusal);
    // Voiding the rejected deposit moves nothing: allowed.
    await t.http.delete(`/api/crypto/delete-trx/${rejectedDeposit._id}`).set(bearer(t.admin)).expect(200);
    expect((await holdings(t, user.token)).solana).toBeUndefined();

    // Supported again: the same change goes through.
    await supportTokens(t, ['solana']);
    await modify(sent.body.transaction._id, 'rejected').expect(200);
    expect((await holdings(t, user.token)).solana).toBe('0.500');
  });
});
