// The rules of the sweeps' money function (drizzle/0021_sweeps.sql), each on its own: the anvil test drives it through
// a real chain; here the sweep rows a chain would have led to are written directly, so every branch is checked on
// PGlite and PostgreSQL.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { LedgerService } from '../../src/modules/ledger/ledger.service';
import { MONEY_CODES, moneyRefusalOf } from '../../src/modules/ledger/money-errors';
import { RECORD_SWEEP } from '../../src/modules/sweeps/sweep-functions';
import { DATABASE_KINDS } from '../support/databases';
import { expectLedgerClean, startWalletApp, type WalletApp } from '../support/wallet';

const REQUIRED = 3;
const GWEI = 10n ** 9n;

describe.each(DATABASE_KINDS)('the sweep money function on %s', (kind) => {
  let t: WalletApp;
  let db: Database;
  let ledger: LedgerService;

  const rows = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  /** A platform account's balance in a token, over its shards ('0' when it has none). */
  const platform = async (code: string, token: string) =>
    (
      await rows<{ balance: string }>(
        sql`select trim_scale(coalesce(sum(balance), 0))::text as balance from ledger_accounts where kind = 'platform' and split_part(platform_code, '#', 1) = ${code} and token = ${token}`,
      )
    )[0].balance;
  const customerTotal = async () =>
    (await rows<{ total: string }>(sql`select trim_scale(coalesce(sum(balance), 0))::text as total from ledger_accounts where kind = 'customer'`))[0].total;
  /** A sweep as the job leaves it once broadcast: 12.345678 tether (6 decimals), with a top-up of 0.0001 ETH unless `noTopUp`. */
  const sweep = async (options: { state?: string; native?: boolean; noTopUp?: boolean } = {}) => {
    const id = randomUUID();
    const txid = `0x${randomUUID().replaceAll('-', '')}`;
    const topUp = !options.native && !options.noTopUp;
    await db.execute(sql`
      insert into sweeps (id, network, address, token, contract, decimals, native_token, native_decimals, state, amount_base, raw_tx, txid,
        topup_amount_base, topup_raw_tx, topup_txid, required_confirmations)
      values (${id}, 'ethereum', ${`0x${randomUUID().replaceAll('-', '').padEnd(40, '0')}`}, ${options.native ? 'ethereum' : 'tether'},
        ${options.native ? null : '0x00000000000000000000000000000000000000aa'}, ${options.native ? 18 : 6}, 'ethereum', 18, ${options.state ?? 'broadcast'},
        ${options.native ? '1000000000000000000' : '12345678'}, '0x02', ${txid},
        ${topUp ? '100000000000000' : null}, ${topUp ? '0x02' : null}, ${topUp ? `${txid}01` : null}, ${REQUIRED})`);
    return id;
  };
  const record = (id: string, options: { confirmations?: number; succeeded?: boolean; fee?: bigint | null; topUpFee?: bigint | null } = {}) =>
    ledger.run(RECORD_SWEEP, (shard) => [
      id,
      options.confirmations ?? REQUIRED,
      options.succeeded ?? true,
      options.fee === null ? null : (options.fee ?? 30_000n * GWEI).toString(),
      options.topUpFee === undefined ? (21_000n * GWEI).toString() : options.topUpFee === null ? null : options.topUpFee.toString(),
      shard,
      null,
    ]);
  const state = async (id: string) =>
    (
      await rows<{ state: string; feeBase: string | null; lastError: string | null }>(
        sql`select state, fee_base::text as "feeBase", last_error as "lastError" from sweeps where id = ${id}`,
      )
    )[0];
  const refusal = async (call: Promise<unknown>) => {
    try {
      await call;
    } catch (error) {
      return moneyRefusalOf(error);
    }
    return undefined;
  };

  beforeAll(async () => {
    t = await startWalletApp(kind);
    db = t.app.get(DATABASE);
    ledger = t.app.get(LedgerService);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('records a confirmed token sweep once: hot_wallet → deposits in the token, the gas and the top-up in ETH, no customer moves', async () => {
    const id = await sweep();
    const customersBefore = await customerTotal();
    expect(await record(id)).toBe(true);
    expect(await state(id)).toEqual({ state: 'completed', feeBase: (30_000n * GWEI).toString(), lastError: null });
    expect(await platform('hot_wallet', 'tether')).toBe('-12.345678');
    expect(await platform('deposits', 'tether')).toBe('12.345678');
    // ETH: the top-up (0.0001) went from the hot address to the deposit address; each paid its own gas.
    expect(await platform('network_fees', 'ethereum')).toBe('-0.000051');
    expect(await platform('deposits', 'ethereum')).toBe('-0.00007');
    expect(await platform('hot_wallet', 'ethereum')).toBe('0.000121');
    expect(await customerTotal()).toBe(customersBefore);
    // Again (a replayed run, a second instance): nothing moves twice.
    expect(await record(id)).toBe(false);
    expect((await rows<{ n: number }>(sql`select count(*)::int as n from journal_entries where kind = 'chain_sweep'`))[0].n).toBe(1);
    await expectLedgerClean(t);
  });

  it('records nothing for a sweep not broadcast yet, nor before its confirmations', async () => {
    for (const early of ['planned', 'ready', 'signed']) {
      const id = await sweep({ state: early, noTopUp: true });
      expect(await record(id, { topUpFee: null })).toBe(false);
      expect((await state(id)).state).toBe(early);
    }
    const id = await sweep({ native: true });
    expect(await record(id, { confirmations: REQUIRED - 1, topUpFee: null })).toBe(false);
    expect(await state(id)).toMatchObject({ state: 'broadcast', feeBase: null });
    expect(await record(randomUUID(), { topUpFee: null })).toBe(false);
  });

  it('refuses fees the row does not allow (CPW01): below zero, a top-up fee without a top-up, none for a top-up', async () => {
    const native = await sweep({ native: true });
    const withTopUp = await sweep();
    expect(await refusal(record(native, { fee: -1n, topUpFee: null }))).toEqual({ code: MONEY_CODES.sweepFees, detail: 'the sweep fee must be zero or more' });
    expect(await refusal(record(native, { fee: null, topUpFee: null }))).toEqual({ code: MONEY_CODES.sweepFees, detail: 'the sweep fee must be zero or more' });
    expect(await refusal(record(native))).toEqual({ code: MONEY_CODES.sweepFees, detail: 'the sweep had no top-up' });
    expect(await refusal(record(withTopUp, { topUpFee: null }))).toEqual({ code: MONEY_CODES.sweepFees, detail: 'the top-up fee is missing' });
    expect(await refusal(record(withTopUp, { topUpFee: -1n }))).toEqual({ code: MONEY_CODES.sweepFees, detail: 'the top-up fee must be zero or more' });
    expect((await state(native)).state).toBe('broadcast');
    expect((await state(withTopUp)).state).toBe('broadcast');
  });

  it('a native sweep moves its amount and books its gas from the deposit addresses, exact to the wei', async () => {
    const before = {
      hot: await platform('hot_wallet', 'ethereum'),
      deposits: await platform('deposits', 'ethereum'),
      fees: await platform('network_fees', 'ethereum'),
    };
    const id = await sweep({ native: true });
    expect(await record(id, { fee: 21_000n * GWEI + 1n, topUpFee: null })).toBe(true);
    const delta = async (code: string, from: string) =>
      (await rows<{ d: string }>(sql`select trim_scale(${await platform(code, 'ethereum')}::numeric - ${from}::numeric)::text as d`))[0].d;
    expect(await delta('hot_wallet', before.hot)).toBe('-1');
    expect(await delta('network_fees', before.fees)).toBe('-0.000021000000000001');
    expect(await delta('deposits', before.deposits)).toBe('1.000021000000000001');
    await expectLedgerClean(t);
  });

  it('a sweep that reverted on chain fails: only its gas (and its top-up) are booked, the token stays with the deposits', async () => {
    const tokenBefore = { hot: await platform('hot_wallet', 'tether'), deposits: await platform('deposits', 'tether') };
    const id = await sweep();
    expect(await record(id, { succeeded: false })).toBe(true);
    expect(await state(id)).toMatchObject({ state: 'failed', lastError: 'the sweep transaction reverted on chain: only its gas was spent' });
    expect(await platform('hot_wallet', 'tether')).toBe(tokenBefore.hot);
    expect(await platform('deposits', 'tether')).toBe(tokenBefore.deposits);
    expect(await record(id, { succeeded: false })).toBe(false);
    await expectLedgerClean(t);
  });
});
