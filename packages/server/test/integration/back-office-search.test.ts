import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { DATABASE_KINDS } from '../support/databases';
import { bearer, signUp } from '../support/test-app';
import { ADDRESSES, expectLedgerClean, fund, newCustomer, startWalletApp, type WalletApp } from '../support/wallet';

const BTC_TX = '4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b';

describe.each(DATABASE_KINDS)('admin search, per-user page and withdrawal txHash on %s', (kind) => {
  let t: WalletApp;
  let db: Database;
  beforeAll(async () => {
    t = await startWalletApp(kind, { DB_STATEMENT_TIMEOUT_MS: '0' }); // set-based seeding of 100,000 rows outlasts the 5 s request limit
    db = t.app.get(DATABASE);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  const users = (query: string) => t.http.get(`/api/user/get-users?${query}`).set(bearer(t.admin)).expect(200);

  it('finds customers by part of the email or name, case-insensitively, with LIKE wildcards taken literally', async () => {
    const ada = await signUp(t.http, { name: 'Ada Lovelace', email: 'ada.lovelace@analytical.example' });
    const grace = await signUp(t.http, { name: 'Grace Hopper', email: 'grace_h@navy.example' });
    await signUp(t.http, { name: 'Gracey Other', email: 'graceXh@navy.example' });

    expect((await users('search=LOVELACE')).body.map((u: { _id: string }) => u._id)).toEqual([ada._id]);
    expect((await users('search=analytical')).body.map((u: { _id: string }) => u._id)).toEqual([ada._id]);
    expect((await users('search=hopp')).body.map((u: { _id: string }) => u._id)).toEqual([grace._id]);
    // "_" is a character here, not LIKE's any-one-character.
    expect((await users('search=grace_h')).body.map((u: { _id: string }) => u._id)).toEqual([grace._id]);
    expect((await users('search=%25')).body).toEqual([]);
    // Paging keeps the search.
    const first = await users('search=navy&limit=1');
    expect(first.body).toHaveLength(1);
    const second = await users(`search=navy&limit=1&cursor=${first.headers['x-next-cursor']}`);
    expect(second.body).toHaveLength(1);
    expect(second.body[0]._id).not.toBe(first.body[0]._id);
    await t.http
      .get(`/api/user/get-users?search=${'x'.repeat(101)}`)
      .set(bearer(t.admin))
      .expect(400);
  });

  it('the per-user page gathers profile, balances, notifications, sessions and the audit about the customer', async () => {
    const bo = await newCustomer(t);
    await fund(t, bo._id, 'bitcoin', 500);
    const page = (await t.http.get(`/api/admin/users/${bo._id}`).set(bearer(t.admin)).expect(200)).body;
    expect(page.profile).toMatchObject({ _id: bo._id, email: bo.email, role: 'user', deactivatedAt: null });
    expect(page.balances.find((b: { tokenId: string }) => b.tokenId === 'bitcoin')).toMatchObject({ symbol: 'btc', balance: 500 });
    expect(page.totalBalance).toBe(500);
    expect(page.notifications[0]).toMatchObject({ title: 'Balance updated' });
    expect(page.audit[0]).toMatchObject({ action: 'balance.adjust', actorEmail: 'admin@test.local' });
    expect(page.tickets).toEqual([]);
    // Sign-up opened one session; a logout ends it and the page stops listing it.
    expect(page.sessions).toHaveLength(1);
    expect(page.sessions[0]).toMatchObject({ current: false });
    await t.http.post('/api/user/logout').set(bearer(bo.token)).expect(200);
    expect((await t.http.get(`/api/admin/users/${bo._id}`).set(bearer(t.admin)).expect(200)).body.sessions).toEqual([]);
    await t.http.get('/api/admin/users/not-a-uuid').set(bearer(t.admin)).expect(404);
    const other = await newCustomer(t);
    await t.http.get(`/api/admin/users/${bo._id}`).set(bearer(other.token)).expect(403);
  });

  it('approving a withdrawal stores its txHash (checked per network), shows it to the customer and lets admins search it', async () => {
    const cy = await newCustomer(t);
    await fund(t, cy._id, 'bitcoin', 1000);
    const sent = await t.http
      .post('/api/crypto/send-crypto/bitcoin')
      .set(bearer(cy.token))
      .send({ transferData: { address: ADDRESSES.bitcoin, amount: '100' } })
      .expect(201);
    const tId = sent.body.transaction._id as string;
    const modify = (body: object) =>
      t.http
        .post('/api/admin/modify-transaction')
        .set(bearer(t.admin))
        .send({ tId, ...body });

    expect((await modify({ modification: 'approved', txHash: 'not-a-hash' }).expect(400)).body.error).toBe(
      'This is not a Bitcoin transaction hash: expected 64 hexadecimal characters.',
    );
    expect((await modify({ modification: 'rejected', txHash: BTC_TX }).expect(400)).body.error).toBe(
      'A transaction hash can only be given when approving a withdrawal.',
    );
    const [{ status }] = ((await db.execute(sql`select status from transactions where id = ${tId}`)) as unknown as { rows: Array<{ status: string }> }).rows;
    expect(status).toBe('pending');

    const done = await modify({ modification: 'approved', txHash: `0x${BTC_TX.toUpperCase()}` }).expect(200);
    expect(done.body.transaction).toMatchObject({ status: 'approved', txHash: BTC_TX });

    const history = (await t.http.get('/api/user/get-transaction').set(bearer(cy.token)).expect(200)).body;
    expect(history.find((x: { _id: string }) => x._id === tId).txHash).toBe(BTC_TX);
    const [note] = (await t.http.get('/api/user/get-notifications').set(bearer(cy.token)).expect(200)).body;
    expect(note.message).toContain(`Transaction hash: ${BTC_TX} — https://mempool.space/tx/${BTC_TX}`);

    const found = (await t.http.get(`/api/admin/transaction?search=${BTC_TX.toUpperCase()}`).set(bearer(t.admin)).expect(200)).body;
    expect(found.map((x: { _id: string }) => x._id)).toEqual([tId]);
    const byEmail = (
      await t.http
        .get(`/api/admin/transaction?search=${encodeURIComponent(cy.email.slice(0, 12))}&type=withdrawal`)
        .set(bearer(t.admin))
        .expect(200)
    ).body;
    expect(byEmail.map((x: { _id: string }) => x._id)).toEqual([tId]);
    await t.http.get('/api/user/get-transaction?search=x').set(bearer(cy.token)).expect(400);
    await expectLedgerClean(t);
  });

  it.runIf(kind === 'postgres')('search stays correct among 100,000 customers (figures printed for the note)', async () => {
    const started = Date.now();
    await db.execute(sql`
      insert into users (name, email, email_normalized, password_hash, country, role)
      select (array['Ada','Grace','Alan','Edsger','Barbara','Donald'])[1 + i % 6] || ' ' || substr(md5(i::text), 1, 10),
             'bulk' || i || '.' || substr(md5(i::text), 11, 6) || '@bulk.example',
             'bulk' || i || '.' || substr(md5(i::text), 11, 6) || '@bulk.example',
             'x', 'Germany', 'user'
      from generate_series(1, 100000) as i`);
    await db.execute(sql`analyze users`);
    const seededMs = Date.now() - started;
    const target = await signUp(t.http, { name: 'Zebulon Quixote', email: 'zq.target@findme.example' });

    const timed = async (query: string) => {
      const times: number[] = [];
      let body: Array<{ _id: string }> = [];
      for (let i = 0; i < 15; i++) {
        const at = process.hrtime.bigint();
        body = (await users(query)).body;
        times.push(Number(process.hrtime.bigint() - at) / 1e6);
      }
      times.sort((a, b) => a - b);
      return { body, median: times[7], max: times[14] };
    };
    const byEmail = await timed('search=findme');
    const byName = await timed('search=quixo');
    const prefix = await timed('search=bulk4242');
    const common = await timed('search=grace&limit=50');
    const plain = await timed('limit=50');
    expect(byEmail.body.map((u) => u._id)).toEqual([target._id]);
    expect(byName.body.map((u) => u._id)).toEqual([target._id]);
    expect(prefix.body.length).toBeGreaterThan(0);
    expect(common.body).toHaveLength(50);

    const plan = (await db.execute(
      sql.raw(
        `explain select id from users where role = 'user' and deactivated_at is null and (lower(name) || ' ' || email_normalized) like '%quixo%' order by email_normalized limit 51`,
      ),
    )) as unknown as { rows: Array<{ 'QUERY PLAN': string }> };
    const usesTrigram = plan.rows.some((r) => r['QUERY PLAN'].includes('users_search_trgm_idx'));
    console.log(
      `[search figures, 100,000 customers on PostgreSQL] seeded in ${seededMs} ms; HTTP median/max ms: email part ${byEmail.median.toFixed(1)}/${byEmail.max.toFixed(1)}, ` +
        `name part ${byName.median.toFixed(1)}/${byName.max.toFixed(1)}, email prefix ${prefix.median.toFixed(1)}/${prefix.max.toFixed(1)}, ` +
        `common word (50 of ~16,700) ${common.median.toFixed(1)}/${common.max.toFixed(1)}, no search ${plain.median.toFixed(1)}/${plain.max.toFixed(1)}; trigram index used: ${usesTrigram}`,
    );
    expect(usesTrigram).toBe(true);
  });
});
