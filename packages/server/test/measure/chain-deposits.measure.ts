import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { ChainConnections } from '../../src/modules/chain/chain-connections';
import { ChainWatcherService } from '../../src/modules/chain/chain-watcher.service';
import { DepositAddressesService } from '../../src/modules/chain/deposit-addresses.service';
import { ReferenceDataCache } from '../../src/modules/reference-data/reference-data.cache';
// @ts-expect-error -- the bench's plain-JS figure printer (no types)
import { figure } from '../../../../scripts/bench/figures.mjs';
import { RegtestLitecoind } from '../support/litecoind';
import { seedCoins } from '../support/market';
import { startTestApp, type TestApp } from '../support/test-app';
import { supportTokens } from '../support/wallet';

/**
 * Deposits from the chain, figures (issue 24) on a real regtest litecoind: addresses allocated (BENCH_ADDRESSES, the
 * issue's figure is 100,000), a block with BENCH_BLOCK_TXS (2,000) payments to customers (sent with `sendmany`, 250 a
 * transaction) read, matched and recorded, catching up
 * BENCH_CATCH_UP (1,000) blocks, and the watcher's lag in steady state (a block every 2 s, polling every second).
 * PostgreSQL when BENCH_DATABASE_URL/TEST_DATABASE_URL is set, else PGlite. Printed as figures, never asserted.
 */
const ADDRESSES = Number(process.env.BENCH_ADDRESSES ?? 100_000);
const BLOCK_TXS = Math.min(Number(process.env.BENCH_BLOCK_TXS ?? 2_000), ADDRESSES);
const CATCH_UP = Number(process.env.BENCH_CATCH_UP ?? 1_000);
const TPUB = 'tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M';
const kind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';

describe(`chain deposits figures on ${kind}`, () => {
  let ltc: RegtestLitecoind;
  let t: TestApp;
  let db: Database;
  let watcher: ChainWatcherService;
  const seconds = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e9;

  beforeAll(async () => {
    ltc = await RegtestLitecoind.start();
    t = await startTestApp(kind, {
      CHAIN_LITECOIN_RPC_URL: ltc.rpcUrl,
      CHAIN_LITECOIN_XPUB: TPUB,
      CHAIN_LITECOIN_CHAIN: 'regtest',
      CHAIN_LITECOIN_CONFIRMATIONS: '6',
      CHAIN_LITECOIN_POLL_SECONDS: '1',
    });
    await seedCoins(t, { litecoin: '80' });
    await supportTokens(t, ['litecoin']);
    t.app.get(ReferenceDataCache).invalidate();
    db = t.app.get(DATABASE);
    watcher = t.app.get(ChainWatcherService);
    watcher.stop();
  });
  afterAll(async () => {
    await t?.close();
    await ltc?.close();
  });

  it('figures', async () => {
    // 1. Addresses: customers made in bulk, then each allocated through the service (derivation + counter + insert).
    await db.execute(sql`insert into users (name, email, email_normalized, password_hash, country)
      select 'Bench ' || i, 'bench' || i || '@example.com', 'bench' || i || '@example.com', 'x', 'Germany' from generate_series(1, ${ADDRESSES}) as i`);
    const users = ((await db.execute(sql`select id from users where email like 'bench%' order by email`)) as unknown as { rows: Array<{ id: string }> }).rows;
    const chain = t.app.get(ChainConnections).get('litecoin')!;
    const service = t.app.get(DepositAddressesService);
    const addresses: string[] = [];
    let started = process.hrtime.bigint();
    for (const user of users) addresses.push((await service.allocate(user.id, chain)).address);
    const allocSeconds = seconds(started);
    figure({
      name: `deposit addresses allocated (${ADDRESSES.toLocaleString('en-US')}, ${kind})`,
      value: ADDRESSES / allocSeconds,
      unit: '/s',
      target: 'none (the issue: 100,000 allocated)',
      detail: `${allocSeconds.toFixed(1)} s in all, one transaction each`,
    });

    // 2. Catching up: CATCH_UP blocks mined while the watcher waits, then polls until it is at the tip.
    await watcher.pollOnce('litecoin');
    await ltc.mine(CATCH_UP);
    started = process.hrtime.bigint();
    let polls = 0;
    for (;;) {
      polls++;
      const result = await watcher.pollOnce('litecoin');
      if (result.height >= result.nodeHeight) break;
    }
    const catchUpSeconds = seconds(started);
    figure({ name: `catching up ${CATCH_UP} blocks`, value: catchUpSeconds, unit: 's', target: '< 60 s', met: catchUpSeconds < 60, detail: `${polls} polls` });

    // 3. One block paying BLOCK_TXS customers, read, matched and recorded by one poll.
    await watcher.pollOnce('litecoin');
    // The payments: `sendmany` of 250 outputs each (the wallet cannot chain 2,000 single payments in one mempool).
    for (let i = 0; i < BLOCK_TXS; i += 250) {
      const outputs = Object.fromEntries(addresses.slice(i, Math.min(i + 250, BLOCK_TXS)).map((address) => [address, '0.01']));
      await ltc.wallet.call('sendmany', ['', outputs]);
    }
    const [hash] = await ltc.mine(1);
    const block = await chain.node.block(hash);
    started = process.hrtime.bigint();
    const polled = await watcher.pollOnce('litecoin');
    const pollSeconds = seconds(started);
    started = process.hrtime.bigint();
    await chain.node.block(hash);
    const readSeconds = seconds(started);
    const recorded = (
      (await db.execute(sql`select count(*)::int as n from chain_deposits where block_hash = ${hash}`)) as unknown as { rows: Array<{ n: number }> }
    ).rows[0].n;
    figure({
      name: `block with ${block.outputs.length} outputs, ${recorded} of them deposits: read + matched + recorded`,
      value: pollSeconds,
      unit: 's',
      anchor: { label: 'getblock <hash> 2 alone', value: readSeconds, unit: 's' },
      target: '< 1 s',
      met: pollSeconds < 1,
      detail: `${polled.blocksRead} block read`,
    });

    // 4. Crediting them: the block gets its confirmations (6), then each deposit is credited in its own transaction
    // (state change, History row, notification, mail, audit and the ledger entry).
    await ltc.mine(5);
    started = process.hrtime.bigint();
    await watcher.pollOnce('litecoin');
    const creditSeconds = seconds(started);
    const credited = (
      (await db.execute(sql`select count(*)::int as n from chain_deposits where block_hash = ${hash} and state = 'credited'`)) as unknown as {
        rows: Array<{ n: number }>;
      }
    ).rows[0].n;
    figure({
      name: `crediting ${credited} deposits (one transaction each)`,
      value: credited / creditSeconds,
      unit: '/s',
      target: 'none',
      detail: `${creditSeconds.toFixed(1)} s`,
    });

    // 5. Steady state: the scheduled watcher (1 s polls) while a block comes every 2 s; the lag sampled before each block.
    const restarted = new ChainWatcherServiceRestart(watcher);
    restarted.start();
    const lags: number[] = [];
    for (let i = 0; i < 15; i++) {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const cursor = (
        (await db.execute(sql`select height from chain_cursors where network = 'litecoin'`)) as unknown as { rows: Array<{ height: string | number }> }
      ).rows[0];
      lags.push((await ltc.height()) - Number(cursor.height));
      await ltc.mine(1);
    }
    restarted.stop();
    const meanLag = lags.reduce((a, b) => a + b, 0) / lags.length;
    figure({
      name: 'watcher lag in steady state (block every 2 s, poll 1 s)',
      value: meanLag,
      unit: 'blocks',
      target: '< 1 block',
      met: Math.max(...lags) < 1,
      detail: `max ${Math.max(...lags)} of ${lags.length} samples`,
    });
  });
});

/** Runs the watcher's own scheduled polling again after the figures above drove it by hand. */
class ChainWatcherServiceRestart {
  private timer: NodeJS.Timeout | undefined;
  constructor(private readonly watcher: ChainWatcherService) {}
  start(): void {
    const tick = async () => {
      await this.watcher.pollSafely('litecoin');
      this.timer = setTimeout(tick, 1000);
    };
    this.timer = setTimeout(tick, 0);
  }
  stop(): void {
    clearTimeout(this.timer);
  }
}
