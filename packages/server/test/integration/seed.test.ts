import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { seedDatabase, type SeedResult } from '../../src/cli/bulk-seed';
import { DATABASE_KINDS } from '../support/databases';
import { bearer } from '../support/test-app';
import { expectLedgerClean, startWalletApp, type WalletApp } from '../support/wallet';

async function rows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

type Item = { _id: string; type: string; status: string; token: string; user: { email: string } };

/** Every page of a list, following the X-Next-Cursor header. */
async function allPages(t: WalletApp, path: string, token: string, limit: number): Promise<Item[][]> {
  const pages: Item[][] = [];
  let cursor: string | undefined;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const response = await t.http
      .get(`${path}${separator}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
      .set(bearer(token))
      .expect(200);
    pages.push(response.body);
    cursor = response.headers['x-next-cursor'];
  } while (cursor && pages.length < 1000);
  return pages;
}

describe.each(DATABASE_KINDS)('pnpm seed on %s', (kind) => {
  let t: WalletApp;
  let db: Database;
  let seeded: SeedResult;
  beforeAll(async () => {
    t = await startWalletApp(kind);
    db = t.app.get<Database>(DATABASE);
    seeded = await seedDatabase(db, { users: 200, transactions: 2000 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('writes the asked numbers of customers and transactions, ledger-consistent, with journal entries for every movement', async () => {
    expect(seeded).toMatchObject({ users: 200, transactions: 2000, heavyUser: { transactions: 200 } });
    await expectLedgerClean(t);
    const [counts] = await rows<{ users: number; transactions: number; heavy: number; unlinked: number; entries: number }>(
      db,
      sql`select (select count(*) from users where email like ${`%.${seeded.runId}@example.com`})::int as users,
                 (select count(*) from transactions t join users u on u.id = t.user_id where u.email like ${`%.${seeded.runId}@example.com`})::int as transactions,
                 (select count(*) from transactions where user_id = ${seeded.heavyUser.id})::int as heavy,
                 (select count(*) from journal_entries e where e.transaction_id is not null and not exists (select 1 from transactions t where t.id = e.transaction_id))::int as unlinked,
                 (select count(*) from journal_entries)::int as entries`,
    );
    expect(counts).toMatchObject({ users: 200, transactions: 2000, heavy: 200, unlinked: 0 });
    expect(counts.entries).toBe(seeded.journalEntries);
    // Every kind of history the services record is there.
    const kinds = await rows<{ type: string; status: string }>(db, sql`select distinct type, status from transactions order by type, status`);
    expect(kinds).toEqual(
      expect.arrayContaining([
        { type: 'deposit', status: 'approved' },
        { type: 'deposit', status: 'pending' },
        { type: 'deposit', status: 'rejected' },
        { type: 'swap', status: 'approved' },
        { type: 'withdrawal', status: 'approved' },
        { type: 'withdrawal', status: 'pending' },
        { type: 'withdrawal', status: 'rejected' },
      ]),
    );
  });

  it("pages the heavy customer's history with cursors, newest first, every transaction once", async () => {
    const login = await t.http.post('/api/user/login-user').send({ email: seeded.heavyUser.email, password: seeded.password }).expect(200);
    const pages = await allPages(t, '/api/user/get-transaction', login.body.token, 30);
    expect(pages.map((p) => p.length)).toEqual([30, 30, 30, 30, 30, 30, 20]);
    const ids = pages.flat().map((x) => x._id);
    const expected = await rows<{ id: string }>(db, sql`select id from transactions where user_id = ${seeded.heavyUser.id} order by seq desc`);
    expect(ids).toEqual(expected.map((r) => r.id));
    const balance = await t.http.get('/api/user/get-user-balance').set(bearer(login.body.token)).expect(200);
    expect(balance.body.totalBalance).toBeGreaterThan(0);
  });

  it('answers the admin filters and searches with the rows a plain scan finds, page after page', async () => {
    const oracle = async (where: ReturnType<typeof sql>) =>
      (
        await rows<{ id: string }>(
          db,
          sql`select t.id from transactions t join users u on u.id = t.user_id where t.voided_at is null and ${where} order by t.seq desc`,
        )
      ).map((r) => r.id);
    const [hash] = await rows<{ h: string }>(db, sql`select details ->> 'txHash' as h from transactions where details ? 'txHash' order by seq limit 1`);
    const cases: Array<[string, ReturnType<typeof sql>]> = [
      ['token=bitcoin&type=withdrawal&status=rejected', sql`t.token = 'bitcoin' and t.type = 'withdrawal' and t.status = 'rejected'`],
      ['status=pending', sql`t.status = 'pending'`],
      ['type=adjustment', sql`t.type = 'adjustment'`],
      [`userId=${seeded.heavyUser.id}&type=swap`, sql`t.user_id = ${seeded.heavyUser.id} and t.type = 'swap'`],
      // Few customers match: their rows are read per customer.
      ['search=garcia', sql`(lower(u.name) || ' ' || u.email_normalized) like '%garcia%'`],
      ['search=HEAVY.trader&status=approved', sql`(lower(u.name) || ' ' || u.email_normalized) like '%heavy.trader%' and t.status = 'approved'`],
      [`search=${hash.h.toUpperCase()}`, sql`lower(t.details ->> 'txHash') = ${hash.h.toLowerCase()}`],
      ['search=zzqx', sql`false`],
    ];
    for (const [query, where] of cases) {
      const pages = await allPages(t, `/api/admin/transaction?${query}`, t.admin, 100);
      expect(
        pages.flat().map((x) => x._id),
        query,
      ).toEqual(await oracle(where));
    }
  });

  it('reads the rows of many matching customers in one walk and gives the same answer', async () => {
    // Customers without history first (so the ones below are not most of the first thousand), then more customers than
    // FEW_MATCHING_CUSTOMERS (1,000) sharing the run id in their email: that search walks seq probing a hash of them;
    // "example.com" matches nearly everyone: that one walks seq looking each row's customer up.
    await seedDatabase(db, { users: 1000, transactions: 0 });
    const many = await seedDatabase(db, { users: 1100, transactions: 1500, heavyTransactions: 10 });
    for (const [query, term, type] of [
      [`search=${many.runId}&type=deposit`, many.runId, 'deposit'],
      ['search=EXAMPLE.com&type=swap', 'example.com', 'swap'],
    ]) {
      const pages = await allPages(t, `/api/admin/transaction?${query}`, t.admin, 100);
      const expected = await rows<{ id: string }>(
        db,
        sql`select t.id from transactions t join users u on u.id = t.user_id
            where t.voided_at is null and (lower(u.name) || ' ' || u.email_normalized) like ${`%${term}%`} and t.type = ${type} order by t.seq desc`,
      );
      expect(
        pages.flat().map((x) => x._id),
        query,
      ).toEqual(expected.map((r) => r.id));
      expect(expected.length).toBeGreaterThan(100);
    }
    // get-users with the search pages through every matching customer once, by email.
    const users = await allPages(t, `/api/user/get-users?search=${many.runId}`, t.admin, 100);
    const emails = users.flat().map((u) => (u as unknown as { email: string }).email);
    expect(emails).toHaveLength(1100);
    expect([...emails].sort()).toEqual(emails);
    await expectLedgerClean(t);
  });
});
