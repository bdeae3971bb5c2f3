import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database';
import { ChainWatcherService } from '../../src/modules/chain/chain-watcher.service';
import { SignerRefusal } from '../../src/chain-core/signer-contract';
import { JobLocks } from '../../src/db/advisory-locks';
import { SweepsService } from '../../src/modules/sweeps/sweeps.service';
import { CHAIN_NETWORKS } from '../../src/config/chain-params';
import type { Anvil } from '../support/anvil';
import { type EvmPayoutSetup, HOT_ADDRESS, startEvmPayouts } from '../support/evm-payouts';
import { SIGNER_DATABASE_KINDS, skipOnPglite } from '../support/signer-process';
import { bearer, signUp } from '../support/test-app';
import { deployTestToken, setTokenContract, testTokenBalance, transferTestToken } from '../support/test-token';

const CONFIRMATIONS = 3;
const ETH = 10n ** 18n;
/** The test token has 6 decimals, like USDT. */
const UNIT = 10n ** 6n;

/** Sweeps of customer deposit addresses to the hot address on a real anvil: ETH minus its gas; the ERC-20 after a gas top-up. */
skipOnPglite('EVM sweeps on an anvil chain');

describe.each(SIGNER_DATABASE_KINDS)('EVM sweeps on an anvil chain on %s', (kind) => {
  let anvil: Anvil;
  let setup: EvmPayoutSetup;
  let t: EvmPayoutSetup['t'];
  let db: Database;
  let watcher: ChainWatcherService;
  let sweeps: SweepsService;
  let admin = '';
  let contract = '';

  beforeAll(async () => {
    // The hot key, and the account's xprv for the sweeps (the private counterpart of the XPUB), in the signer's key file.
    setup = await startEvmPayouts({ env: { CHAIN_ETHEREUM_SWEEP_MIN: '5' }, coins: { bitcoin: '50000', ethereum: '2500', tether: '1' }, sweeps: true });
    ({ anvil, t, db, admin } = setup);
    watcher = t.app.get(ChainWatcherService);
    sweeps = t.app.get(SweepsService);
    sweeps.stop();
    contract = await deployTestToken(anvil, 6, 10n ** 12n);
    await setTokenContract(t, admin, 'tether', 'ethereum', contract, anvil.accounts[2]);
  });

  afterAll(async () => {
    await setup?.close();
  });

  const rows = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const balanceOf = async (address: string) => BigInt(await anvil.rpc.call<string>('eth_getBalance', [address, 'latest']));
  /** A new customer and their own deposit address (one serves ETH and the token). */
  const customerWithAddress = async () => {
    const customer = await signUp(t.http);
    const tokens = (await t.http.get('/api/crypto/get-wallet-tokens').set(bearer(customer.token)).expect(200)).body as Array<{ id: string; address: string }>;
    return { customer, address: tokens.find((x) => x.id === 'ethereum')!.address };
  };
  /** The watcher sees the deposits and credits them after their confirmations. */
  const credit = async () => {
    await watcher.pollOnce('ethereum');
    await anvil.mine(CONFIRMATIONS);
    await watcher.pollOnce('ethereum');
    await watcher.pollOnce('ethereum');
  };
  const customerBalances = async (userId: string) =>
    Object.fromEntries(
      (
        await rows<{ token: string; balance: string }>(
          sql`select token, balance::text as balance from ledger_accounts where user_id = ${userId} order by token`,
        )
      ).map((r) => [r.token, r.balance]),
    );
  /** A platform account's balance in a token, over its shards. */
  const platform = async (code: string, token: string) =>
    (
      await rows<{ balance: string }>(
        sql`select coalesce(sum(balance), 0)::text as balance from ledger_accounts where kind = 'platform' and split_part(platform_code, '#', 1) = ${code} and token = ${token}`,
      )
    )[0].balance;
  const sweepRows = async (address: string) =>
    rows<{ state: string; token: string; txid: string; topupTxid: string | null; amountBase: string; feeBase: string | null; topupAmountBase: string | null }>(
      sql`select state, token, txid, topup_txid as "topupTxid", amount_base::text as "amountBase", fee_base::text as "feeBase", topup_amount_base::text as "topupAmountBase"
          from sweeps where address = ${address} order by created_at`,
    );
  const ledgerClean = async () => expect((await t.http.get('/api/admin/ledger/check').set(bearer(admin)).expect(200)).body.ok).toBe(true);
  const coins = (base: bigint, decimals: number) => {
    const text = base.toString().padStart(decimals + 1, '0');
    return `${text.slice(0, -decimals)}.${text.slice(-decimals)}`.replace(/\.?0+$/, '');
  };
  const trimmed = (value: string) => value.replace(/\.?0+$/, '') || '0';

  it('a customer deposits only the token: the hot address tops up its gas, the token moves to the hot address, customer balances unchanged', async () => {
    const { customer, address } = await customerWithAddress();
    await watcher.pollOnce('ethereum');
    await transferTestToken(anvil, contract, address, 12_345_678n);
    await credit();
    const before = await customerBalances(customer._id);
    expect(trimmed(before.tether)).toBe('12.345678');
    const hotTokens = await testTokenBalance(anvil, contract, HOT_ADDRESS);

    // Run 1: planned; the top-up is signed and stored, then sent.
    expect(await sweeps.runOnce('ethereum')).toMatchObject({ planned: 1, toppedUp: 1, signed: 0 });
    const [planned] = await sweepRows(address);
    expect(planned).toMatchObject({ state: 'topping_up', token: 'tether', topupTxid: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    const topUp = await anvil.rpc.call<{ from: string; to: string; value: string }>('eth_getTransactionByHash', [planned.topupTxid]);
    expect(topUp).toMatchObject({ from: HOT_ADDRESS, to: address.toLowerCase(), value: `0x${BigInt(planned.topupAmountBase!).toString(16)}` });
    // Run 2: the top-up is mined: the sweep is signed and sent.
    expect(await sweeps.runOnce('ethereum')).toMatchObject({ planned: 0, signed: 1, broadcast: 1, completed: 0 });
    await anvil.mine(CONFIRMATIONS - 1);
    // Run 3: confirmed and recorded.
    expect(await sweeps.runOnce('ethereum')).toMatchObject({ completed: 1 });
    const [swept] = await sweepRows(address);
    expect(swept).toMatchObject({ state: 'completed', amountBase: '12345678', feeBase: expect.stringMatching(/^[1-9]\d*$/) });
    expect(await testTokenBalance(anvil, contract, address)).toBe(0n);
    expect((await testTokenBalance(anvil, contract, HOT_ADDRESS)) - hotTokens).toBe(12_345_678n);
    // The watcher reads the blocks with the top-up paid to the customer's address: the platform's own gas, no deposit.
    await credit();
    expect(await rows(sql`select count(*)::int as n from chain_deposits where user_id = ${customer._id}`)).toEqual([{ n: 1 }]);
    // The books: the token moved from deposits to the hot wallet; the gas is the platform's fee; no customer moved.
    expect(await customerBalances(customer._id)).toEqual(before);
    expect(trimmed(await platform('hot_wallet', 'tether'))).toBe('-12.345678');
    expect(trimmed(await platform('deposits', 'tether'))).toBe('0');
    const [fees] = await rows<{ n: string }>(sql`select (sweep.fee_base + sweep.topup_fee_base)::text as n from sweeps sweep where address = ${address}`);
    expect(trimmed(await platform('network_fees', 'ethereum'))).toBe(`-${coins(BigInt(fees.n), 18)}`);
    expect(await rows(sql`select kind, transaction_id as "transactionId" from journal_entries where kind = 'chain_sweep'`)).toEqual([
      { kind: 'chain_sweep', transactionId: null },
    ]);
    expect(await rows(sql`select action from audit_log where target_type = 'sweep'`)).toEqual([{ action: 'chain.sweep_completed' }]);
    await ledgerClean();
    // What is left of the top-up on the address is dust, below the threshold: nothing more to sweep.
    expect(await sweeps.runOnce('ethereum')).toMatchObject({ planned: 0, signed: 0 });
  });

  it('a customer deposits ETH and the token: the token is swept with the ETH there for gas, then the ETH minus its gas', async () => {
    const { customer, address } = await customerWithAddress();
    await watcher.pollOnce('ethereum');
    await anvil.sendEth(address, ETH);
    await transferTestToken(anvil, contract, address, 50n * UNIT);
    await credit();
    const before = await customerBalances(customer._id);
    expect([trimmed(before.ethereum), trimmed(before.tether)]).toEqual(['1', '50']);
    const hotEth = await balanceOf(HOT_ADDRESS);
    const depositsEthBefore = await platform('deposits', 'ethereum');

    // The token first: the address has the gas already (no top-up).
    expect(await sweeps.runOnce('ethereum')).toMatchObject({ planned: 1, toppedUp: 0, signed: 1, broadcast: 1 });
    await anvil.mine(CONFIRMATIONS - 1);
    expect(await sweeps.runOnce('ethereum')).toMatchObject({ completed: 1 });
    // Then the ETH, minus its gas: signed and stored, and the process "dies" before broadcasting; the next run sends
    // the same bytes.
    expect(await sweeps.runOnce('ethereum', { stopAfterSigning: true })).toMatchObject({ planned: 1, signed: 1, broadcast: 0 });
    const [, stored] = await sweepRows(address);
    expect(stored).toMatchObject({ state: 'signed', token: 'ethereum' });
    expect(await anvil.rpc.call('eth_getTransactionByHash', [stored.txid])).toBeNull();
    expect(await sweeps.runOnce('ethereum')).toMatchObject({ planned: 0, signed: 0, broadcast: 1 });
    await anvil.mine(CONFIRMATIONS - 1);
    expect(await sweeps.runOnce('ethereum')).toMatchObject({ completed: 1 });
    const [token, native] = await sweepRows(address);
    expect(token).toMatchObject({ state: 'completed', token: 'tether', topupTxid: null, amountBase: (50n * UNIT).toString() });
    expect(native).toMatchObject({ state: 'completed', token: 'ethereum', topupTxid: null, txid: stored.txid });
    const onChain = await anvil.rpc.call<{ from: string; to: string; value: string; input: string }>('eth_getTransactionByHash', [native.txid]);
    expect(onChain).toMatchObject({ from: address.toLowerCase(), to: HOT_ADDRESS, value: `0x${BigInt(native.amountBase).toString(16)}`, input: '0x' });
    expect((await balanceOf(HOT_ADDRESS)) - hotEth).toBe(BigInt(native.amountBase));
    // Only dust (the unspent part of the gas allowance) stays on the address.
    const left = await balanceOf(address);
    expect(left).toBeLessThan(ETH / 1000n);
    expect(await testTokenBalance(anvil, contract, address)).toBe(0n);
    // deposits gave back exactly what left the address: the ETH swept and both sweeps' gas.
    const sent = ETH - left;
    expect(BigInt(native.amountBase) + BigInt(native.feeBase!) + BigInt(token.feeBase!)).toBe(sent);
    const depositsEthAfter = await platform('deposits', 'ethereum');
    expect(toBase(depositsEthAfter) - toBase(depositsEthBefore)).toBe(sent);
    expect(await customerBalances(customer._id)).toEqual(before);
    await ledgerClean();
    // Safe to re-run: nothing left worth a sweep.
    expect(await sweeps.runOnce('ethereum')).toMatchObject({ planned: 0, signed: 0, broadcast: 0, completed: 0 });
  });

  it("runs on one instance at a time: while another holds the network's sweep lock, a run does nothing", async () => {
    // PGlite is one process with one connection: the lock is trivial there.
    if (kind !== 'postgres') return;
    const held = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${JobLocks.sweepsBase + CHAIN_NETWORKS.indexOf('ethereum')})`);
      return sweeps.runOnce('ethereum');
    });
    expect(held).toMatchObject({ yielded: true, planned: 0 });
  });

  it('the sweep signer signs only for a customer deposit address derived from its key, and only to the hot address', async () => {
    const sweeper = setup.payouts.signerOf('ethereum')!;
    expect((await sweeper.hotAddress()).toLowerCase()).toBe(HOT_ADDRESS);
    // A sweep row for an address that is no customer's deposit address (here the hot address of a dev account).
    const [forged] = await rows<{ id: string }>(sql`
      insert into sweeps (network, address, token, decimals, native_token, native_decimals, required_confirmations)
      values ('ethereum', ${anvil.accounts[4]}, 'ethereum', 18, 'ethereum', 18, 3) returning id`);
    await expect(sweeper.signSweep(forged.id, 0n)).rejects.toThrow(`${anvil.accounts[4]} is not a customer deposit address on ethereum`);
    // A deposit address row whose stored index does not give it (a tampered database).
    const { customer, address } = await customerWithAddress();
    await db.execute(sql`update deposit_addresses set derivation_index = derivation_index + 1000 where user_id = ${customer._id}`);
    await db.execute(sql`update sweeps set address = ${address} where id = ${forged.id}`);
    await expect(sweeper.signSweep(forged.id, 0n)).rejects.toThrow(SignerRefusal);
    await expect(sweeper.signSweep(forged.id, 0n)).rejects.toThrow('does not give');
    await db.execute(sql`delete from sweeps where id = ${forged.id}`);
    // The job refuses it the same way: nothing signed, the row failed with the reason.
    await anvil.sendEth(address, ETH / 10n);
    await db.execute(sql`
      insert into chain_deposits (network, txid, output_index, user_id, token, address, amount_base, amount, confirmations, required_confirmations, state)
      values ('ethereum', '0xforged', -1, ${customer._id}, 'ethereum', ${address}, ${(ETH / 10n).toString()}, 0.1, 3, 3, 'credited')`);
    expect(await sweeps.runOnce('ethereum')).toMatchObject({ planned: 1, signed: 0 });
    expect(await rows(sql`select state, last_error as "lastError" from sweeps where address = ${address}`)).toEqual([
      { state: 'failed', lastError: expect.stringContaining('does not give') },
    ]);
    expect(await balanceOf(address)).toBe(ETH / 10n);
  });
});

/** A coin amount (18 decimals at most) as base units. */
function toBase(value: string): bigint {
  const [whole, fraction = ''] = value.replace('-', '').split('.');
  const base = BigInt(whole) * 10n ** 18n + BigInt(fraction.padEnd(18, '0').slice(0, 18) || '0');
  return value.startsWith('-') ? -base : base;
}
