import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { DATABASE_KINDS } from '../support/databases';
import { bearer, signUp } from '../support/test-app';
import { fund, startWalletApp, type WalletApp } from '../support/wallet';

/** Reads a streamed response chunk by chunk (never the whole body), counting lines and keeping the first ones. */
async function readStream(url: string, token: string, keep = 5) {
  const response = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let lines = 0;
  let bytes = 0;
  let head = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    const text = decoder.decode(value, { stream: true });
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
    if (head.split('\r\n').length <= keep) head += text;
  }
  return { status: response.status, headers: response.headers, lines, bytes, head: head.split('\r\n').slice(0, keep) };
}

describe.each(DATABASE_KINDS)('CSV exports on %s', (kind) => {
  let t: WalletApp;
  let db: Database;
  beforeAll(async () => {
    t = await startWalletApp(kind, { DB_STATEMENT_TIMEOUT_MS: '0' }, { listen: true }); // set-based seeding of 1,000,000 rows outlasts the 5 s request limit
    db = t.app.get(DATABASE);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  }, 120_000);

  it('users, transactions (with the list filters) and the audit log: formula-safe, audited, admins only', async () => {
    const mallory = await signUp(t.http, { name: '=HYPERLINK("http://evil.example","x")', email: 'mallory@evil.example' });
    await fund(t, mallory._id, 'bitcoin', 500);
    await fund(t, mallory._id, 'tether', 20);

    const users = await readStream(`${t.url}/api/admin/export/users`, t.admin);
    expect(users.status).toBe(200);
    expect(users.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(users.headers.get('content-disposition')).toMatch(/^attachment; filename="coinpurse-users-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(users.head[0]).toBe('"User id","Name","Email","Country","Created","Deactivated","Balance bitcoin","Balance tether"');
    const row = users.head.find((line) => line.includes('mallory@evil.example'))!;
    expect(row).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(row).toContain('"mallory@evil.example","Germany",'); // the country's name (stored as its code, DE)
    expect(row).toMatch(/"0\.01","20"$/);

    const all = await readStream(`${t.url}/api/admin/export/transactions`, t.admin, 10);
    expect(all.lines).toBe(3);
    const filtered = await readStream(`${t.url}/api/admin/export/transactions?token=tether&search=mallory`, t.admin, 10);
    expect(filtered.lines).toBe(2);
    expect(filtered.head[1]).toContain('"adjustment","in","tether","USDT","20","20.00"');

    const audit = await readStream(`${t.url}/api/admin/export/audit?action=balance.adjust`, t.admin, 10);
    expect(audit.lines).toBe(3);
    expect(audit.head[1]).toContain('"balance.adjust","user"');

    const log = (await t.http.get('/api/admin/audit?targetType=export').set(bearer(t.admin)).expect(200)).body.items;
    expect(log.map((e: { action: string; after: unknown }) => [e.action, e.after])).toEqual([
      ['export.audit', { filters: { action: 'balance.adjust' } }],
      ['export.transactions', { filters: { token: 'tether', search: 'mallory' } }],
      ['export.transactions', { filters: {} }],
      ['export.users', { filters: {} }],
    ]);
    expect((await readStream(`${t.url}/api/admin/export/users`, mallory.token)).status).toBe(403);
    expect((await readStream(`${t.url}/api/admin/export/transactions?type=nope`, t.admin)).status).toBe(400);
  });

  // Many export batches in CI (20,000 users, 200,000 transactions); EXPORT_SCALE_USERS=100000 gives the note's figures
  // for 100,000 users and 1,000,000 transactions (its seeding alone takes minutes).
  const scale = Number(process.env.EXPORT_SCALE_USERS ?? 20_000);
  it.runIf(kind === 'postgres')(
    `streams ${scale.toLocaleString('en')} users and ${(scale * 10).toLocaleString('en')} transactions whole, in batches (figures printed for the note)`,
    async () => {
      const seedStart = Date.now();
      await db.execute(sql`
      insert into users (name, email, email_normalized, password_hash, country, role)
      select 'Bulk ' || i, 'bulk' || i || '@export.example', 'bulk' || i || '@export.example', 'x', 'Germany', 'user'
      from generate_series(1, ${scale}::int) as i`);
      await db.execute(sql`
      insert into transactions (user_id, type, token, network, coin_amount, usd_amount, price, status, direction, details)
      select u.id, 'withdrawal', 'bitcoin', 'bitcoin', 0.001, 50, 50000, 'approved', 'out',
             jsonb_build_object('txHash', md5(u.id::text || n::text) || md5(n::text))
      from (select id from users where email_normalized like 'bulk%@export.example') as u, generate_series(1, 10) as n`);
      await db.execute(sql`analyze`);
      const seededMs = Date.now() - seedStart;

      const measure = async (path: string) => {
        global.gc?.();
        const before = process.memoryUsage().rss;
        let peak = before;
        const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
        const started = Date.now();
        const result = await readStream(`${t.url}${path}`, t.admin);
        clearInterval(sampler);
        return { ...result, ms: Date.now() - started, beforeMb: before / 2 ** 20, peakMb: peak / 2 ** 20 };
      };
      const users = await measure('/api/admin/export/users');
      const transactions = await measure('/api/admin/export/transactions');
      const figure = (name: string, r: typeof users) =>
        `${name}: ${r.lines - 1} rows, ${(r.bytes / 2 ** 20).toFixed(1)} MiB in ${(r.ms / 1000).toFixed(1)} s, RSS ${r.beforeMb.toFixed(0)} → peak ${r.peakMb.toFixed(0)} MiB (+${(r.peakMb - r.beforeMb).toFixed(0)})`;
      console.log(
        `[export figures, PostgreSQL, seeded in ${(seededMs / 1000).toFixed(1)} s] ${figure('users', users)}; ${figure('transactions', transactions)}`,
      );
      const counts = (await db.execute(
        sql`select (select count(*)::int from users where role = 'user') as users, (select count(*)::int from transactions where voided_at is null) as transactions`,
      )) as unknown as { rows: Array<{ users: number; transactions: number }> };
      expect(counts.rows[0].transactions).toBeGreaterThanOrEqual(scale * 10);
      expect(users.lines).toBe(counts.rows[0].users + 1);
      expect(transactions.lines).toBe(counts.rows[0].transactions + 1);
    },
    900_000,
  );
});
