import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Principal } from '../../src/common/principal';
import { DATABASE_HANDLE } from '../../src/db/database.module';
import { DATABASE, type Database, type DatabaseHandle } from '../../src/db/database';
import { GroupedReads } from '../../src/db/grouped-reads';
import { SwapsService } from '../../src/modules/wallet/swaps.service';
import { SWAP_BATCH, SWAP_TERMS_BATCH } from '../../src/modules/wallet/wallet-functions';
import { DATABASE_KINDS } from '../support/databases';
import { bearer } from '../support/test-app';
import { expectLedgerClean, fund, holdings, newCustomer, startWalletApp, type WalletApp } from '../support/wallet';

/**
 * Group commit of swaps (issue 36, drizzle/0065_swap_group_commit.sql, modules/ledger/group-commit.ts): concurrent
 * swaps go to PostgreSQL as batches of cp_swap_batch, each swap still cp_swap in a subtransaction of its own. A swap
 * refused in a batch changes nothing and leaves the others written; one customer's concurrent swaps are never in two
 * batches at once and come out exact.
 */
describe.each(DATABASE_KINDS)('swaps in batches (group commit) on %s', (kind) => {
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

  async function customer(usdOfTether: number): Promise<Principal & { token: string }> {
    const user = await newCustomer(t);
    if (usdOfTether > 0) await fund(t, user._id, 'tether', usdOfTether);
    return { id: user._id, role: 'user', name: 'Group Commit', email: 'group-commit@test.local', sessionId: 'unused', token: user.token };
  }

  const swap = (user: Principal, amount: string, to = 'bitcoin') => t.app.get(SwapsService).swap(user, undefined, { amount, from: 'tether', to });

  it('many customers swapping at once: every swap written exactly once, in fewer statements than swaps on PostgreSQL', async () => {
    const users = await Promise.all(Array.from({ length: 24 }, () => customer(100)));
    const { queries } = t.app.get<DatabaseHandle>(DATABASE_HANDLE);
    const { result, statements } = await queries.measure(() => Promise.allSettled(users.flatMap((user) => [swap(user, '10'), swap(user, '15')])));
    expect(result.filter((r) => r.status === 'rejected')).toEqual([]);
    const batches = statements.filter((s) => /^select cp_swap_batch\(/.test(s)).length;
    expect(batches).toBeGreaterThan(0);
    if (kind === 'postgres') expect(batches).toBeLessThan(users.length * 2);
    for (const user of users) {
      const held = await holdings(t, user.token);
      expect(held.tether).toBe('75.00');
      // 25 USD at 50,000 USD per bitcoin, in two swaps (10 and 15 USD), each rounded down to 8 decimals.
      expect(held.bitcoin).toBe('0.00050000');
    }
    const db = t.app.get<Database>(DATABASE);
    const rows = (await db.execute(
      sql`select count(*)::int as n from transactions where type = 'swap' and user_id in (${sql.join(
        users.map((u) => sql`${u.id}::uuid`),
        sql`, `,
      )})`,
    )) as unknown as { rows: Array<{ n: number }> };
    expect(rows.rows[0].n).toBe(users.length * 2);
  });

  it('a swap refused inside a batch changes nothing and the others in it are written', async () => {
    const rich = await Promise.all(Array.from({ length: 8 }, () => customer(50)));
    const poor = await Promise.all(Array.from({ length: 8 }, () => customer(0)));
    const outcomes = await Promise.allSettled([...rich, ...poor].map((user) => swap(user, '20')));
    outcomes.slice(0, rich.length).forEach((outcome) => expect(outcome.status).toBe('fulfilled'));
    for (const outcome of outcomes.slice(rich.length)) {
      expect(outcome.status).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason.message).toBe('Insufficient USDT balance');
    }
    for (const user of rich) expect((await holdings(t, user.token)).tether).toBe('30.00');
    for (const user of poor) expect((await holdings(t, user.token)).bitcoin ?? '0').toMatch(/^0(\.0+)?$/);
  });

  it("one customer's concurrent swaps: exactly as many pass as the balance pays for, the rest refused, nothing lost", async () => {
    const user = await customer(100);
    const outcomes = await Promise.allSettled(Array.from({ length: 15 }, () => swap(user, '10')));
    const passed = outcomes.filter((o) => o.status === 'fulfilled').length;
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(passed).toBe(10);
    expect(refused).toHaveLength(5);
    for (const outcome of refused) expect((outcome as PromiseRejectedResult).reason.message).toBe('Insufficient USDT balance');
    const held = await holdings(t, user.token);
    expect(held.tether).toBe('0.00');
    expect(held.bitcoin).toBe('0.00200000');
  });

  it('a batch runs its swaps sorted by the token paid out (the house positions locked in one order by every batch)', async () => {
    const users = await Promise.all(Array.from({ length: 16 }, () => customer(100)));
    const batchCall = vi.spyOn(SWAP_BATCH, 'call');
    try {
      // Submitted ethereum first, then bitcoin, customer after customer: a batch in arrival order would be unsorted.
      const outcomes = await Promise.allSettled(users.flatMap((user) => [swap(user, '10', 'ethereum'), swap(user, '10', 'bitcoin')]));
      expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
      // Each batch: its calls' p_to (cp_swap's fourth value), in the order the batch runs them.
      const paidOut = batchCall.mock.calls.map(([, args]) => (args[0] as unknown[][]).map((call) => call[3] as string));
      expect(paidOut.flat()).toHaveLength(users.length * 2);
      expect(paidOut.filter((tokens) => new Set(tokens).size > 1).length).toBeGreaterThan(0);
      for (const tokens of paidOut) expect(tokens).toEqual([...tokens].sort());
    } finally {
      batchCall.mockRestore();
    }
    for (const user of users) expect(await holdings(t, user.token)).toMatchObject({ tether: '80.00', bitcoin: '0.00020000', ethereum: '0.004000' });
  });

  it('grouped reads: a read that fails in a batch fails alone, the others in it are read again and answered', async () => {
    const reads = new GroupedReads(t.app.get<Database>(DATABASE), SWAP_TERMS_BATCH, { inFlight: 1, size: 64 });
    const manyCall = vi.spyOn(SWAP_TERMS_BATCH, 'call');
    try {
      const good = (usd: string) => reads.read(['tether', 'bitcoin', usd, '1', '50000']);
      // The first goes at once; the next three wait for it and go together, the one priced at 0 failing that batch.
      const outcomes = await Promise.allSettled([good('100'), good('50'), reads.read(['tether', 'bitcoin', '10', '1', '0']), good('25')]);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      // PostgreSQL's own error (drizzle wraps it on PGlite).
      const failure = (outcomes[2] as PromiseRejectedResult).reason as Error;
      expect((failure.cause as Error | undefined)?.message ?? failure.message).toMatch(/division by zero/);
      expect(outcomes.map((o) => (o.status === 'fulfilled' ? (o.value as { toQuantity: unknown }).toQuantity : null))).toEqual([0.002, 0.001, null, 0.0005]);
      // One alone, one batch of three that failed, then each of the three alone.
      expect(manyCall.mock.calls.map(([, args]) => (args[0] as unknown[]).length)).toEqual([1, 3, 1, 1, 1]);
      // Nothing is left waiting: the next read goes and is answered.
      expect(((await good('5')) as { toQuantity: unknown }).toQuantity).toBe(0.0001);
    } finally {
      manyCall.mockRestore();
    }
  });

  it('under a charging fee schedule, concurrent swaps read their terms together and each is charged exactly the schedule', async () => {
    const setFees = (body: object) => t.http.put('/api/admin/fees/*').set(bearer(t.admin)).send(body).expect(200);
    await setFees({ swapSpreadBps: 50, swapFeeBps: 10, swapFeeMinUsd: '0.5' });
    try {
      const users = await Promise.all(Array.from({ length: 12 }, () => customer(100)));
      const { queries } = t.app.get<DatabaseHandle>(DATABASE_HANDLE);
      const { result, statements } = await queries.measure(() => Promise.allSettled(users.map((user) => swap(user, '100'))));
      expect(result.filter((r) => r.status === 'rejected')).toEqual([]);
      const reads = statements.filter((s) => /^select cp_swap_terms_batch\(/.test(s)).length;
      expect(reads).toBeGreaterThan(0);
      if (kind === 'postgres') expect(reads).toBeLessThan(users.length);
      for (const outcome of result) {
        const body = (outcome as PromiseFulfilledResult<Awaited<ReturnType<typeof swap>>>).value;
        // 100 USD: 0.5 % spread (0.50 USD) and a 0.1 % fee at its 0.50 USD minimum, off 0.002 BTC.
        expect(body.to.coinAmount).toBe('0.00198000');
        expect(body.fee).toEqual({ usd: '0.5', token: 'bitcoin', coinAmount: '0.00001000' });
      }
      for (const user of users) expect((await holdings(t, user.token)).bitcoin).toBe('0.00198000');
    } finally {
      await setFees({ swapSpreadBps: null, swapFeeBps: null, swapFeeMinUsd: null });
    }
  });
});
