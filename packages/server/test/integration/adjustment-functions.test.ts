import type { UpdateBalanceDto } from '@coinpurse/contract';
import { sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Actor } from '../../src/common/principal';
import { DATABASE, type Database } from '../../src/db/database';
import { adjustmentLegs } from '../../src/modules/admin/adjustment-rows';
import { BalanceAdjustmentsService } from '../../src/modules/admin/balance-adjustments.service';
import { inTransaction } from '../../src/db/in-transaction';
import { type BoundEffect, boundLines } from '../../src/modules/ledger/four-eyes-policy';
import { toMoney, usdValue } from '../../src/modules/ledger/money';
import { ReferenceDataCache } from '../../src/modules/reference-data/reference-data.cache';
import { describe as describeQuantity, groupThousands, usdText } from '../../src/modules/wallet/wallet-common';
import { DATABASE_KINDS } from '../support/databases';
import { bearer } from '../support/test-app';
import { expectLedgerClean, fund, holdings, newCustomer, startWalletApp, type WalletApp } from '../support/wallet';

/**
 * The rules of cp_adjust_balance (drizzle/0015_adjustment_functions.sql): a "set" decided under the lock, an approval's
 * bound balance, the refusals, and the texts it writes as TypeScript would. Bitcoin is at 50,000 USD, tether at 1.
 */

async function rows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}

describe.each(DATABASE_KINDS)('balance adjustment functions on %s', (kind) => {
  let t: WalletApp;
  let db: Database;
  let admin: Actor;

  beforeAll(async () => {
    // Correctness under contention, not latency: generous lock and statement timeouts for busy cores.
    t = await startWalletApp(kind, { DB_LOCK_TIMEOUT_MS: '60000', DB_STATEMENT_TIMEOUT_MS: '120000' });
    db = t.app.get(DATABASE);
    const [row] = await rows<{ id: string }>(db, sql`select id from users where role = 'admin' order by created_at limit 1`);
    admin = { id: row.id, role: 'admin' };
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    if (t) await expectLedgerClean(t);
  });

  const adjustments = () => t.app.get(BalanceAdjustmentsService);
  const count = async (table: 'transactions' | 'notifications' | 'audit_log' | 'journal_entries') =>
    (await rows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.raw(table)}`))[0].n;

  it('writes the texts and values TypeScript would: amounts grouped, cut to the decimals, USD to the cent', async () => {
    const user = await newCustomer(t);
    await adjustments().updateBalance(admin, user._id, { token: 'tether', amount: '1234567.891', type: 'yes', msg: 'Big one.' });
    const set = await adjustments().updateBalance(admin, user._id, { token: 'tether', amount: '0.5', type: 'no', msg: 'Down.' });
    expect(set).toMatchObject({
      balance: { token: 'tether', coinAmount: '0.50', balance: 0.5, price: '1', symbol: 'usdt' },
      transaction: { type: 'adjustment', direction: 'out', coinAmount: '1234567.39', amount: 1234567.39, note: 'Down.', user: { email: user.email } },
    });
    const notes = await rows<{ message: string }>(db, sql`select message from notifications where user_id = ${user._id} order by created_at, message`);
    expect(notes.map((n) => n.message).sort()).toEqual([
      'Big one. Your USDT balance was credited with 1,234,567.89 USDT ($1,234,567.89).',
      'Down. Your USDT balance was debited by 1,234,567.39 USDT ($1,234,567.39).',
    ]);
    const [row] = await rows<{ coin_amount: string; usd_amount: string; details: unknown }>(
      db,
      sql`select coin_amount::text, usd_amount::text, details from transactions where user_id = ${user._id} and direction = 'out'`,
    );
    expect([Number(row.coin_amount), Number(row.usd_amount), row.details]).toEqual([1234567.39, 1234567.39, { mode: 'set', requestedUsd: '0.5' }]);
    const [audit] = await rows<{ before: unknown; after: unknown }>(
      db,
      sql`select before, after from audit_log where action = 'balance.adjust' and target_id = ${user._id} and after ->> 'reason' = 'Down.'`,
    );
    expect(audit).toEqual({
      before: { token: 'tether', balance: '1234567.89' },
      after: { token: 'tether', balance: '0.5', reason: 'Down.', transactionId: (set as { transaction: { _id: string } }).transaction._id },
    });
  });

  it('the SQL text and value helpers agree with money.ts and wallet-common.ts, ties to the even digit included', async () => {
    const cases: Array<[string, string]> = [
      ['0.00000001', '12344.5'], // 0.000123445: a tie, kept digit even
      ['0.00000001', '12345.5'], // 0.000123455: a tie, kept digit odd
      ['0.12345678', '50000'],
      ['1234567.891', '0.999999999'],
      ['0', '50000'],
      ['3', '0.333333333333'],
    ];
    for (const [quantity, price] of cases) {
      const [row] = await rows<{ usd: string; usd_text: string; quantity_text: string }>(
        db,
        sql`select trim_scale(cp_usd_value(${quantity}::numeric, ${price}::numeric))::text as usd,
          cp_usd_text(cp_usd_value(${quantity}::numeric, ${price}::numeric)) as usd_text,
          cp_quantity_text(${quantity}::numeric, 8, 'btc') as quantity_text`,
      );
      const usd = usdValue(quantity, price);
      expect([row.usd, row.usd_text, row.quantity_text]).toEqual([
        usd.isZero() ? '0' : usd.toFixed(),
        usdText(usd.toFixed()),
        describeQuantity(quantity, 'bitcoin', 'btc'),
      ]);
    }
    for (const decimal of ['0', '999', '1000', '1234567.5', '-1234.5', '12345678901234567890.000001']) {
      const [row] = await rows<{ text: string }>(db, sql`select cp_group_thousands(${decimal}) as text`);
      expect(row.text).toBe(groupThousands(decimal));
    }
  });

  it('a "set" to the balance it has moves nothing and writes nothing: the answer has no transaction', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    const before = await Promise.all([count('transactions'), count('notifications'), count('audit_log'), count('journal_entries')]);
    const answer = await adjustments().updateBalance(admin, user._id, { token: 'bitcoin', amount: 100, type: 'no' });
    expect(answer).toEqual({
      message: 'Balance updated successfully',
      balance: { token: 'bitcoin', balance: 100, symbol: 'btc', name: 'Bitcoin', coinAmount: '0.00200000', coinAmountExact: '0.002', price: '50000' },
      transaction: null,
    });
    expect(await Promise.all([count('transactions'), count('notifications'), count('audit_log'), count('journal_entries')])).toEqual(before);
  });

  it('an approval applies only from the balance it bound (CPB01: 409, nothing moves), then exactly its delta', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'tether', 100);
    const approver: Actor = { ...admin, approval: { id: randomUUID(), requestedBy: randomUUID() } };
    const apply = (effect: BoundEffect, input: UpdateBalanceDto = { token: 'tether', amount: '150', type: 'no' }) =>
      inTransaction(db, (tx) => adjustments().updateBalance(approver, user._id, input, undefined, { tx, effect }));
    const setFrom = (before: string, after: string): BoundEffect => ({
      lines: boundLines(adjustmentLegs(user._id, 'tether', toMoney(after).sub(before))),
      price: '1',
      balanceBefore: before,
      balanceAfter: after,
    });
    const transactions = await count('transactions');
    await expect(apply(setFrom('90', '150'))).rejects.toThrow('The balance changed since this was requested; ask again.');
    expect([(await holdings(t, user.token)).tether, await count('transactions')]).toEqual(['100.00', transactions]);

    const applied = await apply(setFrom('100', '150'));
    expect(applied).toMatchObject({ balance: { coinAmount: '150.00' }, transaction: { direction: 'in', coinAmount: '50.00' } });
    const [audit] = await rows<{ after: Record<string, unknown> }>(
      db,
      sql`select after from audit_log where action = 'balance.adjust' and target_id = ${user._id} order by created_at desc limit 1`,
    );
    expect(audit.after).toMatchObject({ balance: '150', approval: { ...approver.approval, approvedBy: admin.id } });

    // A debit the balance no longer covers is refused as before (nothing moves).
    const debit: BoundEffect = { lines: boundLines(adjustmentLegs(user._id, 'tether', toMoney('-200'))), price: '1' };
    await expect(apply(debit, { token: 'tether', amount: '200', type: 'yes' })).rejects.toThrow('Insufficient USDT balance');
    expect((await holdings(t, user.token)).tether).toBe('150.00');
  });

  it('refuses a customer gone (404) and a token removed meanwhile (400), writing nothing', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    const transactions = await count('transactions');
    // Removed meanwhile: this instance's cache still lists the token (its invalidation held back), the function finds it gone.
    const cache = t.app.get(ReferenceDataCache);
    await cache.get();
    const held = vi.spyOn(cache, 'invalidate').mockImplementation(() => undefined);
    await db.execute(sql`update supported_tokens set deleted_at = now() where coin_id = 'ethereum' and deleted_at is null`);
    try {
      await expect(adjustments().updateBalance(admin, user._id, { token: 'ethereum', amount: 10, type: 'yes' })).rejects.toThrow(
        'ETH is no longer a supported token: it was removed meanwhile. Reload and try again.',
      );
    } finally {
      await db.execute(
        sql`update supported_tokens set deleted_at = null where id = (select id from supported_tokens where coin_id = 'ethereum' order by deleted_at desc nulls last limit 1)`,
      );
      held.mockRestore();
      cache.invalidate();
    }
    await db.execute(sql`update users set deactivated_at = now() where id = ${user._id}`);
    await expect(adjustments().updateBalance(admin, user._id, { token: 'bitcoin', amount: 10, type: 'no' })).rejects.toThrow('User not found.');
    await expect(adjustments().updateBalance(admin, user._id, { token: 'nope', amount: 10, type: 'no' })).rejects.toThrow('User not found.');
    expect(await count('transactions')).toBe(transactions);
  });

  it('a keyed "set" over HTTP: the answer decided under the lock is the one replayed, byte for byte, with one effect', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    const send = () =>
      t.http
        .post(`/api/admin/update-balance/${user._id}`)
        .set(bearer(t.admin))
        .set('Idempotency-Key', `set-${user._id}`)
        .send({ token: 'bitcoin', amount: 40, type: 'no', msg: 'Keyed' })
        .expect(200);
    const first = await send();
    const again = await send();
    expect(first.body).toMatchObject({
      balance: { coinAmount: '0.00080000', balance: 40 },
      transaction: { direction: 'out', coinAmount: '0.00120000', amount: 60 },
    });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(first.text);
    expect((await rows<{ n: number }>(db, sql`select count(*)::int as n from transactions where user_id = ${user._id} and note = 'Keyed'`))[0].n).toBe(1);
  });

  it.runIf(kind === 'postgres')('concurrent "set" and "add" calls on one balance stay exact: each decided from the balance the one before left', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    // Targets no chain of 5 USD adds from 100 USD or from another target reaches, so every call moves something.
    const targets = Array.from({ length: 20 }, (_, i) => (200 + 0.37 * (i + 1)).toFixed(2));
    const calls = targets.flatMap((usd, i) => [
      () => adjustments().updateBalance(admin, user._id, { token: 'bitcoin', amount: usd, type: 'no', msg: `Set ${i}` }),
      () => adjustments().updateBalance(admin, user._id, { token: 'bitcoin', amount: 5, type: 'yes', msg: `Add ${i}` }),
    ]);
    const answers = await Promise.all(calls.map((call) => call()));
    expect(answers.every((answer) => 'transaction' in answer && answer.transaction !== null)).toBe(true);

    const audit = await rows<{ reason: string; before: string; after: string }>(
      db,
      sql`select after ->> 'reason' as reason, before ->> 'balance' as before, after ->> 'balance' as after
        from audit_log where action = 'balance.adjust' and target_id = ${user._id} and after ->> 'reason' <> 'test funding'`,
    );
    expect(audit).toHaveLength(40);
    for (const row of audit) {
      const [mode, i] = row.reason.split(' ');
      // A set lands exactly on its target; an add moves exactly its quantity, whatever ran before it.
      if (mode === 'Set') expect(toMoney(row.after).eq(toMoney(targets[Number(i)]).div(50000))).toBe(true);
      else expect(toMoney(row.after).sub(row.before).eq('0.0001')).toBe(true);
    }
    // One chain from the funded balance to the final one: each call started from the balance the previous one left.
    const final = (await holdings(t, user.token)).bitcoin;
    const befores = audit.map((row) => toMoney(row.before).toFixed(8)).sort();
    const afters = audit.map((row) => toMoney(row.after).toFixed(8));
    afters.splice(afters.indexOf(toMoney(final).toFixed(8)), 1);
    expect(befores).toEqual(['0.00200000', ...afters].sort());
  });
});

describe.each(DATABASE_KINDS)('balance adjustments under four-eyes on %s', (kind) => {
  let t: WalletApp;

  beforeAll(async () => {
    t = await startWalletApp(kind, { APPROVAL_THRESHOLD_USD: '10000' });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  it('a keyed "set" the gate lets through is applied under the lock and replayed; one it holds is replayed as held', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'tether', 100);
    const send = (key: string, amount: number) =>
      t.http
        .post(`/api/admin/update-balance/${user._id}`)
        .set(bearer(t.admin))
        .set('Idempotency-Key', key)
        .send({ token: 'tether', amount, type: 'no', msg: 'Gated' });

    const applied = await send(`small-${user._id}`, 40).expect(200);
    expect(applied.body).toMatchObject({ balance: { coinAmount: '40.00' }, transaction: { direction: 'out', coinAmount: '60.00', amount: 60 } });
    const again = await send(`small-${user._id}`, 40).expect(200);
    expect([again.headers['idempotent-replayed'], again.text]).toEqual(['true', applied.text]);

    const held = await send(`big-${user._id}`, 20000).expect(202);
    expect(held.body.pendingApproval).toBe(true);
    // (The replay's status is the route's 200, not the stored 202: the interceptor's, not this function's.)
    const heldAgain = await send(`big-${user._id}`, 20000);
    expect([heldAgain.headers['idempotent-replayed'], heldAgain.text]).toEqual(['true', held.text]);
    expect((await holdings(t, user.token)).tether).toBe('40.00');
    await expectLedgerClean(t);
  });
});
