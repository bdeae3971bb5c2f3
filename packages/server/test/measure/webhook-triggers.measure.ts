import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { WebhookDeliveryService } from '../../src/modules/webhooks/webhook-delivery.service';
// @ts-expect-error -- the bench's plain-JS figure printer (no types)
import { figure, median } from '../../../../scripts/bench/figures.mjs';
import { bearer, signUp } from '../support/test-app';
import { fund, startWalletApp, type WalletApp } from '../support/wallet';

/**
 * What the webhook triggers (migration 0027) cost a swap, in the database where they run: BATCH calls of cp_swap (the
 * swap's whole SQL: key, rules, ledger posting, History row, triggers) in one statement, timed per call, in ROUNDS
 * interleaved rounds of three modes, medians printed:
 * - anchor: the triggers disabled (the database as it was before webhooks);
 * - no endpoint: the triggers on, nobody subscribed (the usual case: one probe of webhook_endpoints per swap);
 * - subscribed: the customer's endpoint takes swap.completed (each swap also writes its delivery row).
 * The HTTP figure of swaps (scripts/bench/swaps.mjs) includes all of this. PostgreSQL when TEST_DATABASE_URL is set,
 * else PGlite: `pnpm exec vitest run --project measure test/measure/webhook-triggers.measure.ts`
 */
const BATCH = Number(process.env.BENCH_BATCH ?? 300);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 11);
const TRIGGERS = ['transactions_webhook_insert', 'transactions_webhook_update'];

describe('webhook triggers on swaps', () => {
  let t: WalletApp;
  let db: Database;
  let customer: { token: string; _id: string };

  beforeAll(async () => {
    const kind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
    t = await startWalletApp(kind, { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    db = t.app.get(DATABASE);
    // Only the writing is measured: nothing is sent.
    await t.app.get(WebhookDeliveryService).onModuleDestroy();
    customer = await signUp(t.http);
    await fund(t, customer._id, 'tether', 9_000_000);
    await t.http
      .post('/api/user/webhooks')
      .set(bearer(customer.token))
      .send({ url: 'http://127.0.0.1:9/hooks', events: ['swap.completed'] })
      .expect(201);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Microseconds per cp_swap call: BATCH swaps of 1 USD of tether to bitcoin at the seeded prices, in one statement. */
  async function microsecondsPerSwap(): Promise<number> {
    const started = process.hrtime.bigint();
    await db.execute(
      sql.raw(`do $$ begin for i in 1..${BATCH} loop
        perform cp_swap(gen_random_uuid(), '${customer._id}', 'tether', 'bitcoin', 1, 0.00002, 1, 1, 50000, 'measure', '{}'::jsonb, now(), 0, 0, null, null);
      end loop; end $$`),
    );
    return Number(process.hrtime.bigint() - started) / 1000 / BATCH;
  }

  async function mode(name: 'anchor' | 'no endpoint' | 'subscribed'): Promise<void> {
    for (const trigger of TRIGGERS) {
      await db.execute(sql.raw(`alter table transactions ${name === 'anchor' ? 'disable' : 'enable'} trigger ${trigger}`));
    }
    await db.execute(sql`update webhook_endpoints set enabled = ${name === 'subscribed'}`);
  }

  it('prints the time of a swap in the database with and without the triggers', async () => {
    const results: Record<string, number[]> = { anchor: [], 'no endpoint': [], subscribed: [] };
    await microsecondsPerSwap(); // warm-up
    const modes = ['anchor', 'no endpoint', 'subscribed'] as const;
    for (let round = 0; round < ROUNDS; round += 1) {
      // Each round starts with another mode: the tables' growth over the run weighs on every mode alike.
      for (const name of [...modes.slice(round % 3), ...modes.slice(0, round % 3)]) {
        await mode(name);
        results[name].push(await microsecondsPerSwap());
      }
    }
    await mode('no endpoint');
    const anchor = { label: 'triggers off', value: median(results.anchor), unit: 'µs' };
    const kind = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite';
    figure({ name: `cp_swap with the webhook triggers, no endpoint (${kind})`, value: median(results['no endpoint']), unit: 'µs', anchor });
    figure({ name: `cp_swap writing its delivery row (${kind})`, value: median(results.subscribed), unit: 'µs', anchor });
    console.log(JSON.stringify(results));
  });
});
