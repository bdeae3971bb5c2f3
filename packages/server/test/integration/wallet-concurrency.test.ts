import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { CoinsRepository } from '../../src/modules/market/coins.repository';
import { ADDRESSES, call, expectLedgerClean, fund, holdings, newCustomer, startWalletApp, type WalletApp } from '../support/wallet';

const POSTGRES = Boolean(process.env.TEST_DATABASE_URL);
if (!POSTGRES) {
  console.warn(
    'wallet-concurrency: SKIPPED — set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test). PGlite runs one transaction at a time and would hide races.',
  );
}

describe.skipIf(!POSTGRES)('money under concurrency on PostgreSQL (skipped without TEST_DATABASE_URL)', () => {
  let t: WalletApp;
  beforeAll(async () => {
    // These races check correctness, not latency: on busy CI cores hundreds of requests queued on one account can
    // exceed the production lock/statement timeouts (a 503 "busy", tested in faults.test.ts), so they get generous ones.
    // And they race in PostgreSQL: one customer's calls are not queued in the app first (that limit is wallet-burst's).
    t = await startWalletApp(
      'postgres',
      { DB_LOCK_TIMEOUT_MS: '60000', DB_STATEMENT_TIMEOUT_MS: '120000', MONEY_CALLS_PER_CUSTOMER: '1000' },
      { listen: true },
    );
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    if (t) await expectLedgerClean(t);
  });

  it('200 concurrent 10 USD sends on a 100 USD balance: exactly 10 accepted, no 5xx, never negative', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    const db = t.app.get<Database>(DATABASE);
    let sampling = true;
    let minSeen = Infinity;
    const sampler = (async () => {
      while (sampling) {
        const result = (await db.execute(
          sql`select min(balance)::float8 as m from ledger_accounts where kind = 'customer' and user_id = ${user._id}`,
        )) as unknown as { rows: Array<{ m: number }> };
        minSeen = Math.min(minSeen, Number(result.rows[0].m));
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    const results = await Promise.all(
      Array.from({ length: 200 }, () =>
        call(t, 'POST', '/api/crypto/send-crypto/bitcoin', user.token, {
          transferData: { address: ADDRESSES.bitcoin, amount: 10, symbol: 'btc', coinAmount: '0.0002' },
        }),
      ),
    );
    sampling = false;
    await sampler;
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 400)).toHaveLength(190);
    for (const r of results.filter((x) => x.status === 400)) expect(r.body.error).toBe('Insufficient BTC balance');
    expect(minSeen).toBeGreaterThanOrEqual(0);
    expect((await holdings(t, user.token)).bitcoin).toBe('0.00000000');
    const history = await call(t, 'GET', '/api/user/get-transaction?type=withdrawal', user.token);
    expect(history.body).toHaveLength(10);
  });

  it('50 concurrent approve/reject calls on one pending withdrawal: exactly one transition', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'ethereum', 100);
    const sent = await call(t, 'POST', '/api/crypto/send-crypto/ethereum', user.token, {
      transferData: { address: ADDRESSES.ethereum, amount: 40, symbol: 'eth', coinAmount: '0.016' },
    });
    expect(sent.status).toBe(201);
    const id = sent.body.transaction._id;
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call(t, 'POST', '/api/admin/modify-transaction', t.admin, { tId: id, modification: i % 2 ? 'approved' : 'rejected', expectedStatus: 'pending' }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const final = winners[0].body.transaction.status as string;
    expect((await holdings(t, user.token)).ethereum).toBe(final === 'rejected' ? '0.040000' : '0.024000');
    const db = t.app.get<Database>(DATABASE);
    const audit = (await db.execute(sql`select count(*)::int as n from audit_log where action = 'transaction.status' and target_id = ${id}`)) as unknown as {
      rows: Array<{ n: number }>;
    };
    expect(Number(audit.rows[0].n)).toBe(1);
    const notes = (await db.execute(
      sql`select count(*)::int as n from notifications where user_id = ${user._id} and status = ${final} and title like 'Transaction %'`,
    )) as unknown as { rows: Array<{ n: number }> };
    expect(Number(notes.rows[0].n)).toBe(1);

    // The same target 50 times without expectedStatus: one change, 49 no-ops; the funds settle once.
    const second = await call(t, 'POST', '/api/crypto/send-crypto/ethereum', user.token, {
      transferData: { address: ADDRESSES.ethereum, amount: 10, symbol: 'eth', coinAmount: '0' },
    });
    const again = await Promise.all(
      Array.from({ length: 50 }, () =>
        call(t, 'POST', '/api/admin/modify-transaction', t.admin, { tId: second.body.transaction._id, modification: 'approved' }),
      ),
    );
    expect(again.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    expect(again.filter((r) => r.body.changed)).toHaveLength(1);
  });

  it('20 concurrent "set the balance" calls to different amounts: each decides from the balance the one before it left', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    const targets = Array.from({ length: 20 }, (_, i) => 10 * (i + 1));
    const results = await Promise.all(
      targets.map((amount) => call(t, 'POST', `/api/admin/update-balance/${user._id}`, t.admin, { token: 'bitcoin', amount, type: 'no', msg: 'Set' })),
    );
    expect(results.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    const db = t.app.get<Database>(DATABASE);
    const audit = (await db.execute(
      sql`select before ->> 'balance' as before, after ->> 'balance' as after from audit_log where action = 'balance.adjust' and target_id = ${user._id} and after ->> 'reason' = 'Set'`,
    )) as unknown as { rows: Array<{ before: string; after: string }> };
    // The set that targets the starting balance (100 USD) may move nothing; every other one is an adjustment whose
    // `before` is the balance the previous one left: together one chain from the starting balance to the final one.
    const final = (await holdings(t, user.token)).bitcoin;
    const befores = audit.rows.map((r) => Number(r.before)).sort((a, b) => a - b);
    const afters = audit.rows.map((r) => Number(r.after));
    const expected = [0.002, ...afters.filter((a) => a !== Number(final))].sort((a, b) => a - b);
    expect(befores).toEqual(expected);
    expect(targets.some((usd) => Math.abs(usd / 50000 - Number(final)) < 1e-12)).toBe(true);
    // Each response showed the balance its own change left.
    for (const r of results.filter((x) => x.body.transaction)) expect(afters).toContain(Number(r.body.balance.coinAmount));
  });

  it('rounds of 20 concurrent "set the balance" calls, all decided from the same balance last seen: never a stale one', async () => {
    // Every call of a round starts from the balance this instance last saw; one wins, the others must find the newer
    // balance under the lock (a stale one would show as a 409 here, or as an adjustment whose result is not its target).
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    const db = t.app.get<Database>(DATABASE);
    for (let round = 0; round < 8; round++) {
      const targets = Array.from({ length: 20 }, (_, i) => 10 * (i + 1) + round);
      const results = await Promise.all(
        targets.map((amount) =>
          call(t, 'POST', `/api/admin/update-balance/${user._id}`, t.admin, { token: 'bitcoin', amount, type: 'no', msg: `Round ${round}` }),
        ),
      );
      expect(results.filter((r) => r.status !== 200).map((r) => `${r.status} ${JSON.stringify(r.body)}`)).toEqual([]);
    }
    const { rows } = (await db.execute(
      sql`select after ->> 'balance' as after, (select amount from journal_lines l join journal_entries e on e.id = l.entry_id
            join ledger_accounts a on a.id = l.account_id where e.transaction_id = (audit_log.after ->> 'transactionId')::uuid and a.kind = 'customer') as moved,
            before ->> 'balance' as before
          from audit_log where action = 'balance.adjust' and target_id = ${user._id} and after ->> 'reason' like 'Round %'`,
    )) as unknown as { rows: Array<{ before: string; after: string; moved: string }> };
    // Each adjustment moved exactly from the balance it names to its target (the set's amount at 50,000 USD/BTC).
    for (const row of rows) expect(Number(row.before) + Number(row.moved)).toBeCloseTo(Number(row.after), 12);
    expect(
      rows.every((row) =>
        [...Array(20).keys()].some((i) => Array.from({ length: 8 }, (_, r) => (10 * (i + 1) + r) / 50000).some((q) => Math.abs(q - Number(row.after)) < 1e-12)),
      ),
    ).toBe(true);
  });

  it('concurrent swaps in both directions while prices change: the ledger stays exact and matches the executed quantities', async () => {
    const users = await Promise.all(Array.from({ length: 6 }, () => newCustomer(t)));
    for (const u of users) {
      await fund(t, u._id, 'bitcoin', 2000);
      await fund(t, u._id, 'ethereum', 2000);
      await fund(t, u._id, 'tether', 2000);
    }
    const start = await Promise.all(users.map((u) => holdings(t, u.token)));
    const coins = t.app.get(CoinsRepository);
    let running = true;
    let priceUpdates = 0;
    const ticker = (async () => {
      while (running) {
        const jitter = () => (0.9 + Math.random() * 0.2).toFixed(6);
        await coins.upsertMany([
          {
            id: 'bitcoin',
            symbol: 'btc',
            name: 'Bitcoin',
            image: 'btc.png',
            currentPrice: (50000 * Number(jitter())).toFixed(2),
            lastUpdated: new Date(),
            source: 'live',
          },
          {
            id: 'ethereum',
            symbol: 'eth',
            name: 'Ethereum',
            image: 'eth.png',
            currentPrice: (2500 * Number(jitter())).toFixed(4),
            lastUpdated: new Date(),
            source: 'live',
          },
        ]);
        priceUpdates += 1;
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const tokens = ['bitcoin', 'ethereum', 'tether'];
    const jobs = Array.from({ length: 300 }, (_, i) => {
      const user = users[i % users.length];
      const from = tokens[i % 3];
      const to = tokens[(i + 1 + (i % 2)) % 3];
      return call(t, 'POST', '/api/crypto/swap', user.token, { amount: (5 + (i % 40)).toFixed(2), from, to }).then((r) => ({ r, user: i % users.length }));
    });
    const results = await Promise.all(jobs);
    running = false;
    await ticker;
    expect(priceUpdates).toBeGreaterThan(3);
    expect(results.map(({ r }) => r.status).filter((s) => s !== 201 && s !== 400)).toEqual([]);
    // Each customer's holdings = start + the executed quantities the server reported.
    const expected = start.map((h) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k, Number(v)])));
    for (const { r, user } of results) {
      if (r.status !== 201) continue;
      expected[user][r.body.from.token] -= Number(r.body.from.coinAmount);
      expected[user][r.body.to.token] += Number(r.body.to.coinAmount);
      // to = from × fromPrice / toPrice, rounded down
      const value = Number(r.body.from.coinAmount) * Number(r.body.from.price);
      expect(Number(r.body.to.coinAmount) * Number(r.body.to.price)).toBeLessThanOrEqual(value + 1e-9);
    }
    const end = await Promise.all(users.map((u) => holdings(t, u.token)));
    end.forEach((h, i) => {
      for (const token of tokens) expect(Number(h[token])).toBeCloseTo(expected[i][token], 8);
    });
    expect(results.filter(({ r }) => r.status === 201).length).toBeGreaterThan(100);
  });

  it('idempotency: 50 concurrent replays → one effect and identical responses; another body → 422', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'tether', 100);
    const body = { transferData: { address: ADDRESSES.tetherTron, amount: 10, symbol: 'usdt', coinAmount: '10' } };
    const headers = { 'Idempotency-Key': 'send-once-123' };
    const burst = await Promise.all(Array.from({ length: 50 }, () => call(t, 'POST', '/api/crypto/send-crypto/tether', user.token, body, headers)));
    expect(burst.map((r) => r.status).filter((s) => s !== 201 && s !== 409)).toEqual([]);
    for (const r of burst.filter((x) => x.status === 409))
      expect(r.body.error).toBe('A request with this Idempotency-Key is still being processed. Try again in a moment.');
    const created = burst.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    const first = created[0].body;
    for (const r of created) expect(r.body).toEqual(first);
    // now that it is done, every replay gets the same response
    const replays = await Promise.all(Array.from({ length: 50 }, () => call(t, 'POST', '/api/crypto/send-crypto/tether', user.token, body, headers)));
    for (const r of replays) {
      expect(r.status).toBe(201);
      expect(r.body).toEqual(first);
      expect(r.headers.get('idempotent-replayed')).toBe('true');
    }
    expect((await holdings(t, user.token)).tether).toBe('90.00');
    const history = await call(t, 'GET', '/api/user/get-transaction?type=withdrawal', user.token);
    expect(history.body).toHaveLength(1);
    const other = await call(t, 'POST', '/api/crypto/send-crypto/tether', user.token, { transferData: { ...body.transferData, amount: 11 } }, headers);
    expect(other.status).toBe(422);
    expect((await holdings(t, user.token)).tether).toBe('90.00');

    // update-balance with a key: 50 concurrent → one adjustment
    const adjust = await Promise.all(
      Array.from({ length: 50 }, () =>
        call(
          t,
          'POST',
          `/api/admin/update-balance/${user._id}`,
          t.admin,
          { token: 'tether', amount: 5, type: 'yes', msg: 'bonus' },
          { 'Idempotency-Key': 'bonus-1' },
        ),
      ),
    );
    expect(adjust.map((r) => r.status).filter((s) => s !== 200 && s !== 409)).toEqual([]);
    expect((await holdings(t, user.token)).tether).toBe('95.00');
  });
});
