import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCustomer, startWalletApp, type WalletApp } from '../support/wallet';

/**
 * The locks of two rules of the money functions (drizzle/0064_lighter_money_checks.sql), on PostgreSQL (PGlite runs one
 * transaction at a time): a token's liveness is held by a shared advisory lock that every change of its
 * supported_tokens row waits for, and a customer's unfrozen state by a key-share lock of the users row that the
 * freeze's FOR UPDATE waits for. Each holds exactly as the row share locks they replace did.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('the locks of the token and freeze rules on postgres', () => {
  let t: WalletApp;
  const clients: Client[] = [];
  beforeAll(async () => {
    t = await startWalletApp('postgres');
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
    await t?.close();
  });

  async function connect(): Promise<Client> {
    const client = new Client({ connectionString: t.config.databaseUrl });
    await client.connect();
    clients.push(client);
    return client;
  }

  /** Whether `promise` is still pending after `ms` (a statement waiting for a lock). */
  async function stillWaiting(promise: Promise<unknown>, ms = 400): Promise<boolean> {
    const marker = Symbol('pending');
    return (await Promise.race([promise.then(() => undefined), new Promise((resolve) => setTimeout(() => resolve(marker), ms))])) === marker;
  }

  const codeOf = (promise: Promise<unknown>) =>
    promise.then(
      () => 'passed',
      (error: { code?: string }) => error.code,
    );

  it('a token removal waits for the money operations that checked it; one after the removal is refused (CPT01)', async () => {
    const [operation, admin, later] = [await connect(), await connect(), await connect()];
    await operation.query('begin');
    await operation.query(`select cp_require_live_tokens(array['ethereum', 'bitcoin'])`);

    const removal = admin.query(`update supported_tokens set deleted_at = now() where coin_id = 'bitcoin' and deleted_at is null`);
    expect(await stillWaiting(removal)).toBe(true);
    // An operation on another token does not wait for the removal.
    await later.query(`select cp_require_live_tokens(array['tether'])`);

    await operation.query('commit');
    await removal;
    expect(await codeOf(later.query(`select cp_require_live_tokens(array['bitcoin'])`))).toBe('CPT01');

    // A removal in flight: a check waits for it, then sees it (and an undone removal lets the check pass).
    await admin.query(`update supported_tokens set deleted_at = null where coin_id = 'bitcoin'`);
    await admin.query('begin');
    await admin.query(`update supported_tokens set deleted_at = now() where coin_id = 'bitcoin'`);
    const check = codeOf(later.query(`select cp_require_live_tokens(array['bitcoin'])`));
    expect(await stillWaiting(check)).toBe(true);
    await admin.query('rollback');
    expect(await check).toBe('passed');
  });

  it("a freeze waits for the customer's money operations in flight; one after the freeze is refused (CPZ01)", async () => {
    const user = await newCustomer(t);
    const [operation, admin, later] = [await connect(), await connect(), await connect()];
    await operation.query('begin');
    await operation.query('select cp_require_unfrozen($1)', [user._id]);

    // The freeze locks the customer's row FOR UPDATE (AccountFreezesRepository), then writes the freeze.
    await admin.query('begin');
    const lock = admin.query('select 1 from users where id = $1 for update', [user._id]);
    expect(await stillWaiting(lock)).toBe(true);
    // Another operation of the same customer shares the lock.
    await later.query('select cp_require_unfrozen($1)', [user._id]);

    await operation.query('commit');
    await lock;
    await admin.query(`insert into account_freezes (user_id, reason) values ($1, 'test')`, [user._id]);
    const after = codeOf(later.query('select cp_require_unfrozen($1)', [user._id]));
    expect(await stillWaiting(after)).toBe(true);
    await admin.query('commit');
    expect(await after).toBe('CPZ01');
  });
});
