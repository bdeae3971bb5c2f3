import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Worker } from 'node:worker_threads';
import { ACCOUNT_BUSY_MESSAGE, TOO_MANY_MONEY_CALLS_MESSAGE } from '../../src/modules/ledger/money-calls';
import { ADDRESSES, call, expectLedgerClean, fund, holdings, newCustomer, startWalletApp, type WalletApp } from '../support/wallet';

const POSTGRES = Boolean(process.env.TEST_DATABASE_URL);
if (!POSTGRES) console.warn('wallet-burst: SKIPPED — set TEST_DATABASE_URL (a pool of connections and row locks are what is measured).');

/**
 * Fires `count` concurrent POSTs from a worker thread (its own event loop, as another client machine would be: the
 * burst's client work does not run on the server's loop) and resolves with each answer's status, body and Retry-After.
 */
function burstFromWorker(url: string, token: string, count: number, body: unknown): Promise<Array<{ status: number; body: any; retryAfter: string | null }>> {
  const code = `
    const { parentPort, workerData: { url, token, count, body } } = require('node:worker_threads');
    Promise.all(Array.from({ length: count }, async () => {
      const response = await fetch(url, { method: 'POST', headers: { Authorization: 'Bearer ' + token, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      const text = await response.text();
      let parsed = text;
      try { parsed = JSON.parse(text); } catch {}
      return { status: response.status, body: parsed, retryAfter: response.headers.get('retry-after') };
    })).then((results) => parentPort.postMessage(results), (error) => parentPort.postMessage({ error: String(error) }));
  `;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData: { url, token, count, body } });
    worker.once('message', (message) => {
      void worker.terminate();
      if ('error' in message) reject(new Error(message.error));
      else resolve(message);
    });
    worker.once('error', reject);
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

describe.skipIf(!POSTGRES)("one customer's burst on PostgreSQL (skipped without TEST_DATABASE_URL)", () => {
  let t: WalletApp;
  beforeAll(async () => {
    // The production timeouts (lock 2 s, connection 10 s) and pool: what a burst met before it was limited.
    t = await startWalletApp('postgres', {}, { listen: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("1,000 concurrent 10 USD sends on 100 USD: exactly 10 accepted, the rest 400 or 429, no 5xx; another customer's reads and swaps meanwhile all succeed, none waiting a lock timeout", async () => {
    const burster = await newCustomer(t);
    const bystander = await newCustomer(t);
    await fund(t, burster._id, 'bitcoin', 100);
    await fund(t, bystander._id, 'bitcoin', 1000);
    // Warm both customers' paths (prices, sessions, accounts) so the figures below are the steady state.
    expect((await call(t, 'GET', '/api/user/get-user-balance', bystander.token)).status).toBe(200);
    expect((await call(t, 'POST', '/api/crypto/swap', bystander.token, { amount: 1, from: 'bitcoin', to: 'ethereum' })).status).toBe(201);

    // The bystander alternates a balance read and a 1 USD swap, one at a time, as a person's client would.
    const bystanderCall = async (i: number, into: Array<{ status: number; ms: number }>) => {
      const started = performance.now();
      const response =
        i % 2 === 0
          ? await call(t, 'GET', '/api/user/get-user-balance', bystander.token)
          : await call(t, 'POST', '/api/crypto/swap', bystander.token, { amount: 1, from: 'bitcoin', to: 'ethereum' });
      into.push({ status: response.status, ms: performance.now() - started });
    };
    // Alone first: the figure the burst is compared to (this machine's own pace).
    const alone: Array<{ status: number; ms: number }> = [];
    for (let i = 0; i < 40; i++) await bystanderCall(i, alone);

    let bursting = true;
    const bystanderCalls: Array<{ status: number; ms: number }> = [];
    const bystanderLoop = (async () => {
      for (let i = 0; bursting || bystanderCalls.length < 40; i++) await bystanderCall(i, bystanderCalls);
    })();
    const burst = await burstFromWorker(`${t.url}/api/crypto/send-crypto/bitcoin`, burster.token, 1000, {
      transferData: { address: ADDRESSES.bitcoin, amount: 10, symbol: 'btc', coinAmount: '0.0002' },
    });
    bursting = false;
    await bystanderLoop;

    const statuses = burst.map((r) => r.status);
    const count = (status: number) => statuses.filter((s) => s === status).length;
    console.log(
      `burst: ${count(201)} × 201, ${count(400)} × 400, ${count(429)} × 429, ${statuses.filter((s) => s >= 500).length} × 5xx; ` +
        `bystander during it: ${bystanderCalls.length} calls, ${summary(bystanderCalls.map((c) => c.ms))}; alone: ${summary(alone.map((c) => c.ms))}`,
    );
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(count(201)).toBe(10);
    expect(count(201) + count(400) + count(429)).toBe(1000);
    for (const r of burst.filter((x) => x.status === 400)) expect(r.body.error).toBe('Insufficient BTC balance');
    for (const r of burst.filter((x) => x.status === 429)) {
      expect([TOO_MANY_MONEY_CALLS_MESSAGE, ACCOUNT_BUSY_MESSAGE]).toContain(r.body.error);
      expect(r.retryAfter).toBe('1');
    }
    expect((await holdings(t, burster.token)).bitcoin).toBe('0.00000000');

    expect(bystanderCalls.filter((c) => c.status >= 300)).toEqual([]);
    // Starved, a bystander waited for a pool connection or a lock up to the timeouts (max 10.9 s, one 503). Its latency
    // figures are printed above; the p99 target itself is a speed figure, for `pnpm bench`, not a timed test. What must
    // hold on any machine: no call of the bystander waited as long as the lock timeout (2 s).
    const slowest = Math.max(...bystanderCalls.map((c) => c.ms));
    expect(slowest).toBeLessThan(2000);
    await expectLedgerClean(t);
  });
});

function summary(ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  return `median ${percentile(sorted, 50).toFixed(0)} ms, p99 ${percentile(sorted, 99).toFixed(0)} ms, max ${sorted[sorted.length - 1].toFixed(0)} ms`;
}
