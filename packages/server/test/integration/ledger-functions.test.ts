import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { moneyRefusalOf } from '../../src/modules/ledger/money-errors';
import { DATABASE_KINDS } from '../support/databases';
import { expectLedgerClean, fund, newCustomer, startWalletApp, type WalletApp } from '../support/wallet';

/** The rules of the ledger's core functions (drizzle/0012_ledger_core.sql), called directly. */
describe.each(DATABASE_KINDS)('ledger core functions on %s', (kind) => {
  let t: WalletApp;
  let db: Database;
  beforeAll(async () => {
    t = await startWalletApp(kind);
    db = t.app.get<Database>(DATABASE);
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    if (t) await expectLedgerClean(t);
  });

  const rows = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => moneyRefusalOf(error) ?? { code: 'other', detail: String((error as { cause?: Error }).cause?.message ?? (error as Error).message) },
    );
  const lineCount = async () => (await rows<{ n: number }>(sql`select count(*)::int as n from journal_lines`))[0].n;
  const balanceOf = async (userId: string, token: string) =>
    (await rows<{ balance: string }>(sql`select balance::text as balance from ledger_accounts where user_id = ${userId}::uuid and token = ${token}`))[0]
      ?.balance;

  it('every money operation the server calls keeps generic plans (0024): planned once per connection, not on every call', async () => {
    const called = [
      ...new Set([...readFileSync(join(__dirname, '../../src/queries/money.sql'), 'utf8').matchAll(/^select (cp_[a-z_]+)\(/gm)].map((m) => m[1])),
    ];
    expect(called.length).toBeGreaterThan(10);
    const settings = await rows<{ name: string; config: string[] | null }>(
      sql`select proname as name, proconfig as config from pg_proc where proname = any(string_to_array(${called.join(',')}::text, ','))`,
    );
    const without = called.filter((name) => {
      const found = settings.filter((row) => row.name === name);
      return !found.length || found.some((row) => !row.config?.includes('plan_cache_mode=force_generic_plan'));
    });
    expect(without).toEqual([]);
  });

  it('cp_post moves balances and writes one line per account; an overdraft raises CPI01 naming the token and writes nothing', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100); // 0.002 BTC
    const move = (amount: string) =>
      db.execute(
        sql`select cp_post('test', null, 'core test', null, cp_transfer(cp_customer_account(${user._id}::uuid, 'bitcoin'), cp_platform_account('adjustments', 'bitcoin', null), ${amount}::numeric))`,
      );
    await move('0.0005');
    expect(await balanceOf(user._id, 'bitcoin')).toBe('0.001500000000000000');
    const lines = await lineCount();
    expect(await refusal(move('0.0016'))).toEqual({ code: 'CPI01', detail: 'bitcoin' });
    expect(await balanceOf(user._id, 'bitcoin')).toBe('0.001500000000000000');
    expect(await lineCount()).toBe(lines);
    // Back to where it was (the ledger stays balanced for the check after each test).
    await move('-0.0005');
  });

  it('cp_post refuses an entry whose lines do not sum to zero per token, and writes no entry for moves that net to nothing', async () => {
    const user = await newCustomer(t);
    const unbalanced = await refusal(
      db.execute(
        sql`select cp_post('test', null, 'unbalanced', null, array[row(cp_platform_account('adjustments', 'bitcoin', null), 1)::cp_move, row(cp_platform_account('adjustments', 'ethereum', null), -1)::cp_move])`,
      ),
    );
    expect(unbalanced?.detail).toMatch(/does not sum to zero per token/);
    const entries = async () => (await rows<{ n: number }>(sql`select count(*)::int as n from journal_entries`))[0].n;
    const before = await entries();
    const [{ entry }] = await rows<{ entry: string | null }>(
      sql`select cp_post('test', null, 'nothing', null, cp_transfer(cp_customer_account(${user._id}::uuid, 'bitcoin'), cp_customer_account(${user._id}::uuid, 'bitcoin'), 1)) as entry`,
    );
    expect(entry).toBeNull();
    expect(await entries()).toBe(before);
  });

  it('cp_claim_key claims a key once (CPK01 after), cp_require_live_tokens names the token that is not supported (CPT01)', async () => {
    const key = { scope: `core ${kind}`, key: 'k1', requestHash: 'h', status: 201, body: '{"ok":true}' };
    await db.execute(sql`select cp_claim_key(${JSON.stringify(key)}::jsonb)`);
    expect((await refusal(db.execute(sql`select cp_claim_key(${JSON.stringify(key)}::jsonb)`)))?.code).toBe('CPK01');
    const [stored] = await rows<{ state: string; response_body: string }>(
      sql`select state, response_body from idempotency_keys where scope = ${key.scope} and key = 'k1'`,
    );
    expect(stored).toEqual({ state: 'done', response_body: '{"ok":true}' });
    await db.execute(sql`select cp_require_live_tokens(array['bitcoin', 'ethereum'])`);
    expect(await refusal(db.execute(sql`select cp_require_live_tokens(array['bitcoin', 'dogecoin'])`))).toEqual({ code: 'CPT01', detail: 'dogecoin' });
  });

  it('cp_customer_account and cp_platform_account create an account once and return the same id after', async () => {
    const user = await newCustomer(t);
    const [a] = await rows<{ id: string }>(sql`select cp_customer_account(${user._id}::uuid, 'tether') as id`);
    const [b] = await rows<{ id: string }>(sql`select cp_customer_account(${user._id}::uuid, 'tether') as id`);
    expect(a.id).toBe(b.id);
    const [created] = await rows<{ id: string }>(sql`select cp_platform_account('swap_pool', 'tether', 7) as id`);
    const [shard] = await rows<{ code: string }>(sql`select platform_code as code from ledger_accounts where id = ${created.id}::uuid`);
    expect(shard.code).toBe('swap_pool#7');
  });
});
