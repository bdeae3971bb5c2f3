import { sql } from 'drizzle-orm';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { ChainWatcherService } from '../../src/modules/chain/chain-watcher.service';
import { Anvil, EVM_XPUB } from '../support/anvil';
import { DATABASE_KINDS } from '../support/databases';
import { seedCoins } from '../support/market';
import { RefusingRpcProxy } from '../support/rpc-refusing-proxy';
import { bearer, loginAdmin, signUp, startTestApp, type TestApp } from '../support/test-app';
import { supportTokens } from '../support/wallet';

const CONFIRMATIONS = 3;
const ETH = 10n ** 18n;

/** The forwarding contract, compiled from test/support/contracts/Forwarder.sol (source beside it). */
const FORWARDER = JSON.parse(readFileSync(join(__dirname, '../support/contracts/Forwarder.json'), 'utf8')) as { bytecode: string };
/** Its functions' selectors: forward(address), split(address,address), forwardUndone(address). */
const FORWARD = '0x101e8952';
const SPLIT = '0x0f2c9329';
const FORWARD_UNDONE = '0x4553d3dc';
const word = (address: string) => address.slice(2).toLowerCase().padStart(64, '0');

/** One app on an anvil chain (straight, or behind a front that refuses `debug_*` like a hosted provider). */
async function chainApp(kind: 'pglite' | 'postgres', rpcUrl: string): Promise<TestApp> {
  const t = await startTestApp(kind, {
    CHAIN_ETHEREUM_RPC_URL: rpcUrl,
    CHAIN_ETHEREUM_XPUB: EVM_XPUB,
    CHAIN_ETHEREUM_CHAIN: 'regtest',
    CHAIN_ETHEREUM_CONFIRMATIONS: String(CONFIRMATIONS),
    CHAIN_ETHEREUM_POLL_SECONDS: '1',
  });
  await seedCoins(t, { ethereum: '2500' });
  await supportTokens(t, ['ethereum']);
  t.app.get(ChainWatcherService).stop();
  return t;
}

/** A customer and their own ETH deposit address. */
async function customerAddress(t: TestApp): Promise<{ token: string; _id: string; address: string }> {
  const customer = await signUp(t.http);
  const tokens = (await t.http.get('/api/crypto/get-wallet-tokens').set(bearer(customer.token)).expect(200)).body as Array<{ id: string; address: string }>;
  return { ...customer, address: tokens.find((x) => x.id === 'ethereum')!.address };
}

/** Sends `wei` with `data` to `to` from anvil's first account and waits for it to be mined. */
async function call(anvil: Anvil, to: string, data: string, wei: bigint): Promise<string> {
  // An explicit gas limit: the caught revert of forwardUndone makes estimates too low for the inner call.
  const hash = await anvil.rpc.call<string>('eth_sendTransaction', [{ from: anvil.accounts[0], to, data, value: `0x${wei.toString(16)}`, gas: '0x493e0' }]);
  await anvil.mined(hash);
  const receipt = await anvil.rpc.call<{ status: string }>('eth_getTransactionReceipt', [hash]);
  if (receipt.status !== '0x1') throw new Error(`transaction ${hash} failed`);
  return hash;
}

async function depositsOf(db: Database, txid: string) {
  return (
    (await db.execute(
      sql`select state, confirmations, output_index as "outputIndex", amount_base::text as "amountBase", address from chain_deposits
          where txid = ${txid} order by output_index desc`,
    )) as unknown as { rows: Array<{ state: string; confirmations: number; outputIndex: number; amountBase: string; address: string }> }
  ).rows;
}

async function balanceOf(db: Database, userId: string): Promise<string | undefined> {
  const result = (await db.execute(sql`select balance::text as balance from ledger_accounts where user_id = ${userId} and token = 'ethereum'`)) as unknown as {
    rows: Array<{ balance: string }>;
  };
  return result.rows[0]?.balance;
}

describe.each(DATABASE_KINDS)('ETH sent on by a contract (internal transfers) and pending ETH deposits, on %s', (kind) => {
  let anvil: Anvil;
  let t: TestApp;
  let db: Database;
  let watcher: ChainWatcherService;
  let forwarder: string;
  const poll = () => watcher.pollOnce('ethereum');

  beforeAll(async () => {
    anvil = await Anvil.start();
    t = await chainApp(kind, anvil.rpcUrl);
    db = t.app.get(DATABASE);
    watcher = t.app.get(ChainWatcherService);
    forwarder = (await anvil.sendData(FORWARDER.bytecode)).contractAddress!;
  });
  afterAll(async () => {
    await t?.close();
    await anvil?.close();
  });

  it('ETH a contract forwards to a customer is found in the block trace and credited once after 3 blocks; the status screen says it is traced', async () => {
    const customer = await customerAddress(t);
    await poll();
    const wei = 700_000_000_000_000_001n;
    const txid = await call(anvil, forwarder, FORWARD + word(customer.address), wei);
    await poll();
    // The transaction's own recipient is the contract: only the trace shows the payment (-2: its first internal transfer).
    expect(await depositsOf(db, txid)).toEqual([
      { state: 'confirming', confirmations: 1, outputIndex: -2, amountBase: wei.toString(), address: customer.address },
    ]);
    const [pending] = (await t.http.get('/api/user/get-transaction').set(bearer(customer.token)).expect(200)).body;
    expect(pending).toMatchObject({ type: 'deposit', status: 'pending', txHash: txid, confirmations: 1, requiredConfirmations: CONFIRMATIONS });
    await anvil.mine(CONFIRMATIONS - 1);
    await poll();
    await poll();
    expect(await depositsOf(db, txid)).toEqual([expect.objectContaining({ state: 'credited', confirmations: CONFIRMATIONS })]);
    expect(await balanceOf(db, customer._id)).toBe('0.700000000000000001');
    const admin = await loginAdmin(t.http);
    const [status] = (await t.http.get('/api/admin/chain/status').set(bearer(admin.token)).expect(200)).body;
    expect(status).toMatchObject({ network: 'ethereum', reachable: true, internalTransfers: 'traced' });
    expect((await t.http.get('/api/admin/ledger/check').set(bearer(admin.token)).expect(200)).body.ok).toBe(true);
  });

  it('one transaction paying two customers through a contract records two deposits (-2, -3), each exact to the wei', async () => {
    const first = await customerAddress(t);
    const second = await customerAddress(t);
    await poll();
    const txid = await call(anvil, forwarder, SPLIT + word(first.address) + word(second.address), 3n * ETH + 1n);
    await poll();
    expect(await depositsOf(db, txid)).toEqual([
      { state: 'confirming', confirmations: 1, outputIndex: -2, amountBase: (ETH + ETH / 2n).toString(), address: first.address },
      { state: 'confirming', confirmations: 1, outputIndex: -3, amountBase: (ETH + ETH / 2n + 1n).toString(), address: second.address },
    ]);
    // Read again (the cursor moved back by hand): the same keys, nothing recorded twice.
    await db.execute(
      sql`update chain_cursors set height = height - 1, block_hash = (select block_hash from chain_blocks b where b.network = 'ethereum' and b.height = chain_cursors.height - 1) where network = 'ethereum'`,
    );
    await poll();
    expect(await depositsOf(db, txid)).toHaveLength(2);
  });

  it('a transfer a contract made and then undid (a reverted inner call, the transaction itself succeeded) is not a deposit', async () => {
    const customer = await customerAddress(t);
    await poll();
    const txid = await call(anvil, forwarder, FORWARD_UNDONE + word(customer.address), ETH);
    await poll();
    expect(await depositsOf(db, txid)).toEqual([]);
    expect(BigInt(await anvil.rpc.call<string>('eth_getBalance', [customer.address, 'latest']))).toBe(0n);
  });

  it('an ETH transfer waiting to be mined shows at once as seen (0 of 3), then confirms and is credited once', async () => {
    const customer = await customerAddress(t);
    await poll();
    await anvil.rpc.call('evm_setAutomine', [false]);
    try {
      const txid = await anvil.rpc.call<string>('eth_sendTransaction', [{ from: anvil.accounts[1], to: customer.address, value: `0x${ETH.toString(16)}` }]);
      await poll();
      expect(await depositsOf(db, txid.toLowerCase())).toEqual([
        { state: 'seen', confirmations: 0, outputIndex: -1, amountBase: ETH.toString(), address: customer.address },
      ]);
      const [seen] = (await t.http.get('/api/user/get-transaction').set(bearer(customer.token)).expect(200)).body;
      expect(seen).toMatchObject({ type: 'deposit', status: 'pending', txHash: txid.toLowerCase(), confirmations: 0 });
      await poll();
      expect(await depositsOf(db, txid.toLowerCase())).toHaveLength(1);
      await anvil.rpc.call('evm_mine');
      await poll();
      expect(await depositsOf(db, txid.toLowerCase())).toEqual([expect.objectContaining({ state: 'confirming', confirmations: 1 })]);
      await anvil.mine(CONFIRMATIONS - 1);
      await poll();
      expect(await depositsOf(db, txid.toLowerCase())).toEqual([expect.objectContaining({ state: 'credited' })]);
      await poll();
      expect(await balanceOf(db, customer._id)).toBe('1.000000000000000000');
      const [credited] = (await t.http.get('/api/user/get-transaction').set(bearer(customer.token)).expect(200)).body;
      expect(credited).toMatchObject({ txHash: txid.toLowerCase(), status: 'approved' });
    } finally {
      await anvil.rpc.call('evm_setAutomine', [true]);
    }
  });

  it('an ETH transfer seen waiting and then replaced by its sender (same nonce, higher fee) is dropped as replaced, once, and the customer is told', async () => {
    const customer = await customerAddress(t);
    await poll();
    await anvil.rpc.call('evm_setAutomine', [false]);
    try {
      const from = anvil.accounts[2];
      const nonce = await anvil.rpc.call<string>('eth_getTransactionCount', [from, 'pending']);
      const gwei = (n: number) => `0x${(BigInt(n) * 10n ** 9n).toString(16)}`;
      const send = (to: string, value: bigint, fee: number) =>
        anvil.rpc.call<string>('eth_sendTransaction', [
          { from, to, value: `0x${value.toString(16)}`, nonce, maxFeePerGas: gwei(fee), maxPriorityFeePerGas: gwei(fee) },
        ]);
      const txid = (await send(customer.address, ETH, 2)).toLowerCase();
      await poll();
      expect(await depositsOf(db, txid)).toEqual([expect.objectContaining({ state: 'seen', confirmations: 0 })]);
      // The sender pays itself instead, with the same nonce: the node forgets the first transaction.
      await send(from, 0n, 20);
      expect(await anvil.rpc.call('eth_getTransactionByHash', [txid])).toBeNull();
      await poll();
      await poll();
      const dropped = (await db.execute(sql`select state, drop_reason as "dropReason" from chain_deposits where txid = ${txid}`)) as unknown as {
        rows: Array<{ state: string; dropReason: string }>;
      };
      expect(dropped.rows).toEqual([{ state: 'dropped', dropReason: 'replaced' }]);
      const notices = (await t.http.get('/api/user/get-notifications').set(bearer(customer.token)).expect(200)).body as Array<{
        title: string;
        message: string;
      }>;
      expect(notices.filter((n) => n.title === 'Deposit replaced')).toEqual([
        expect.objectContaining({ message: expect.stringContaining(`was replaced before it confirmed, so nothing was credited for it.`) }),
      ]);
      const [row] = (await t.http.get('/api/user/get-transaction').set(bearer(customer.token)).expect(200)).body;
      expect(row).toMatchObject({ txHash: txid, status: 'rejected' });
      // The replacement is mined and pays the customer nothing: nothing is credited.
      await anvil.rpc.call('evm_mine');
      await anvil.mine(CONFIRMATIONS);
      await poll();
      expect(await balanceOf(db, customer._id)).toBeUndefined();
    } finally {
      await anvil.rpc.call('evm_setAutomine', [true]);
    }
  });
});

describe.each(DATABASE_KINDS)('EVM nodes with fewer trace APIs (trace_* or debug_* refused, as geth or hosted providers do), on %s', (kind) => {
  let anvil: Anvil;
  let proxy: RefusingRpcProxy;
  let t: TestApp;
  let db: Database;
  let watcher: ChainWatcherService;
  let forwarder: string;
  const poll = () => watcher.pollOnce('ethereum');
  const internalTransfers = async () => {
    const admin = await loginAdmin(t.http);
    const [status] = (await t.http.get('/api/admin/chain/status').set(bearer(admin.token)).expect(200)).body;
    expect(status).toMatchObject({ network: 'ethereum', reachable: true, lastError: null });
    return status.internalTransfers as string | null;
  };

  beforeAll(async () => {
    anvil = await Anvil.start();
    // Like geth: no trace_block, only debug_traceBlockByHash.
    proxy = await RefusingRpcProxy.start(anvil.rpcUrl, (method) => method.startsWith('trace_'));
    t = await chainApp(kind, proxy.url);
    db = t.app.get(DATABASE);
    watcher = t.app.get(ChainWatcherService);
    forwarder = (await anvil.sendData(FORWARDER.bytecode)).contractAddress!;
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await anvil?.close();
  });

  it('without trace_block, the call trees of debug_traceBlockByHash give the same deposits (same indexes)', async () => {
    const first = await customerAddress(t);
    const second = await customerAddress(t);
    await poll();
    const txid = await call(anvil, forwarder, SPLIT + word(first.address) + word(second.address), ETH);
    await call(anvil, forwarder, FORWARD_UNDONE + word(first.address), ETH);
    await poll();
    expect(await depositsOf(db, txid)).toEqual([
      expect.objectContaining({ outputIndex: -2, amountBase: (ETH / 2n).toString(), address: first.address }),
      expect.objectContaining({ outputIndex: -3, amountBase: (ETH / 2n).toString(), address: second.address }),
    ]);
    expect(await internalTransfers()).toBe('traced');
  });

  it('without either, says "not traced" on the Chain status screen and keeps crediting direct transfers', async () => {
    proxy.refused = (method) => method.startsWith('trace_') || method.startsWith('debug_');
    const customer = await customerAddress(t);
    await poll();
    const forwarded = await call(anvil, forwarder, FORWARD + word(customer.address), ETH);
    const direct = await anvil.sendEth(customer.address, 2n * ETH);
    await anvil.mine(CONFIRMATIONS);
    await poll();
    await poll();
    expect(await depositsOf(db, forwarded)).toEqual([]);
    expect(await depositsOf(db, direct)).toEqual([expect.objectContaining({ state: 'credited', outputIndex: -1 })]);
    expect(await balanceOf(db, customer._id)).toBe('2.000000000000000000');
    expect(await internalTransfers()).toBe('not traced');
  });
});
