import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../src/common/principal';
import { DATABASE_HANDLE } from '../../src/db/database.module';
import { DATABASE, type Database, type DatabaseHandle } from '../../src/db/database';
import type { IdempotencyContext } from '../../src/modules/ledger/idempotency';
import { LedgerService } from '../../src/modules/ledger/ledger.service';
import { toMoney } from '../../src/modules/ledger/money';
import { PRICE_CHANGE_GRACE_MS } from '../../src/modules/wallet/wallet-tokens.repository';
import { SWAP } from '../../src/modules/wallet/wallet-functions';
import { MONEY_CODES } from '../../src/modules/ledger/money-errors';
import { randomUUID } from 'node:crypto';
import { SendsService } from '../../src/modules/wallet/sends.service';
import { SanctionsListCache } from '../../src/modules/compliance/sanctions-list.cache';
import { SwapsService } from '../../src/modules/wallet/swaps.service';
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

  it('a swap is ONE statement: cp_swap (claim, token locks, price check, movement, rows) in a batch of the group commit, then its events', async () => {
    const user = await customerPrincipal();

    // The first swap into a token creates the customer's account inside the function: still one trip.
    const plain = await measure(() => t.app.get(SwapsService).swap(user, undefined, { amount: '10', from: 'bitcoin', to: 'ethereum' }));
    expect(plain.trips.map(head)).toEqual([expect.stringMatching(/^select cp_swap_batch\(/)]);
    // Tokens and prices come from the reference data cache.
    expect(plain.cachedReads).toEqual([]);

    const key = keyed(`swap-${user.id}`);
    const withKey = await measure(() => t.app.get(SwapsService).swap(user, undefined, { amount: '10', from: 'ethereum', to: 'bitcoin' }, key));
    expect(withKey.trips.map(head)).toEqual([expect.stringMatching(/^select cp_swap_batch\(/)]);
    expect(withKey.cachedReads).toEqual([]);
    expect(withKey.result.message).toBe('Swap successful');
    expect(Number((await holdings(t, user.token)).ethereum)).toBe(0);
    // The key was claimed by the same statement, with the answer it replays.
    const stored = (await t.app
      .get<Database>(DATABASE)
      .execute(sql`select state, response_body from idempotency_keys where scope = ${key.scope} and key = ${key.key}`)) as unknown as {
      rows: Array<{ state: string; response_body: string }>;
    };
    expect(stored.rows).toEqual([{ state: 'done', response_body: key.storedBody }]);
  });

  it('a send is ONE statement: the cp_send function (the sanctions list screened in memory)', async () => {
    const user = await customerPrincipal();
    const send = (key?: string) =>
      t.app
        .get(SendsService)
        .send(user, undefined, 'bitcoin', { transferData: { amount: '10', address: ADDRESSES.bitcoin } }, key ? keyed(`send-${key}`) : undefined);

    // The token, its networks (to choose the one the address is on) and its price come from the reference data cache;
    // the sanctions list from its own in-memory copy, loaded once and dropped when the list changes (NOTIFY).
    await t.app.get(SanctionsListCache).get();
    const plain = await measure(() => send());
    expect(plain.trips.map(head)).toEqual([expect.stringMatching(/^select cp_send\(/)]);
    expect(plain.cachedReads).toEqual([]);

    const withKey = await measure(() => send(user.id));
    expect(withKey.trips.map(head)).toEqual([expect.stringMatching(/^select cp_send\(/)]);
    expect(withKey.cachedReads).toEqual([]);
    expect(withKey.result.transaction.status).toBe('pending');
  });

  it('a stale quote never executes: a price replaced longer ago than the grace is refused and nothing moves; one replaced just now is taken', async () => {
    const user = await customerPrincipal();
    const db = t.app.get<Database>(DATABASE);
    const ledger = t.app.get(LedgerService);
    const ethereumPrice = async () =>
      ((await db.execute(sql`select current_price::text as price from coins where id = 'ethereum'`)) as unknown as { rows: Array<{ price: string }> }).rows[0]
        .price;
    const swapAt = async (bitcoinPrice: string) => {
      const at = new Date();
      const eth = await ethereumPrice();
      return ledger.run(
        SWAP,
        (shard) => [
          randomUUID(),
          user.id,
          'bitcoin',
          'ethereum',
          '0.0001',
          // The market conversion (no fee schedule): what cp_swap_terms answers.
          toMoney('0.0001').mul(bitcoinPrice).div(eth).toDecimalPlaces(6, 1).toFixed(),
          '5',
          bitcoinPrice,
          eth,
          'price rule test',
          {},
          at,
          PRICE_CHANGE_GRACE_MS,
          shard,
          null,
          null,
          null,
          '0',
          '0',
        ],
        { refuse: ({ code }) => new Error(`refused ${code}`) },
      );
    };
    const before = (await holdings(t, user.token)).bitcoin;
    // The price changes: a quote of the old one is still taken for a moment (as a request quoted just before).
    await db.execute(sql`update coins set current_price = 51000 where id = 'bitcoin'`);
    await swapAt('50000');
    // Long after the change, the old price is refused and nothing moves; the current one is taken.
    await db.execute(sql`update coins set price_changed_at = now() - interval '1 minute' where id = 'bitcoin'`);
    await expect(swapAt('50000')).rejects.toThrow(`refused ${MONEY_CODES.priceMoved}`);
    await swapAt('51000');
    await db.execute(sql`update coins set current_price = 50000 where id = 'bitcoin'`);
    expect(
      toMoney(before)
        .sub((await holdings(t, user.token)).bitcoin)
        .toString(),
    ).toBe('0.0002');
  });

  /** The admin (an Actor as the routes pass it) and a funded customer. */
  async function adminAndCustomer(): Promise<{ actor: Actor; user: Principal & { token: string } }> {
    const db = t.app.get<Database>(DATABASE);
    const { rows } = (await db.execute(sql`select id from users where role = 'admin' order by created_at limit 1`)) as unknown as {
      rows: Array<{ id: string }>;
    };
    const user = await customerPrincipal();
    return { actor: { id: rows[0].id, role: 'admin' }, user };
  }

  /** One call of the adjustment function (drizzle/0015_adjustment_functions.sql). */
  const ONE_ADJUSTMENT = [expect.stringMatching(/^select cp_adjust_balance\(/)];

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

    // An adjustment reads the customer in its own function: one call, answering with today's name.
    await db.execute(sql`update users set name = 'Renamed Twice' where id = ${user.id}::uuid`);
    const add = await measure(() => t.app.get(BalanceAdjustmentsService).updateBalance(actor, user.id, { token: 'bitcoin', amount: 5, type: 'yes' }));
    expect(add.trips.map(head)).toEqual(ONE_ADJUSTMENT);
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
    const send = await t.app.get(SendsService).send(user, undefined, 'bitcoin', { transferData: { amount: '10', address: ADDRESSES.bitcoin } });
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

  it('a balance adjustment is ONE call, "add" or "set", with or without a key: a "set" is decided under the lock', async () => {
    const adjustments = t.app.get(BalanceAdjustmentsService);
    const db = t.app.get<Database>(DATABASE);
    const { actor, user } = await adminAndCustomer();

    const add = await measure(() => adjustments.updateBalance(actor, user.id, { token: 'bitcoin', amount: 500, type: 'yes', msg: 'Goodwill' }));
    // No BEGIN/COMMIT, nothing read first; the token and its price come from the reference data cache.
    expect(add.trips.map(head)).toEqual(ONE_ADJUSTMENT);
    expect(add.cachedReads).toEqual([]);
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

    // "Set" with a key: the claim, the decision from the locked balance and the stored answer in the same call.
    const setKey = { ...keyed(`set-${user.id}`), status: 200 };
    const set = await measure(() => adjustments.updateBalance(actor, user.id, { token: 'bitcoin', amount: 250, type: 'no' }, setKey));
    expect(set.trips.map(head)).toEqual(ONE_ADJUSTMENT);
    expect(set.result).toMatchObject({ balance: { coinAmount: '0.00500000' }, transaction: { direction: 'out', coinAmount: '0.02500000' } });
    expect((await holdings(t, user.token)).bitcoin).toBe('0.00500000');
    // What a retry with the key replays is the answer given, byte for byte.
    const { rows: stored } = (await db.execute(
      sql`select response_body from idempotency_keys where scope = ${setKey.scope} and key = ${setKey.key}`,
    )) as unknown as { rows: Array<{ response_body: string }> };
    expect(stored[0].response_body).toBe(setKey.storedBody);
    expect(JSON.parse(stored[0].response_body)).toEqual(set.result);

    const addWithKey = await measure(() =>
      adjustments.updateBalance(actor, user.id, { token: 'bitcoin', amount: 50, type: 'yes' }, { ...keyed(`add-${user.id}`), status: 200 }),
    );
    expect(addWithKey.trips.map(head)).toEqual(ONE_ADJUSTMENT);
    expect(addWithKey.result).toMatchObject({ balance: { coinAmount: '0.00600000' } });

    // A balance moved by something else (the customer's swap): nothing of it was seen, and the "set" still decides from
    // the balance it finds under the lock.
    await t.app.get(SwapsService).swap({ ...user }, undefined, { amount: '100', from: 'bitcoin', to: 'ethereum' });
    const moved = await measure(() => adjustments.updateBalance(actor, user.id, { token: 'bitcoin', amount: 150, type: 'no', msg: 'Reset' }));
    expect(moved.trips.map(head)).toEqual(ONE_ADJUSTMENT);
    expect(moved.result).toMatchObject({ balance: { coinAmount: '0.00300000' }, transaction: { direction: 'out', coinAmount: '0.00100000' } });
    expect((await lastAudit()).before).toEqual({ token: 'bitcoin', balance: '0.004' });
    expect((await holdings(t, user.token)).bitcoin).toBe('0.00300000');

    // "Set" to the balance it has: nothing moves, nothing is written, the answer has no transaction.
    const same = await measure(() => adjustments.updateBalance(actor, user.id, { token: 'bitcoin', amount: 150, type: 'no', msg: 'Again' }));
    expect(same.trips.map(head)).toEqual(ONE_ADJUSTMENT);
    expect(same.result).toEqual({
      message: 'Balance updated successfully',
      balance: expect.objectContaining({ coinAmount: '0.00300000', balance: 150 }),
      transaction: null,
    });
    expect((await lastAudit()).after).toMatchObject({ reason: 'Reset' });

    // A customer whose account was never used: the function creates it, still one call.
    const other = await newCustomer(t);
    const first = await measure(() => adjustments.updateBalance(actor, other._id, { token: 'bitcoin', amount: 100, type: 'no' }));
    expect(first.trips.map(head)).toEqual(ONE_ADJUSTMENT);
    expect(first.result).toMatchObject({ balance: { coinAmount: '0.00200000' }, transaction: { direction: 'in' } });
  });
});
