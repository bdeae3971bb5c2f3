import { sql } from 'drizzle-orm';
import { InvalidInputError } from '../../src/common/errors';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../src/common/principal';
import { DATABASE_HANDLE } from '../../src/db/database.module';
import { DATABASE, type Database, type DatabaseHandle } from '../../src/db/database';
import type { IdempotencyContext } from '../../src/modules/ledger/idempotency';
import { customer, LedgerService, platform, PLATFORM_SHARDS, transfer } from '../../src/modules/ledger/ledger.service';
import { toMoney } from '../../src/modules/ledger/money';
import { BALANCE_CHANGED_STATE, changedBalanceOf, guardFailureOf, type PlatformCode } from '../../src/modules/ledger/ledger.repository';
import { PRICE_MOVED_STATE, WalletTokensRepository } from '../../src/modules/wallet/wallet-tokens.repository';
import { WalletService } from '../../src/modules/wallet/wallet.service';
import { AdminDepositsService } from '../../src/modules/admin/admin-deposits.service';
import { BalanceAdjustmentsService } from '../../src/modules/admin/balance-adjustments.service';
import { TransactionStatusService } from '../../src/modules/admin/transaction-status.service';
import { TransactionVoidsService } from '../../src/modules/admin/transaction-voids.service';
import type { Actor } from '../../src/common/principal';
import { DATABASE_KINDS } from '../support/databases';
import { ADDRESSES, expectLedgerClean, fund, holdings, newCustomer, startWalletApp, type WalletApp } from '../support/wallet';

/**
 * Reads of the supported tokens and their prices: served by the in-process reference data cache once warm, so there
 * must be none; they are listed apart so a failure says which kind of trip came back.
 */
/** The start of a statement (what a failed assertion shows). */
const head = (statement: string) => statement.replace(/\s+/g, ' ').slice(0, 160);

const CACHED_READ = /^\s*select\b[\s\S]*\bfrom "(supported_tokens|coins)"/i;

/** Every shard of a platform account in these tokens: a posting leases one of them (steady state: all exist). */
const shardsOf = (code: PlatformCode, tokens: string[]) =>
  tokens.flatMap((token) => Array.from({ length: PLATFORM_SHARDS }, (_, i) => platform(code, token, i + 1)));

describe.each(DATABASE_KINDS)('database round trips per money operation on %s', (kind) => {
  let t: WalletApp;
  beforeAll(async () => {
    t = await startWalletApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    if (t) await expectLedgerClean(t);
  });

  /** The statements `work` sends, split into the token/price reads the cache serves and the rest. */
  async function measure<T>(work: () => Promise<T>) {
    const { result, statements } = await t.app.get<DatabaseHandle>(DATABASE_HANDLE).queries.measure(work);
    return { result, cachedReads: statements.filter((s) => CACHED_READ.test(s)), trips: statements.filter((s) => !CACHED_READ.test(s)) };
  }

  async function customerPrincipal(): Promise<Principal & { token: string }> {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 1000);
    return { id: user._id, role: 'user', name: 'Round Trip', email: 'round-trip@test.local', sessionId: 'unused', token: user.token };
  }

  const keyed = (key: string): IdempotencyContext => ({ scope: `round-trips ${key}`, key, status: 201, requestHash: 'h' });

  it('a steady-state swap (accounts known) is ONE statement: claim, token locks, price check, movement, rows, events', async () => {
    const wallet = t.app.get(WalletService);
    const user = await customerPrincipal();
    // Steady state: the accounts exist and their ids are cached (a first use of an account — the customer's ethereum
    // one, each of the swap pool's shards, leased per posting — costs extra trips once).
    const pools = shardsOf('swap_pool', ['bitcoin', 'ethereum']);
    await t.app.get(LedgerService).accountIds([...pools, customer(user.id, 'bitcoin'), customer(user.id, 'ethereum')], t.app.get<Database>(DATABASE));

    const plain = await measure(() => wallet.swap(user, undefined, { amount: '10', from: 'bitcoin', to: 'ethereum' }));
    expect(plain.trips.map(head)).toEqual([expect.stringMatching(/^with /)]);
    expect(plain.trips[0]).toMatch(/^with /);
    expect(plain.trips[0]).toMatch(/cp_require/);
    // Tokens and prices come from the reference data cache.
    expect(plain.cachedReads).toEqual([]);

    const withKey = await measure(() => wallet.swap(user, undefined, { amount: '10', from: 'ethereum', to: 'bitcoin' }, keyed(`swap-${user.id}`)));
    expect(withKey.trips.map(head)).toEqual([expect.stringMatching(/^with /)]);
    expect(withKey.trips[0]).toMatch(/insert into idempotency_keys/);
    expect(withKey.cachedReads).toEqual([]);
    expect(withKey.result.message).toBe('Swap successful');
    expect(Number((await holdings(t, user.token)).ethereum)).toBe(0);
  });

  it('a steady-state send is ONE statement', async () => {
    const wallet = t.app.get(WalletService);
    const user = await customerPrincipal();
    const send = (key?: string) =>
      wallet.send(user, undefined, 'bitcoin', { transferData: { amount: '10', address: ADDRESSES.bitcoin } }, key ? keyed(`send-${key}`) : undefined);
    await send();

    // The token, its networks (to choose the one the address is on) and its price come from the reference data cache.
    const plain = await measure(() => send());
    expect(plain.trips.map(head)).toEqual([expect.stringMatching(/^with /)]);
    expect(plain.cachedReads).toEqual([]);

    const withKey = await measure(() => send(user.id));
    expect(withKey.trips.map(head)).toEqual([expect.stringMatching(/^with /)]);
    expect(withKey.trips[0]).toMatch(/insert into idempotency_keys/);
    expect(withKey.cachedReads).toEqual([]);
    expect(withKey.result.transaction.status).toBe('pending');
  });

  it('a stale quote never executes: the price guard refuses a price replaced longer ago than the grace, accepts it just after', async () => {
    const user = await customerPrincipal();
    const db = t.app.get<Database>(DATABASE);
    const ledger = t.app.get(LedgerService);
    const tokens = t.app.get(WalletTokensRepository);
    const move = (price: string) =>
      ledger.postInOneRoundTrip(
        {
          kind: 'swap',
          transactionId: null,
          reason: 'price guard test',
          createdBy: user.id,
          legs: transfer(customer(user.id, 'bitcoin'), platform('swap_pool', 'bitcoin', 1), toMoney('0.0001')),
        },
        () => new InvalidInputError('short'),
        { guards: [tokens.priceGuard([{ coinId: 'bitcoin', price }])], onGuard: (code) => new Error(`guard ${code}`) },
      );
    const before = (await holdings(t, user.token)).bitcoin;
    // The price changes: a quote of the old one is still taken for a moment (as a request quoted just before).
    await db.execute(sql`update coins set current_price = 51000 where id = 'bitcoin'`);
    await move('50000');
    // Long after the change, the old price is refused and nothing moves; the current one is taken.
    await db.execute(sql`update coins set price_changed_at = now() - interval '1 minute' where id = 'bitcoin'`);
    await expect(move('50000')).rejects.toThrow(`guard ${PRICE_MOVED_STATE}`);
    await move('51000');
    await db.execute(sql`update coins set current_price = 50000 where id = 'bitcoin'`);
    expect(
      toMoney(before)
        .sub((await holdings(t, user.token)).bitcoin)
        .toString(),
    ).toBe('0.0002');
  });

  /** The admin (an Actor as the routes pass it) and a customer whose bitcoin account is known (steady state). */
  async function adminAndCustomer(): Promise<{ actor: Actor; user: Principal & { token: string } }> {
    const db = t.app.get<Database>(DATABASE);
    const { rows } = (await db.execute(sql`select id from users where role = 'admin' order by created_at limit 1`)) as unknown as {
      rows: Array<{ id: string }>;
    };
    const user = await customerPrincipal();
    await t.app
      .get(LedgerService)
      .accountIds(
        [
          customer(user.id, 'bitcoin'),
          ...shardsOf('deposits', ['bitcoin']),
          ...shardsOf('withdrawals_pending', ['bitcoin']),
          ...shardsOf('withdrawals_settled', ['bitcoin']),
          ...shardsOf('adjustments', ['bitcoin']),
        ],
        db,
      );
    return { actor: { id: rows[0].id, role: 'admin' }, user };
  }

  const ONE_STATEMENT = [expect.stringMatching(/^with /)];

  /** One call of the money function `name` (its fixed statement). */
  const CALL = (name: string) => [expect.stringMatching(new RegExp(`^select ${name}\\(`))];

  it('an admin deposit is ONE statement: the customer read, claim, token lock, credit, rows, events', async () => {
    const deposits = t.app.get(AdminDepositsService);
    const db = t.app.get<Database>(DATABASE);
    const { actor, user } = await adminAndCustomer();
    const { rows: names } = (await db.execute(sql`select name, email from users where id = ${user.id}::uuid`)) as unknown as {
      rows: Array<{ name: string; email: string }>;
    };
    const approved = await measure(() => deposits.deposit(actor, user.id, { network: 'bitcoin', amount: '100', status: 'approved' }));
    // The token and its networks come from the reference data cache; the customer is read by the function.
    expect(approved.trips.map(head)).toEqual(CALL('cp_deposit'));
    expect(approved.cachedReads).toEqual([]);
    expect(approved.result).toMatchObject({ user: names[0], status: 'approved' });

    const idem = keyed(`deposit-${user.id}`);
    const withKey = await measure(() => deposits.deposit(actor, user.id, { network: 'bitcoin', amount: '100', status: 'pending' }, idem));
    expect(withKey.trips.map(head)).toEqual(CALL('cp_deposit'));
    // The stored answer names the customer as the function read them, and is what the route sends.
    const { rows } = (await db.execute(sql`select response_body from idempotency_keys where scope = ${idem.scope} and key = ${idem.key}`)) as unknown as {
      rows: Array<{ response_body: string }>;
    };
    expect(rows[0].response_body).toBe(idem.storedBody);
    expect(JSON.parse(rows[0].response_body)).toEqual(JSON.parse(JSON.stringify(withKey.result)));
    expect(withKey.result).toMatchObject({ user: names[0], status: 'pending' });
    expect(Number((await holdings(t, user.token)).bitcoin)).toBeCloseTo(1100 / 50000, 8);
  });

  it('a deposit answers with the customer as the database has them, or 404', async () => {
    const deposits = t.app.get(AdminDepositsService);
    const db = t.app.get<Database>(DATABASE);
    const { actor, user } = await adminAndCustomer();
    await db.execute(sql`update users set name = 'Renamed Meanwhile' where id = ${user.id}::uuid`);
    const renamed = await measure(() => deposits.deposit(actor, user.id, { network: 'bitcoin', amount: '10', status: 'pending' }));
    expect(renamed.trips.map(head)).toEqual(CALL('cp_deposit'));
    expect(renamed.result).toMatchObject({ user: { name: 'Renamed Meanwhile' } });

    // The same for an "add" adjustment (one statement when the customer is known).
    await db.execute(sql`update users set name = 'Renamed Twice' where id = ${user.id}::uuid`);
    const add = await measure(() => t.app.get(BalanceAdjustmentsService).updateBalance(actor, user.id, { token: 'bitcoin', amount: 5, type: 'yes' }));
    expect(add.trips.length).toBeGreaterThan(1);
    expect(add.result).toMatchObject({ balance: { coinAmount: '0.02010000' }, transaction: { user: { name: 'Renamed Twice' } } });

    await db.execute(sql`update users set deactivated_at = now() where id = ${user.id}::uuid`);
    await expect(deposits.deposit(actor, user.id, { network: 'bitcoin', amount: '10', status: 'approved' })).rejects.toThrow('User not found.');
    // A refusal decided before the call (an unknown network) still answers the customer's 404 first.
    await expect(deposits.deposit(actor, user.id, { network: 'nowhere', amount: '10', status: 'approved' })).rejects.toThrow('User not found.');
    await expect(t.app.get(BalanceAdjustmentsService).updateBalance(actor, user.id, { token: 'bitcoin', amount: 5, type: 'yes' })).rejects.toThrow(
      'User not found.',
    );
    const { rows } = (await db.execute(sql`select count(*)::int as n from transactions where user_id = ${user.id}::uuid and type = 'deposit'`)) as unknown as {
      rows: Array<{ n: number }>;
    };
    expect(rows[0].n).toBe(1);
  });

  it('a status change and a void are ONE statement each, decided from the transaction as the database has it', async () => {
    const deposits = t.app.get(AdminDepositsService);
    const statuses = t.app.get(TransactionStatusService);
    const voids = t.app.get(TransactionVoidsService);
    const { actor, user } = await adminAndCustomer();
    const pending = (await deposits.deposit(actor, user.id, { network: 'bitcoin', amount: '100', status: 'pending' })) as { _id: string };

    const approve = await measure(() => statuses.modify(actor, { tId: pending._id, modification: 'approved', expectedStatus: 'pending' }));
    expect(approve.trips.map(head)).toEqual(CALL('cp_set_transaction_status'));
    expect(approve.cachedReads).toEqual([]);
    expect(approve.result).toMatchObject({ message: 'Status updated successfully', changed: true, transaction: { status: 'approved', symbol: 'btc' } });
    expect(Number((await holdings(t, user.token)).bitcoin)).toBeCloseTo(1100 / 50000, 8);

    // A status the transaction no longer has is refused under the row lock, nothing written.
    await expect(statuses.modify(actor, { tId: pending._id, modification: 'rejected', expectedStatus: 'pending' })).rejects.toThrow(
      'This transaction was changed meanwhile: it is now approved. Reload and try again.',
    );
    const again = await measure(() => statuses.modify(actor, { tId: pending._id, modification: 'approved' }));
    expect(again.trips.map(head)).toEqual(CALL('cp_set_transaction_status'));
    expect(again.result).toMatchObject({ message: 'The transaction is already approved.', changed: false });

    const voided = await measure(() => voids.void(actor, pending._id));
    // The symbols of the texts are the coins' (read by the function).
    expect(voided.trips.map(head)).toEqual(CALL('cp_void_transaction'));
    expect(voided.result).toEqual({ message: 'Transaction deleted successfully' });
    expect(Number((await holdings(t, user.token)).bitcoin)).toBeCloseTo(1000 / 50000, 8);
    await expect(voids.void(actor, pending._id)).rejects.toThrow('Transaction not found.');
  });

  it('a status change names the customer as they are now, whatever this instance saw before', async () => {
    const statuses = t.app.get(TransactionStatusService);
    const wallet = t.app.get(WalletService);
    const db = t.app.get<Database>(DATABASE);
    const { actor, user } = await adminAndCustomer();
    const send = await wallet.send(user, undefined, 'bitcoin', { transferData: { amount: '10', address: ADDRESSES.bitcoin } });
    const id = send.transaction._id;
    await wallet.history(undefined, { userId: user.id });
    const approve = await measure(() => statuses.modify(actor, { tId: id, modification: 'approved', expectedStatus: 'pending' }));
    expect(approve.trips.map(head)).toEqual(CALL('cp_set_transaction_status'));

    await db.execute(sql`update users set name = 'Renamed Meanwhile' where id = ${user.id}::uuid`);
    const back = await measure(() => statuses.modify(actor, { tId: id, modification: 'pending' }));
    expect(back.trips.map(head)).toEqual(CALL('cp_set_transaction_status'));
    expect(back.result).toMatchObject({ changed: true, transaction: { status: 'pending', user: { name: 'Renamed Meanwhile' } } });
    const cancel = await measure(() => statuses.modify(actor, { tId: id, modification: 'rejected' }));
    expect(cancel.trips.map(head)).toEqual(CALL('cp_set_transaction_status'));
    expect(cancel.result).toMatchObject({ transaction: { status: 'rejected', user: { name: 'Renamed Meanwhile' } } });
    expect(Number((await holdings(t, user.token)).bitcoin)).toBeCloseTo(1000 / 50000, 8);
    expect(await t.app.get(TransactionVoidsService).void(actor, id)).toEqual({ message: 'Transaction deleted successfully' });
    expect(Number((await holdings(t, user.token)).bitcoin)).toBeCloseTo(1000 / 50000, 8);
  });

  it('a steady-state balance adjustment is ONE statement: "add", and "set" and "add" with a key on the balance last seen', async () => {
    const ledger = t.app.get(LedgerService);
    const wallet = t.app.get(WalletService);
    const db = t.app.get<Database>(DATABASE);
    const { actor, user } = await adminAndCustomer();
    const customerAndBalance = expect.stringMatching(/^select .*from "ledger_accounts".* from "users"/);

    const add = await measure(() =>
      t.app.get(BalanceAdjustmentsService).updateBalance(actor, user.id, { token: 'bitcoin', amount: 500, type: 'yes', msg: 'Goodwill' }),
    );
    // No BEGIN/COMMIT; the balance before and after come from the account the statement locks.
    expect(add.trips.map(head)).toEqual(ONE_STATEMENT);
    expect(add.trips[0]).toMatch(/for no key update/);
    expect(add.result).toMatchObject({ message: 'Balance updated successfully', balance: { coinAmount: '0.03000000' } });
    const lastAudit = async () => {
      const { rows } = (await db.execute(
        sql`select before, after from audit_log where action = 'balance.adjust' and target_id = ${user.id} order by created_at desc limit 1`,
      )) as unknown as { rows: Array<{ before: Record<string, unknown>; after: Record<string, unknown> }> };
      return rows[0];
    };
    const audit = await lastAudit();
    expect(audit.before).toEqual({ token: 'bitcoin', balance: '0.02' });
    expect(audit.after).toMatchObject({
      token: 'bitcoin',
      balance: '0.03',
      reason: 'Goodwill',
      transactionId: (add.result as { transaction: { _id: string } }).transaction._id,
    });

    // "Set" decides from the balance: the one this instance last saw (here: the "add" above), checked under the lock.
    const set = await measure(() =>
      t.app
        .get(BalanceAdjustmentsService)
        .updateBalance(actor, user.id, { token: 'bitcoin', amount: 250, type: 'no' }, { ...keyed(`set-${user.id}`), status: 200 }),
    );
    expect(set.trips.map(head)).toEqual(ONE_STATEMENT);
    expect(set.trips[0]).toMatch(/insert into idempotency_keys/);
    expect(set.trips[0]).toMatch(/from users/);
    expect(set.result).toMatchObject({ balance: { coinAmount: '0.00500000' }, transaction: { direction: 'out', coinAmount: '0.02500000' } });
    expect((await holdings(t, user.token)).bitcoin).toBe('0.00500000');

    const addWithKey = await measure(() =>
      t.app
        .get(BalanceAdjustmentsService)
        .updateBalance(actor, user.id, { token: 'bitcoin', amount: 50, type: 'yes' }, { ...keyed(`add-${user.id}`), status: 200 }),
    );
    expect(addWithKey.trips.map(head)).toEqual(ONE_STATEMENT);
    expect(addWithKey.result).toMatchObject({ balance: { coinAmount: '0.00600000' } });

    // A balance moved by something else (the customer's swap): the guard aborts the first statement and names the
    // balance it found; the second decides from that one. Nothing is read apart, nothing moves twice.
    await wallet.swap({ ...user }, undefined, { amount: '100', from: 'bitcoin', to: 'ethereum' });
    const stale = await measure(() =>
      t.app.get(BalanceAdjustmentsService).updateBalance(actor, user.id, { token: 'bitcoin', amount: 150, type: 'no', msg: 'Reset' }),
    );
    expect(stale.trips.map(head)).toEqual([...ONE_STATEMENT, ...ONE_STATEMENT]);
    expect(stale.result).toMatchObject({ balance: { coinAmount: '0.00300000' }, transaction: { direction: 'out', coinAmount: '0.00100000' } });
    expect((await lastAudit()).before).toEqual({ token: 'bitcoin', balance: '0.004' });
    expect((await holdings(t, user.token)).bitcoin).toBe('0.00300000');

    // No balance seen yet (an account this instance knows, never read): customer and balance in one query first.
    const other = await newCustomer(t);
    await ledger.accountIds([customer(other._id, 'bitcoin')], db);
    const first = await measure(() => t.app.get(BalanceAdjustmentsService).updateBalance(actor, other._id, { token: 'bitcoin', amount: 100, type: 'no' }));
    expect(first.trips.map(head)).toEqual([customerAndBalance, expect.stringMatching(/^with /)]);
    expect(first.result).toMatchObject({ balance: { coinAmount: '0.00200000' }, transaction: { direction: 'in' } });

    // A balance that is no longer the one read: a movement stating it (`expectedBalance`) aborts, nothing moves, and
    // the error names the balance found; so does `balanceGuard` (what a "set" that moves nothing states it with).
    const read = await ledger.customerBalance(user.id, 'bitcoin');
    await t.app.get(BalanceAdjustmentsService).updateBalance(actor, user.id, { token: 'bitcoin', amount: 50, type: 'yes' });
    const postFromRead = (options: Parameters<LedgerService['postInOneRoundTrip']>[2]) =>
      ledger.postInOneRoundTrip(
        {
          kind: 'adjustment',
          transactionId: null,
          reason: 'balance guard test',
          createdBy: actor.id,
          legs: transfer(customer(user.id, 'bitcoin'), platform('adjustments', 'bitcoin'), toMoney(read.balance)),
        },
        () => new InvalidInputError('short'),
        options,
      );
    for (const options of [
      { guards: [t.app.get(WalletTokensRepository).liveGuard(['bitcoin'])], expectedBalance: read },
      { guards: [ledger.balanceGuard(read.accountId, read.balance)] },
    ]) {
      const error = await postFromRead(options).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(guardFailureOf(error)?.code).toBe(BALANCE_CHANGED_STATE);
      expect(Number(changedBalanceOf(error))).toBe(0.004);
    }
    expect((await holdings(t, user.token)).bitcoin).toBe('0.00400000');
  });
});
