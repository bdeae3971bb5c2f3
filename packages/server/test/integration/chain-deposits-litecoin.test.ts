import { sql } from 'drizzle-orm';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { ChainConnections } from '../../src/modules/chain/chain-connections';
import { ChainDepositsRepository } from '../../src/modules/chain/chain-deposits.repository';
import { ChainWatcherService } from '../../src/modules/chain/chain-watcher.service';
import { DepositCreditsService } from '../../src/modules/chain/deposit-credits.service';
import { deriveDepositAddress, parseAccountKey } from '../../src/modules/chain/derivation';
import { DATABASE_KINDS } from '../support/databases';
import { RegtestLitecoind, litecoindInstalled } from '../support/litecoind';
import { seedCoins } from '../support/market';
import { bearer, loginAdmin, signUp, startTestApp, type TestApp } from '../support/test-app';
import { expectLedgerClean, holdings, supportTokens, type WalletApp } from '../support/wallet';
import { WebhookReceiver } from '../support/webhook-receiver';

/** BIP84 account key m/84'/1'/0' of the "abandon … about" test mnemonic: the operator's watch-only key here. */
const TPUB = 'tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M';
const CONFIRMATIONS = 3;

interface Tx {
  _id: string;
  type: string;
  status: string;
  token: string;
  network: string | null;
  address: string | null;
  coinAmount: string;
  txHash?: string;
  confirmations?: number;
  requiredConfirmations?: number;
  note: string | null;
}

describe.skipIf(!litecoindInstalled).each(DATABASE_KINDS)('deposits from a regtest litecoind on %s', (kind) => {
  let ltc: RegtestLitecoind;
  let t: WalletApp;
  let db: Database;
  let watcher: ChainWatcherService;
  const logLines: string[] = [];

  beforeAll(async () => {
    ltc = await RegtestLitecoind.start();
    const logs = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    t = Object.assign(
      await startTestApp(
        kind,
        {
          CHAIN_LITECOIN_RPC_URL: ltc.rpcUrl,
          CHAIN_LITECOIN_XPUB: TPUB,
          CHAIN_LITECOIN_CHAIN: 'regtest',
          CHAIN_LITECOIN_CONFIRMATIONS: String(CONFIRMATIONS),
          CHAIN_LITECOIN_POLL_SECONDS: '1',
          LOG_LEVEL: 'info',
          // The webhook test's receiver listens on loopback over http.
          WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        },
        { logDestination: logs },
      ),
      { admin: '' },
    );
    t.admin = await prepareWallet(t);
    db = t.app.get(DATABASE);
    watcher = t.app.get(ChainWatcherService);
    // The test drives the polls itself (the scheduled ones would race its assertions).
    watcher.stop();
  });

  afterAll(async () => {
    await t?.close();
    await ltc?.close();
  });

  const poll = () => watcher.pollOnce('litecoin');
  const history = async (token: string) => (await t.http.get('/api/user/get-transaction').set(bearer(token)).expect(200)).body as Tx[];
  const walletAddress = async (token: string) => {
    const tokens = (await t.http.get('/api/crypto/get-wallet-tokens').set(bearer(token)).expect(200)).body as Array<{
      id: string;
      address: string | null;
      networks: Array<{ network: string; address: string | null }>;
    }>;
    const litecoin = tokens.find((x) => x.id === 'litecoin')!;
    expect(litecoin.networks).toEqual([
      { network: 'litecoin', name: 'Litecoin', address: litecoin.address, depositNote: null, requiredConfirmations: CONFIRMATIONS },
    ]);
    return litecoin.address!;
  };
  const depositRows = async (txid: string) =>
    (
      (await db.execute(
        sql`select state, confirmations, review, amount_base::text as "amountBase" from chain_deposits where txid = ${txid} order by output_index`,
      )) as unknown as {
        rows: Array<{ state: string; confirmations: number; review: string | null; amountBase: string }>;
      }
    ).rows;
  const creditEntries = async (txid: string) =>
    Number(
      (
        (await db.execute(
          sql`select count(*)::int as n from journal_entries where kind = 'chain_deposit_credit' and reason like ${`%${txid}%`}`,
        )) as unknown as {
          rows: Array<{ n: number }>;
        }
      ).rows[0].n,
    );

  it('gives each customer an address of their own, derived from the xpub, allocated once, that the node accepts', async () => {
    const first = await signUp(t.http);
    const second = await signUp(t.http);
    const a = await walletAddress(first.token);
    const b = await walletAddress(second.token);
    expect(a).toMatch(/^rltc1q/);
    expect(b).toMatch(/^rltc1q/);
    expect(a).not.toBe(b);
    // The same address every time (allocated once), and the one derived at the customer's index.
    expect(await walletAddress(first.token)).toBe(a);
    const account = parseAccountKey('litecoin', 'regtest', TPUB);
    const derived = [0, 1, 2, 3].map((i) => deriveDepositAddress(account, i).address);
    expect(derived).toEqual(expect.arrayContaining([a, b]));
    // litecoind itself says it is a valid regtest address of the right kind.
    const validated = await ltc.node.call<{ isvalid: boolean; iswitness: boolean }>('validateaddress', [a]);
    expect(validated).toMatchObject({ isvalid: true, iswitness: true });
  });

  it('a deposit is seen in a block, confirms n of N live in History, is credited once with a notification and a mail', async () => {
    const customer = await signUp(t.http);
    const address = await walletAddress(customer.token);
    await poll(); // the cursor starts at the node's tip
    const txid = await ltc.send(address, '1.23456789');
    const vout = await ltc.outputTo(txid, address);
    await ltc.mine(1);
    const first = await poll();
    expect(first).toMatchObject({ blocksRead: 1 });
    expect(await depositRows(txid)).toEqual([{ state: 'confirming', confirmations: 1, review: null, amountBase: '123456789' }]);
    const [pending] = await history(customer.token);
    expect(pending).toMatchObject({
      type: 'deposit',
      status: 'pending',
      token: 'litecoin',
      network: 'litecoin',
      address,
      txHash: txid,
      confirmations: 1,
      requiredConfirmations: CONFIRMATIONS,
    });
    expect((await holdings(t, customer.token)).litecoin ?? '0.000').toBe('0.000');

    await ltc.mine(1);
    await poll();
    expect((await history(customer.token))[0]).toMatchObject({ status: 'pending', confirmations: 2 });

    await ltc.mine(1);
    await poll();
    expect(await depositRows(txid)).toEqual([{ state: 'credited', confirmations: 3, review: null, amountBase: '123456789' }]);
    expect((await history(customer.token))[0]).toMatchObject({ _id: pending._id, status: 'approved', confirmations: 3, requiredConfirmations: 3 });
    // Exact: 1.23456789 LTC in the ledger (shown with the token's 3 decimals).
    expect((await holdings(t, customer.token)).litecoin).toBe('1.234');
    const balance = (await db.execute(
      sql`select balance::text as balance from ledger_accounts where user_id = ${customer._id} and token = 'litecoin'`,
    )) as unknown as { rows: Array<{ balance: string }> };
    expect(balance.rows[0].balance).toMatch(/^1\.23456789(0*)$/);
    expect(vout).toBeGreaterThanOrEqual(0);
    // Every unit is shown beside the seed's display amount: the balance, the History row and the export.
    const ltcBalance = (
      (await t.http.get('/api/user/get-user-balance').set(bearer(customer.token)).expect(200)).body.balances as Array<Record<string, string>>
    ).find((b) => b.token === 'litecoin')!;
    expect(ltcBalance).toMatchObject({ coinAmount: '1.234', coinAmountExact: '1.23456789', balance: 98.7654312 });
    // The total counts every unit too (1.23456789 LTC at $80), not the display's 1.234.
    expect((await t.http.get('/api/user/get-user-balance').set(bearer(customer.token)).expect(200)).body.totalBalance).toBe(98.7654312);
    expect((await history(customer.token))[0]).toMatchObject({ coinAmount: '1.234', coinAmountExact: '1.23456789' });
    const csv = (await t.http.get('/api/user/export-transactions').set(bearer(customer.token)).expect(200)).text.split('\r\n');
    expect(csv[0]).toMatch(/,"?Coin amount \(exact\)"?$/);
    expect(csv[1]).toMatch(/,"1\.23456789"$/);

    // Replays: more polls, the block read again from a moved-back cursor, a direct second credit: nothing moves twice.
    await poll();
    await ltc.mine(2);
    await poll();
    const chain = t.app.get(ChainConnections).get('litecoin')!;
    const id = ((await db.execute(sql`select id from chain_deposits where txid = ${txid}`)) as unknown as { rows: Array<{ id: string }> }).rows[0].id;
    expect(await t.app.get(DepositCreditsService).credit(chain, id)).toBe(false);
    expect(await creditEntries(txid)).toBe(1);

    const notifications = (await t.http.get('/api/user/get-notifications').set(bearer(customer.token)).expect(200)).body as Array<{
      title: string;
      message: string;
    }>;
    expect(notifications.filter((n) => n.title === 'Deposit approved')).toEqual([
      expect.objectContaining({ message: expect.stringContaining(`credited after 3 confirmations. Transaction hash: ${txid}`) }),
    ]);
    const mails = (await db.execute(sql`select subject, text from mail_outbox where "to" = ${customer.email}`)) as unknown as {
      rows: Array<{ subject: string; text: string }>;
    };
    expect(mails.rows).toEqual([{ subject: 'Deposit credited: 1.234 LTC', text: expect.stringContaining(`Transaction: ${txid}`) }]);

    // Max sends the exact holding: nothing stays stuck below the display decimals. A malformed exact amount is a 400.
    const to = await ltc.newAddress();
    const send = (coinAmountExact: unknown) =>
      t.http
        .post('/api/crypto/send-crypto/litecoin')
        .set(bearer(customer.token))
        .send({ transferData: { address: to, amount: '98.77', coinAmountExact } });
    expect((await send('1.2345678912345678912')).body.error).toMatch(/at most 18 decimal places/);
    expect((await send(1.5)).body.error).toMatch(/Coin amount must be text/);
    expect((await send('2')).body.error).toBe('Insufficient LTC balance');
    const sent = (await send('1.23456789').expect(201)).body.transaction;
    expect(sent).toMatchObject({ type: 'withdrawal', coinAmount: '1.234', coinAmountExact: '1.23456789', amount: 98.7654312 });
    const left = ((await t.http.get('/api/user/get-user-balance').set(bearer(customer.token)).expect(200)).body.balances as Array<Record<string, string>>).find(
      (b) => b.token === 'litecoin',
    )!;
    expect(left).toMatchObject({ coinAmount: '0.000', coinAmountExact: '0' });
    await expectLedgerClean(t);
  });

  it('a payment waiting in the mempool shows at once as seen (0 of 3), then confirms and is credited once', async () => {
    const customer = await signUp(t.http);
    const address = await walletAddress(customer.token);
    await poll();
    const txid = await ltc.send(address, '0.25');
    await poll();
    expect(await depositRows(txid)).toEqual([{ state: 'seen', confirmations: 0, review: null, amountBase: '25000000' }]);
    expect((await history(customer.token))[0]).toMatchObject({ status: 'pending', txHash: txid, confirmations: 0, requiredConfirmations: CONFIRMATIONS });
    await poll(); // read once: nothing new
    await ltc.mine(1);
    await poll();
    expect(await depositRows(txid)).toEqual([expect.objectContaining({ state: 'confirming', confirmations: 1 })]);
    expect((await history(customer.token))[0]).toMatchObject({ status: 'pending', confirmations: 1 });
    await ltc.mine(CONFIRMATIONS - 1);
    await poll();
    expect(await depositRows(txid)).toEqual([expect.objectContaining({ state: 'credited' })]);
    expect(await history(customer.token)).toHaveLength(1);
    expect(await creditEntries(txid)).toBe(1);
  });

  it('a History row an admin settled by hand meanwhile is never credited again: approved stays credited once, rejected is dropped', async () => {
    const approvedBy = await signUp(t.http);
    const rejectedBy = await signUp(t.http);
    await poll();
    const approvedTx = await ltc.send(await walletAddress(approvedBy.token), '0.4');
    const rejectedTx = await ltc.send(await walletAddress(rejectedBy.token), '0.6');
    await ltc.mine(1);
    await poll();
    const rowOf = async (token: string) => (await history(token))[0]._id;
    await t.http
      .post('/api/admin/modify-transaction')
      .set(bearer(t.admin))
      .send({ tId: await rowOf(approvedBy.token), modification: 'approved' })
      .expect(200);
    await t.http
      .post('/api/admin/modify-transaction')
      .set(bearer(t.admin))
      .send({ tId: await rowOf(rejectedBy.token), modification: 'rejected' })
      .expect(200);
    await ltc.mine(CONFIRMATIONS);
    await poll();
    expect(await depositRows(approvedTx)).toEqual([expect.objectContaining({ state: 'credited' })]);
    expect(await depositRows(rejectedTx)).toEqual([expect.objectContaining({ state: 'dropped' })]);
    expect(await creditEntries(approvedTx)).toBe(0); // the admin's own entry moved it, once
    expect((await holdings(t, approvedBy.token)).litecoin).toBe('0.400');
    expect((await holdings(t, rejectedBy.token)).litecoin ?? '0.000').toBe('0.000');
    await expectLedgerClean(t);
  });

  it('a block read twice (cursor moved back by hand) records and credits nothing twice', async () => {
    const customer = await signUp(t.http);
    const address = await walletAddress(customer.token);
    await poll();
    const txid = await ltc.send(address, '0.5');
    await ltc.mine(CONFIRMATIONS);
    await poll();
    expect(await depositRows(txid)).toEqual([expect.objectContaining({ state: 'credited' })]);
    // Put the cursor back 3 blocks (as a crash between reading and a lost commit would leave it): the same blocks come again.
    const height = await ltc.height();
    const back = height - CONFIRMATIONS;
    await db.execute(sql`update chain_cursors set height = ${back}, block_hash = ${await ltc.blockHash(back)} where network = 'litecoin'`);
    const replay = await poll();
    expect(replay.blocksRead).toBe(CONFIRMATIONS);
    expect(await depositRows(txid)).toEqual([expect.objectContaining({ state: 'credited' })]);
    expect(await creditEntries(txid)).toBe(1);
    expect((await holdings(t, customer.token)).litecoin).toBe('0.500');
  });

  it('a dust deposit below the minimum (0.001 LTC) is recorded and shown, never credited', async () => {
    const customer = await signUp(t.http);
    const address = await walletAddress(customer.token);
    await poll();
    const txid = await ltc.send(address, '0.0005');
    await ltc.mine(CONFIRMATIONS + 1);
    await poll();
    expect(await depositRows(txid)).toEqual([expect.objectContaining({ state: 'below_minimum', amountBase: '50000' })]);
    expect((await history(customer.token))[0]).toMatchObject({
      type: 'deposit',
      status: 'rejected',
      txHash: txid,
      note: 'Below the minimum deposit of 0.001 LTC: recorded, not credited.',
    });
    expect(await creditEntries(txid)).toBe(0);
  });

  it('a reorganisation before credit sends the deposit back to seen; mined again it confirms and is credited once', async () => {
    const customer = await signUp(t.http);
    const address = await walletAddress(customer.token);
    await poll();
    const txid = await ltc.send(address, '2');
    const [blockHash] = await ltc.mine(1);
    await poll();
    expect(await depositRows(txid)).toEqual([expect.objectContaining({ state: 'confirming', confirmations: 1 })]);
    // Orphan the block: the node's best chain no longer holds the payment (back in its mempool).
    await ltc.invalidate(blockHash);
    const rewound = await poll();
    expect(rewound.rewoundTo).toBe(await ltc.height());
    expect(await depositRows(txid)).toEqual([expect.objectContaining({ state: 'seen', confirmations: 0 })]);
    expect((await history(customer.token))[0]).toMatchObject({ status: 'pending', confirmations: 0 });
    // Mined again on the new branch (from the mempool): confirming, then credited once.
    await ltc.mine(CONFIRMATIONS, await ltc.newAddress());
    await poll();
    expect(await depositRows(txid)).toEqual([expect.objectContaining({ state: 'credited', confirmations: CONFIRMATIONS })]);
    expect(await creditEntries(txid)).toBe(1);
    expect((await holdings(t, customer.token)).litecoin).toBe('2.000');
  });

  it('a reorganisation after credit flags the deposit for review with an alert, and debits nothing', async () => {
    // The administrators' webhook: the deposit's events (first seen already confirmed), then the review.
    const hook = await WebhookReceiver.start();
    const events = ['deposit.pending', 'deposit.confirmed', 'deposit.credited', 'deposit.review_required'];
    const endpoint = (await t.http.post('/api/admin/webhooks').set(bearer(t.admin)).send({ url: hook.url, events }).expect(201)).body;
    const customer = await signUp(t.http);
    const address = await walletAddress(customer.token);
    await poll();
    const txid = await ltc.send(address, '0.75');
    const [blockHash] = await ltc.mine(CONFIRMATIONS);
    await poll();
    expect(await depositRows(txid)).toEqual([expect.objectContaining({ state: 'credited' })]);
    await ltc.invalidate(blockHash);
    // The node's chain is now shorter than the cursor: the poll rewinds to the fork.
    await poll();
    expect(await depositRows(txid)).toEqual([expect.objectContaining({ state: 'credited', review: 'orphaned_after_credit' })]);
    expect((await holdings(t, customer.token)).litecoin).toBe('0.750');
    expect(await creditEntries(txid)).toBe(1);
    expect(logLines.join('')).toContain(`ALERT credited deposit ${txid}`);
    const mine = () => hook.receipts.filter((receipt) => (receipt.event.data.txHash ?? receipt.event.data.txid) === txid);
    await expect.poll(() => mine().length).toBe(4);
    expect(
      mine().map((receipt) => {
        WebhookReceiver.verify(receipt, endpoint.secret);
        return [receipt.event.type, receipt.event.data.confirmations, receipt.event.data.status ?? receipt.event.data.review];
      }),
    ).toEqual([
      // Found in a block: recorded with its first confirmation, then counted and credited in the same poll.
      ['deposit.pending', 1, 'pending'],
      ['deposit.confirmed', 1, 'pending'],
      ['deposit.credited', CONFIRMATIONS, 'approved'],
      ['deposit.review_required', CONFIRMATIONS, 'orphaned_after_credit'],
    ]);
    // The review's body is the deposit as the back office lists it: named, exact, not decided yet.
    expect(mine().at(-1)!.event.data).toMatchObject({ symbol: 'LTC', tokenName: 'Litecoin', amount: '0.75', reviewResolution: null });
    await t.http.delete(`/api/admin/webhooks/${endpoint.id}`).set(bearer(t.admin)).expect(200);
    await hook.close();
    // Let the node mine the payment again so later tests start from a clean mempool.
    await ltc.mine(1, await ltc.newAddress());
    await poll();
    await expectLedgerClean(t);
  });

  it('a node that is down is retried with back-off, never moves the cursor, never logs the RPC password; it resumes when back', async () => {
    const before = await t.app.get(ChainDepositsRepository).cursor('litecoin');
    await ltc.stop();
    expect(await watcher.pollSafely('litecoin')).toBe(false);
    expect(await watcher.pollSafely('litecoin')).toBe(false);
    expect(watcher.failuresOf('litecoin')).toBe(2);
    const state = (await db.execute(sql`select height, block_hash, last_error from chain_cursors where network = 'litecoin'`)) as unknown as {
      rows: Array<{ height: number | string; block_hash: string; last_error: string | null }>;
    };
    expect(Number(state.rows[0].height)).toBe(before!.height);
    expect(state.rows[0].last_error).toMatch(/did not answer getblockcount/);
    expect(state.rows[0].last_error).not.toContain(ltc.rpcPassword);
    expect(logLines.join('')).toContain('litecoin watcher:');
    expect(logLines.join('')).not.toContain(ltc.rpcPassword);

    await ltc.start();
    const customer = await signUp(t.http);
    const address = await walletAddress(customer.token);
    const txid = await ltc.send(address, '0.3');
    await ltc.mine(CONFIRMATIONS);
    expect(await watcher.pollSafely('litecoin')).toBe(true);
    expect(watcher.failuresOf('litecoin')).toBe(0);
    expect(await depositRows(txid)).toEqual([expect.objectContaining({ state: 'credited' })]);
  });

  it('the operator sees each network on the Chain status screen, the deposits list and the chain metrics', async () => {
    await ltc.stop();
    await watcher.pollSafely('litecoin');
    const down = (await t.http.get('/api/admin/chain/status').set(bearer(t.admin)).expect(200)).body;
    expect(down).toEqual([
      expect.objectContaining({
        network: 'litecoin',
        chain: 'regtest',
        node: `http://127.0.0.1:${ltc.rpcPort}`,
        reachable: false,
        lastError: expect.stringContaining('did not answer'),
        requiredConfirmations: CONFIRMATIONS,
      }),
    ]);
    expect(JSON.stringify(down)).not.toContain(ltc.rpcPassword);
    await ltc.start();
    await ltc.mine(2);
    await watcher.pollSafely('litecoin');
    const [up] = (await t.http.get('/api/admin/chain/status').set(bearer(t.admin)).expect(200)).body;
    const height = await ltc.height();
    expect(up).toMatchObject({ reachable: true, nodeHeight: height, height, lagBlocks: 0, lastError: null, depositsToReview: 1 });
    expect(up.lagSeconds).toBeGreaterThanOrEqual(0);
    const deposits = (await t.http.get('/api/admin/chain/deposits?network=litecoin').set(bearer(t.admin)).expect(200)).body as Array<{
      state: string;
      review: string | null;
      amount: string;
      symbol: string;
      tokenName: string;
    }>;
    expect(deposits.length).toBeGreaterThanOrEqual(6);
    // Named and exact, without the 18 places the column keeps: "1.5 LTC", never "1.500000000000000000 litecoin".
    for (const deposit of deposits) {
      expect(deposit).toMatchObject({ symbol: 'LTC', tokenName: 'Litecoin' });
      expect(deposit.amount).toMatch(/^\d+(\.\d*[1-9])?$/);
    }
    expect(deposits.filter((d) => d.review === 'orphaned_after_credit')).toHaveLength(1);
    expect(deposits.some((d) => d.state === 'below_minimum')).toBe(true);
    const customer = await signUp(t.http);
    await t.http.get('/api/admin/chain/status').set(bearer(customer.token)).expect(403);
    const metrics = (await t.http.get('/api/metrics').expect(200)).text;
    expect(metrics).toContain(`chain_height{network="litecoin",source="node"} ${height}`);
    expect(metrics).toContain(`chain_height{network="litecoin",source="watcher"} ${height}`);
    expect(metrics).toContain('chain_lag_blocks{network="litecoin"} 0');
    expect(metrics).toMatch(/chain_deposits\{network="litecoin",state="credited"\} \d+/);
    expect(metrics).toContain('chain_deposits{network="litecoin",state="below_minimum"} 1');
  });

  it('signs deposit.pending, deposit.confirmed at each confirmation and deposit.credited to webhooks, in order', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const customer = await signUp(t.http);
      const { secret } = (
        await t.http
          .post('/api/user/webhooks')
          .set(bearer(customer.token))
          .send({ url: receiver.url, events: ['deposit.pending', 'deposit.confirmed', 'deposit.credited'] })
          .expect(201)
      ).body;
      const address = await walletAddress(customer.token);
      await poll();
      const txid = await ltc.send(address, '0.5');
      await poll(); // seen in the mempool: pending, 0 of 3
      for (let block = 0; block < CONFIRMATIONS; block += 1) {
        await ltc.mine(1);
        await poll();
      }
      await expect.poll(() => receiver.receipts.length).toBe(4);
      const events = receiver.receipts.map((receipt) => {
        expect(WebhookReceiver.verify(receipt, secret)).toEqual(receipt.event);
        const { status, confirmations, requiredConfirmations, txHash } = receipt.event.data;
        return { type: receipt.event.type, status, confirmations, requiredConfirmations, txHash };
      });
      expect(events).toEqual([
        { type: 'deposit.pending', status: 'pending', confirmations: 0, requiredConfirmations: 3, txHash: txid },
        { type: 'deposit.confirmed', status: 'pending', confirmations: 1, requiredConfirmations: 3, txHash: txid },
        { type: 'deposit.confirmed', status: 'pending', confirmations: 2, requiredConfirmations: 3, txHash: txid },
        { type: 'deposit.credited', status: 'approved', confirmations: 3, requiredConfirmations: 3, txHash: txid },
      ]);
      // One History row, one event id per change.
      expect(new Set(receiver.receipts.map((receipt) => receipt.event.data._id)).size).toBe(1);
      expect(new Set(receiver.receipts.map((receipt) => receipt.id)).size).toBe(4);
    } finally {
      await receiver.close();
    }
  });

  it('refuses a mainnet litecoin address on the regtest chain (and accepts a regtest one)', async () => {
    const customer = await signUp(t.http);
    const mainnet = await t.http
      .post('/api/user/addresses')
      .set(bearer(customer.token))
      .send({ label: 'Mainnet', token: 'litecoin', network: 'litecoin', address: 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh' })
      .expect(400);
    expect(mainnet.body.message ?? JSON.stringify(mainnet.body)).toContain('This is not a valid regtest Litecoin address.');
    await t.http
      .post('/api/user/addresses')
      .set(bearer(customer.token))
      .send({ label: 'Regtest', token: 'litecoin', network: 'litecoin', address: ltc.minerAddress })
      .expect(201);
  });
});

/** What startWalletApp does, on an app started with the chain settings: prices, supported tokens (litecoin too), the admin. */
async function prepareWallet(t: TestApp): Promise<string> {
  await seedCoins(t, { bitcoin: '50000', ethereum: '2500', tether: '1', litecoin: '80' });
  await supportTokens(t, ['bitcoin', 'ethereum', 'tether', 'litecoin']);
  return (await loginAdmin(t.http)).token;
}
