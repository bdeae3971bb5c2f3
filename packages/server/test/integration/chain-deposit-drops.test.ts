import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { ChainWatcherService } from '../../src/modules/chain/chain-watcher.service';
import { decimalToBase } from '../../src/chain-core/amounts';
import { Anvil, EVM_XPUB } from '../support/anvil';
import { TPUB } from '../support/chain-e2e';
import { DATABASE_KINDS } from '../support/databases';
import { RegtestLitecoind, litecoindInstalled } from '../support/litecoind';
import { seedCoins } from '../support/market';
import { bearer, loginAdmin, signUp, startTestApp, type TestApp } from '../support/test-app';
import { supportTokens } from '../support/wallet';

/**
 * A deposit orphaned before credit that is never mined again (issue 24): a reorganisation sends it back to seen; once
 * the chain has moved CHAIN_<NETWORK>_DROP_AFTER_BLOCKS past the fork without it, it is dropped — its History row
 * rejected with a notification, never credited, exactly once. On a real regtest litecoind (the payment double-spent on
 * the new branch, so it leaves the mempool) and a real anvil (`anvil_reorg` replaces its block without it).
 */
const CONFIRMATIONS = 2;
const DROP_AFTER = 3;

interface Row {
  _id: string;
  status: string;
  txHash?: string;
  confirmations?: number;
  note: string | null;
}

async function dbRows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

const history = async (t: TestApp, token: string) => (await t.http.get('/api/user/get-transaction').set(bearer(token)).expect(200)).body as Row[];
const notifications = async (t: TestApp, token: string) =>
  (await t.http.get('/api/user/get-notifications').set(bearer(token)).expect(200)).body as Array<{ title: string; message: string; status: string | null }>;

/** Spends `txid`'s inputs again to the miner in a block of its own (litecoind then evicts `txid` from its mempool). */
async function doubleSpendInNewBlock(ltc: RegtestLitecoind, txid: string): Promise<string> {
  const raw = await ltc.node.call<{ vin: Array<{ txid: string; vout: number }> }>('getrawtransaction', [txid, true]);
  let total = 0n;
  for (const input of raw.vin) {
    const spent = await ltc.node.call<{ value: number } | null>('gettxout', [input.txid, input.vout, false]);
    total += decimalToBase(spent!.value, 8);
  }
  const to = await ltc.newAddress();
  const back = total - 100_000n; // 0.001 LTC of fee
  const amount = `${back / 100_000_000n}.${(back % 100_000_000n).toString().padStart(8, '0')}`;
  const unsigned = await ltc.node.call<string>('createrawtransaction', [raw.vin.map(({ txid: id, vout }) => ({ txid: id, vout })), { [to]: amount }]);
  const signed = await ltc.wallet.call<{ hex: string; complete: boolean }>('signrawtransactionwithwallet', [unsigned]);
  expect(signed.complete).toBe(true);
  return (await ltc.node.call<{ hash: string }>('generateblock', [to, [signed.hex]])).hash;
}

describe.skipIf(!litecoindInstalled).each(DATABASE_KINDS)('a litecoin deposit orphaned before credit and never mined again, on %s', (kind) => {
  let ltc: RegtestLitecoind;
  let t: TestApp;
  let db: Database;
  let admin: string;
  let watcher: ChainWatcherService;

  beforeAll(async () => {
    ltc = await RegtestLitecoind.start();
    t = await startTestApp(kind, {
      CHAIN_LITECOIN_RPC_URL: ltc.rpcUrl,
      CHAIN_LITECOIN_XPUB: TPUB,
      CHAIN_LITECOIN_CHAIN: 'regtest',
      CHAIN_LITECOIN_CONFIRMATIONS: String(CONFIRMATIONS),
      CHAIN_LITECOIN_DROP_AFTER_BLOCKS: String(DROP_AFTER),
      CHAIN_LITECOIN_POLL_SECONDS: '1',
    });
    await seedCoins(t, { litecoin: '80' });
    await supportTokens(t, ['litecoin']);
    db = t.app.get(DATABASE);
    admin = (await loginAdmin(t.http)).token;
    watcher = t.app.get(ChainWatcherService);
    watcher.stop();
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await ltc?.close();
  });

  const poll = () => watcher.pollOnce('litecoin');
  const addressOf = async (token: string) => {
    const tokens = (await t.http.get('/api/crypto/get-wallet-tokens').set(bearer(token)).expect(200)).body as Array<{ id: string; address: string }>;
    return tokens.find((row) => row.id === 'litecoin')!.address;
  };
  const deposits = (txid: string) =>
    dbRows<{ userId: string; state: string; orphanedAt: string | null }>(
      db,
      sql`select user_id as "userId", state, orphaned_at_height::text as "orphanedAt" from chain_deposits where txid = ${txid} order by output_index`,
    );

  it('goes back to seen, is dropped DROP_AFTER_BLOCKS past the fork, its History row rejected with a notification, once; an admin’s hand-approved row stays', async () => {
    const dropped = await signUp(t.http);
    const settled = await signUp(t.http);
    const [droppedAddress, settledAddress] = [await addressOf(dropped.token), await addressOf(settled.token)];
    await poll();
    // One payment to both customers, mined in one block.
    const txid = await ltc.wallet.call<string>('sendmany', ['', { [droppedAddress]: '1.5', [settledAddress]: '0.5' }]);
    const [block] = await ltc.mine(1);
    await poll();
    expect((await deposits(txid)).map((d) => d.state)).toEqual(['confirming', 'confirming']);

    // The block is orphaned and the payment double-spent on the new branch: it will never be mined.
    await ltc.invalidate(block);
    const fork = await ltc.height();
    await doubleSpendInNewBlock(ltc, txid);
    expect(await ltc.node.call<string[]>('getrawmempool')).not.toContain(txid);
    const rewound = await poll();
    expect(rewound.rewoundTo).toBe(fork);
    expect(await deposits(txid)).toEqual([
      expect.objectContaining({ state: 'seen', orphanedAt: String(fork) }),
      expect.objectContaining({ state: 'seen', orphanedAt: String(fork) }),
    ]);
    expect((await history(t, dropped.token))[0]).toMatchObject({ status: 'pending', txHash: txid, confirmations: 0 });
    // An admin settles one customer's row by hand meanwhile (their decision stands).
    const settledRow = (await history(t, settled.token))[0]._id;
    await t.http.post('/api/admin/modify-transaction').set(bearer(admin)).send({ tId: settledRow, modification: 'approved' }).expect(200);

    // Not yet: the cursor is 1, then 2 blocks past the fork.
    await poll();
    await ltc.mine(1);
    await poll();
    expect((await deposits(txid)).map((d) => d.state)).toEqual(['seen', 'seen']);
    expect((await history(t, dropped.token))[0].status).toBe('pending');

    // 3 blocks past the fork: dropped.
    await ltc.mine(1);
    await poll();
    expect((await deposits(txid)).map((d) => d.state)).toEqual(['dropped', 'dropped']);
    expect((await history(t, dropped.token))[0]).toMatchObject({
      status: 'rejected',
      txHash: txid,
      note: `Dropped: its block left the blockchain and the payment was not mined again within ${DROP_AFTER} blocks. Not credited.`,
    });
    const told = (await notifications(t, dropped.token)).filter((n) => n.title === 'Deposit rejected');
    expect(told).toEqual([
      expect.objectContaining({
        status: 'rejected',
        message: `Your deposit of 1.500 LTC on Litecoin was not credited: its block was dropped from the blockchain and the payment was not mined again within ${DROP_AFTER} blocks. If the coins are still yours, send them again. Transaction hash: ${txid}`,
      }),
    ]);
    // The hand-approved row stays approved, untold; the customer keeps what the admin credited.
    expect((await history(t, settled.token))[0]).toMatchObject({ _id: settledRow, status: 'approved' });
    expect((await notifications(t, settled.token)).filter((n) => n.title === 'Deposit rejected')).toEqual([]);

    // Once: more blocks and polls change nothing.
    await ltc.mine(2);
    await poll();
    await poll();
    expect((await notifications(t, dropped.token)).filter((n) => n.title === 'Deposit rejected')).toHaveLength(1);
    const audit = await dbRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from audit_log where action = 'chain.deposit_drop' and after->>'txid' = ${txid}`,
    );
    expect(audit[0].n).toBe(1);
    const credits = await dbRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from journal_entries where kind = 'chain_deposit_credit' and reason like ${`%${txid}%`}`,
    );
    expect(credits[0].n).toBe(0);
    const balances = await dbRows<{ userId: string; balance: string }>(
      db,
      sql`select user_id as "userId", balance::text as balance from ledger_accounts where token = 'litecoin' and user_id in (${dropped._id}, ${settled._id})`,
    );
    expect(balances.find((b) => b.userId === dropped._id)?.balance ?? '0').toMatch(/^0(\.0+)?$/);
    expect(balances.find((b) => b.userId === settled._id)?.balance).toMatch(/^0\.5(0*)$/);
    expect((await t.http.get('/api/admin/ledger/check').set(bearer(admin)).expect(200)).body.ok).toBe(true);
  });

  it('a deposit orphaned and mined again within the window is not dropped: it is credited once', async () => {
    const customer = await signUp(t.http);
    const address = await addressOf(customer.token);
    await poll();
    const txid = await ltc.send(address, '0.7');
    const [block] = await ltc.mine(1);
    await poll();
    await ltc.invalidate(block);
    await poll();
    expect(await deposits(txid)).toEqual([expect.objectContaining({ state: 'seen' })]);
    // Mined again (from the mempool) on the new branch, and confirmed well past the drop window.
    await ltc.mine(DROP_AFTER + CONFIRMATIONS, await ltc.newAddress());
    await poll();
    expect(await deposits(txid)).toEqual([expect.objectContaining({ state: 'credited' })]);
    expect((await history(t, customer.token))[0]).toMatchObject({ status: 'approved', txHash: txid });
  });
});

describe.each(DATABASE_KINDS)('an ETH deposit orphaned before credit by anvil_reorg and never mined again, on %s', (kind) => {
  let anvil: Anvil;
  let t: TestApp;
  let db: Database;
  let watcher: ChainWatcherService;

  beforeAll(async () => {
    anvil = await Anvil.start();
    t = await startTestApp(kind, {
      CHAIN_ETHEREUM_RPC_URL: anvil.rpcUrl,
      CHAIN_ETHEREUM_XPUB: EVM_XPUB,
      CHAIN_ETHEREUM_CHAIN: 'regtest',
      CHAIN_ETHEREUM_CONFIRMATIONS: String(CONFIRMATIONS),
      CHAIN_ETHEREUM_DROP_AFTER_BLOCKS: String(DROP_AFTER),
      CHAIN_ETHEREUM_POLL_SECONDS: '1',
    });
    await seedCoins(t, { ethereum: '2500' });
    await supportTokens(t, ['ethereum']);
    db = t.app.get(DATABASE);
    watcher = t.app.get(ChainWatcherService);
    watcher.stop();
  });

  afterAll(async () => {
    await t?.close();
    await anvil?.close();
  });

  it('goes back to seen, then is dropped DROP_AFTER_BLOCKS past the fork with its History row rejected', async () => {
    const poll = () => watcher.pollOnce('ethereum');
    const customer = await signUp(t.http);
    const tokens = (await t.http.get('/api/crypto/get-wallet-tokens').set(bearer(customer.token)).expect(200)).body as Array<{ id: string; address: string }>;
    const address = tokens.find((row) => row.id === 'ethereum')!.address;
    await poll();
    const txid = await anvil.sendEth(address, 10n ** 17n);
    await poll();
    const state = async () => (await dbRows<{ state: string }>(db, sql`select state from chain_deposits where txid = ${txid}`)).map((row) => row.state);
    expect(await state()).toEqual(['confirming']);
    await anvil.reorg(1);
    const rewound = await poll();
    expect(await state()).toEqual(['seen']);
    await anvil.mine(DROP_AFTER - 2);
    await poll();
    expect(await state()).toEqual(['seen']);
    await anvil.mine(1);
    await poll();
    expect(rewound.rewoundTo).toBe((await anvil.height()) - DROP_AFTER);
    expect(await state()).toEqual(['dropped']);
    const [row] = (await t.http.get('/api/user/get-transaction').set(bearer(customer.token)).expect(200)).body as Row[];
    expect(row).toMatchObject({ status: 'rejected', txHash: txid });
    const told = (await notifications(t, customer.token)).filter((n) => n.title === 'Deposit rejected');
    expect(told).toEqual([expect.objectContaining({ message: expect.stringContaining('0.100000 ETH on Ethereum was not credited') })]);
  });
});
