import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { ChainWatcherService } from '../../src/modules/chain/chain-watcher.service';
import { REPLACED_NOTE, notMinedNote } from '../../src/modules/chain/deposit-drops.service';
import { decimalToBase } from '../../src/chain-core/amounts';
import { TPUB } from '../support/chain-e2e';
import { DATABASE_KINDS } from '../support/databases';
import { RegtestLitecoind, litecoindInstalled } from '../support/litecoind';
import { seedCoins } from '../support/market';
import { bearer, loginAdmin, signUp, startTestApp, type TestApp } from '../support/test-app';
import { supportTokens } from '../support/wallet';

/**
 * Deposits replaced before they confirmed (issue 31, item 15), on a real regtest litecoind started with
 * -mempoolreplacement=1 (Litecoin Core relays no replacement by default): a payment seen in the mempool and then
 * replaced — by `bumpfee` (the replacement pays the same address: one deposit credited once, the original dropped) or by
 * a conflicting transaction paying elsewhere (dropped, nothing credited) — leaves History as "rejected" with words a
 * person understands, and the wallet's incoming list; one not mined within CHAIN_LITECOIN_UNMINED_DROP_AFTER_BLOCKS is
 * dropped too, and when it is mined after all it is credited, exactly once.
 */
const CONFIRMATIONS = 2;
const WINDOW = 3;

interface Row {
  _id: string;
  status: string;
  txHash?: string;
  confirmations?: number;
  requiredConfirmations?: number;
  coinAmount: string;
  note: string | null;
}

async function dbRows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

describe.skipIf(!litecoindInstalled).each(DATABASE_KINDS)('litecoin deposits replaced or not mined before they confirmed, on %s', (kind) => {
  let ltc: RegtestLitecoind;
  let t: TestApp;
  let db: Database;
  let admin: string;
  let watcher: ChainWatcherService;

  beforeAll(async () => {
    ltc = await RegtestLitecoind.start({ args: ['-mempoolreplacement=1'] });
    t = await startTestApp(kind, {
      CHAIN_LITECOIN_RPC_URL: ltc.rpcUrl,
      CHAIN_LITECOIN_XPUB: TPUB,
      CHAIN_LITECOIN_CHAIN: 'regtest',
      CHAIN_LITECOIN_CONFIRMATIONS: String(CONFIRMATIONS),
      CHAIN_LITECOIN_UNMINED_DROP_AFTER_BLOCKS: String(WINDOW),
      CHAIN_LITECOIN_POLL_SECONDS: '1',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    });
    await seedCoins(t, { litecoin: '80' });
    await supportTokens(t, ['litecoin']);
    db = t.app.get(DATABASE);
    admin = (await loginAdmin(t.http)).token;
    watcher = t.app.get(ChainWatcherService);
    watcher.stop();
    await watcher.pollOnce('litecoin');
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
  const history = async (token: string) => (await t.http.get('/api/user/get-transaction').set(bearer(token)).expect(200)).body as Row[];
  /** What the wallet shows while deposits confirm (useIncomingDeposits: pending deposits counting confirmations). */
  const incoming = async (token: string) =>
    ((await t.http.get('/api/user/get-transaction').query({ type: 'deposit', status: 'pending' }).set(bearer(token)).expect(200)).body as Row[]).filter(
      (row) => row.requiredConfirmations !== undefined,
    );
  const notifications = async (token: string) =>
    (await t.http.get('/api/user/get-notifications').set(bearer(token)).expect(200)).body as Array<{
      title: string;
      message: string;
      status?: string;
      transactionId?: string;
    }>;
  const state = async (txid: string) =>
    (
      await dbRows<{ state: string; dropReason: string | null }>(db, sql`select state, drop_reason as "dropReason" from chain_deposits where txid = ${txid}`)
    )[0];
  const credits = async (txid: string) =>
    (await dbRows<{ n: number }>(db, sql`select count(*)::int as n from journal_entries where kind = 'chain_deposit_credit' and reason like ${`%${txid}%`}`))[0]
      .n;
  const balance = async (userId: string) =>
    (await dbRows<{ balance: string }>(db, sql`select balance::text as balance from ledger_accounts where token = 'litecoin' and user_id = ${userId}`))[0]
      ?.balance ?? '0';
  /** An opt-in RBF payment (BIP 125) from the miner's wallet. */
  const sendReplaceable = (address: string, amount: string) => ltc.wallet.call<string>('sendtoaddress', [address, amount, '', '', false, true]);

  it('bumpfee: the replacement pays the same address — one deposit credited once, the original dropped with its words, a webhook and a linked notification', async () => {
    const customer = await signUp(t.http);
    const address = await addressOf(customer.token);
    const hook = (
      await t.http
        .post('/api/user/webhooks')
        .set(bearer(customer.token))
        .send({ url: 'http://127.0.0.1:9/hook', events: ['deposit.dropped'] })
        .expect(201)
    ).body as { id: string };

    const original = await sendReplaceable(address, '1.25');
    await poll();
    expect(await state(original)).toEqual({ state: 'seen', dropReason: null });
    expect((await incoming(customer.token)).map((row) => row.txHash)).toEqual([original]);

    const bumped = (await ltc.wallet.call<{ txid: string }>('bumpfee', [original])).txid;
    expect(await ltc.node.call<string[]>('getrawmempool')).toEqual([bumped]);
    await poll();
    expect(await state(original)).toEqual({ state: 'dropped', dropReason: 'replaced' });
    expect(await state(bumped)).toEqual({ state: 'seen', dropReason: null });
    const rows = await history(customer.token);
    const originalRow = rows.find((row) => row.txHash === original)!;
    expect(originalRow).toMatchObject({ status: 'rejected', note: REPLACED_NOTE, confirmations: 0 });
    expect(rows.find((row) => row.txHash === bumped)).toMatchObject({ status: 'pending', confirmations: 0, coinAmount: originalRow.coinAmount });
    // The wallet counts only the real one.
    expect((await incoming(customer.token)).map((row) => row.txHash)).toEqual([bumped]);
    const told = (await notifications(customer.token)).filter((n) => n.title === 'Deposit replaced');
    expect(told).toEqual([
      expect.objectContaining({
        status: 'rejected',
        transactionId: originalRow._id,
        message: expect.stringContaining(`was replaced before it confirmed, so nothing was credited for it.`),
      }),
    ]);
    // The notification's transaction is found by its id (the client opens it).
    const linked = (await t.http.get('/api/user/get-transaction').query({ id: originalRow._id }).set(bearer(customer.token)).expect(200)).body as Row[];
    expect(linked.map((row) => row._id)).toEqual([originalRow._id]);
    // Only the customer's own; a bad id is a clear 400.
    const other = await signUp(t.http);
    expect((await t.http.get('/api/user/get-transaction').query({ id: originalRow._id }).set(bearer(other.token)).expect(200)).body).toEqual([]);
    expect((await t.http.get('/api/user/get-transaction').query({ id: 'nope' }).set(bearer(customer.token)).expect(400)).body).toMatchObject({
      error: expect.stringContaining('The transaction id is not valid.'),
    });
    const hooked = await dbRows<{ eventType: string }>(db, sql`select event_type as "eventType" from webhook_deliveries where endpoint_id = ${hook.id}`);
    expect(hooked).toEqual([{ eventType: 'deposit.dropped' }]);

    // The replacement is mined and confirmed: credited once; the original never.
    await ltc.mine(CONFIRMATIONS);
    await poll();
    await poll();
    expect(await state(bumped)).toEqual({ state: 'credited', dropReason: null });
    expect(await state(original)).toEqual({ state: 'dropped', dropReason: 'replaced' });
    expect(await credits(bumped)).toBe(1);
    expect(await credits(original)).toBe(0);
    expect(await balance(customer._id)).toMatch(/^1\.25(0*)$/);
    expect(await incoming(customer.token)).toEqual([]);
    expect((await history(customer.token)).map((row) => [row.txHash, row.status])).toEqual(
      expect.arrayContaining([
        [bumped, 'approved'],
        [original, 'rejected'],
      ]),
    );
    // Once: more polls drop and credit nothing again.
    await poll();
    expect((await notifications(customer.token)).filter((n) => n.title === 'Deposit replaced')).toHaveLength(1);
    expect(await credits(bumped)).toBe(1);
  });

  it('a conflicting transaction paying elsewhere: dropped, nothing credited, even once the conflict is mined', async () => {
    const customer = await signUp(t.http);
    const address = await addressOf(customer.token);
    const original = await sendReplaceable(address, '0.8');
    await poll();
    expect((await incoming(customer.token)).map((row) => row.txHash)).toEqual([original]);

    // The same inputs, all back to the miner with a higher fee (a double spend the node accepts as a replacement).
    const raw = await ltc.node.call<{ vin: Array<{ txid: string; vout: number }> }>('getrawtransaction', [original, true]);
    let total = 0n;
    for (const input of raw.vin) total += decimalToBase((await ltc.node.call<{ value: number }>('gettxout', [input.txid, input.vout, false])).value, 8);
    const back = total - 1_000_000n;
    const amount = `${back / 100_000_000n}.${(back % 100_000_000n).toString().padStart(8, '0')}`;
    const unsigned = await ltc.node.call<string>('createrawtransaction', [
      raw.vin.map(({ txid, vout }) => ({ txid, vout })),
      { [await ltc.newAddress()]: amount },
    ]);
    const signed = await ltc.wallet.call<{ hex: string; complete: boolean }>('signrawtransactionwithwallet', [unsigned]);
    expect(signed.complete).toBe(true);
    const conflict = await ltc.node.call<string>('sendrawtransaction', [signed.hex]);
    expect(await ltc.node.call<string[]>('getrawmempool')).toEqual([conflict]);

    await poll();
    expect(await state(original)).toEqual({ state: 'dropped', dropReason: 'replaced' });
    expect(await state(conflict)).toBeUndefined();
    expect(await history(customer.token)).toEqual([expect.objectContaining({ txHash: original, status: 'rejected', note: REPLACED_NOTE })]);
    expect(await incoming(customer.token)).toEqual([]);

    await ltc.mine(CONFIRMATIONS + WINDOW);
    await poll();
    await poll();
    expect(await state(original)).toEqual({ state: 'dropped', dropReason: 'replaced' });
    expect(await credits(original)).toBe(0);
    expect(await balance(customer._id)).toMatch(/^0(\.0+)?$/);
    expect((await notifications(customer.token)).filter((n) => n.title === 'Deposit replaced')).toHaveLength(1);
  });

  it('a reorganisation mines the replaced original after all instead of its replacement: the original is credited, once in all', async () => {
    const customer = await signUp(t.http);
    const address = await addressOf(customer.token);
    const original = await sendReplaceable(address, '0.4');
    const originalHex = await ltc.node.call<string>('getrawtransaction', [original]);
    await poll();
    const bumped = (await ltc.wallet.call<{ txid: string }>('bumpfee', [original])).txid;
    const [block] = await ltc.mine(1);
    await poll();
    expect(await state(original)).toEqual({ state: 'dropped', dropReason: 'replaced' });
    expect(await state(bumped)).toEqual({ state: 'confirming', dropReason: null });

    // The replacement's block leaves the chain and the new branch mines the original (the replacement conflicts now).
    await ltc.invalidate(block);
    await ltc.node.call('generateblock', [await ltc.newAddress(), [originalHex]]);
    expect(await ltc.node.call<string[]>('getrawmempool')).not.toContain(bumped);
    await poll();
    expect(await state(original)).toEqual({ state: 'confirming', dropReason: null });
    expect(await state(bumped)).toEqual({ state: 'seen', dropReason: null });
    expect((await history(customer.token)).find((row) => row.txHash === original)).toMatchObject({ status: 'pending', confirmations: 1, note: null });

    await ltc.mine(CONFIRMATIONS + 6 * CONFIRMATIONS);
    await poll();
    await poll();
    expect(await state(original)).toEqual({ state: 'credited', dropReason: null });
    // The replacement, orphaned before credit and never mined again, is dropped (CHAIN_LITECOIN_DROP_AFTER_BLOCKS).
    expect(await state(bumped)).toEqual({ state: 'dropped', dropReason: 'orphaned' });
    expect([await credits(original), await credits(bumped)]).toEqual([1, 0]);
    expect(await balance(customer._id)).toMatch(/^0\.4(0*)$/);
    expect((await history(customer.token)).map((row) => [row.txHash, row.status])).toEqual(
      expect.arrayContaining([
        [original, 'approved'],
        [bumped, 'rejected'],
      ]),
    );
  });

  it('not mined within the window: dropped, nothing credited; mined after all: credited exactly once', async () => {
    const customer = await signUp(t.http);
    const address = await addressOf(customer.token);
    const txid = await ltc.send(address, '0.6');
    // The miner leaves it out of its blocks (its fee counted as far below nothing), as a payment with too low a fee.
    await ltc.node.call('prioritisetransaction', [txid, 0, -100_000_000]);
    await poll();
    expect(await state(txid)).toEqual({ state: 'seen', dropReason: null });

    await ltc.mine(WINDOW - 1);
    await poll();
    expect(await state(txid)).toEqual({ state: 'seen', dropReason: null });
    await ltc.mine(1);
    await poll();
    expect(await ltc.node.call<string[]>('getrawmempool')).toContain(txid);
    expect(await state(txid)).toEqual({ state: 'dropped', dropReason: 'not_mined' });
    const [row] = await history(customer.token);
    expect(row).toMatchObject({ txHash: txid, status: 'rejected', note: notMinedNote(WINDOW) });
    expect(await incoming(customer.token)).toEqual([]);
    expect((await notifications(customer.token)).filter((n) => n.title === 'Deposit not confirmed')).toEqual([
      expect.objectContaining({ transactionId: row._id, message: expect.stringContaining(`was not mined within ${WINDOW} blocks, so nothing was credited`) }),
    ]);
    expect(await credits(txid)).toBe(0);

    // Mined after all: its row opens again and counts its confirmations, then it is credited once.
    await ltc.node.call('prioritisetransaction', [txid, 0, 200_000_000]);
    await ltc.mine(1);
    await poll();
    expect(await state(txid)).toEqual({ state: 'confirming', dropReason: null });
    expect((await history(customer.token))[0]).toMatchObject({ _id: row._id, status: 'pending', confirmations: 1, note: null });
    expect((await incoming(customer.token)).map((r) => r.txHash)).toEqual([txid]);
    expect(await credits(txid)).toBe(0);
    await ltc.mine(CONFIRMATIONS - 1);
    await poll();
    await poll();
    expect(await state(txid)).toEqual({ state: 'credited', dropReason: null });
    expect((await history(customer.token))[0]).toMatchObject({ _id: row._id, status: 'approved' });
    await ltc.mine(2);
    await poll();
    expect(await credits(txid)).toBe(1);
    expect(await balance(customer._id)).toMatch(/^0\.6(0*)$/);
    expect((await t.http.get('/api/admin/ledger/check').set(bearer(admin)).expect(200)).body.ok).toBe(true);
  });
});
