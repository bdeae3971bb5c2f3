import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { Client, Pool } from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../db/database';
import { PerNetworkJob } from './per-network-job';
import { ScheduledJob } from './scheduled-job';

/** A logger that keeps its warnings. */
const logger = () => {
  const lines: string[] = [];
  return { lines, warn: (line: string) => void lines.push(line) };
};

/** A promise and the function that settles it. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('ScheduledJob', () => {
  afterEach(() => vi.useRealTimers());

  it('runs on its timer: the first run after firstRunMs, then every everyMs counted from the end of the last run', async () => {
    vi.useFakeTimers();
    let runs = 0;
    const job = new ScheduledJob<number>({ name: 'Counting', logger: logger(), everyMs: 1000, firstRunMs: 10, work: async () => ++runs });
    job.start();
    await vi.advanceTimersByTimeAsync(9);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(2);
    // A run asked for by hand moves the next scheduled one to a full interval after it.
    await vi.advanceTimersByTimeAsync(500);
    await job.run();
    expect(runs).toBe(3);
    await vi.advanceTimersByTimeAsync(999);
    expect(runs).toBe(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(4);
    job.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runs).toBe(4);
  });

  it('never throws: a failed run is logged once with its reason, counted, and answers `failed`; the timer goes on', async () => {
    vi.useFakeTimers();
    const log = logger();
    let fail = true;
    const job = new ScheduledJob<number>({
      name: 'Purging things',
      logger: log,
      everyMs: 100,
      firstRunMs: 0,
      failed: -1,
      nextRunMs: (result, failures) => (failures ? 100 * 2 ** failures : 100),
      work: async () => {
        if (fail) throw new Error('the database went away');
        return 7;
      },
    });
    expect(await job.run()).toBe(-1);
    expect(job.consecutiveFailures).toBe(1);
    expect(log.lines).toEqual(['Purging things failed: the database went away']);
    job.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(job.consecutiveFailures).toBe(2);
    // Back-off from nextRunMs: 400 ms after the second failure.
    fail = false;
    await vi.advanceTimersByTimeAsync(399);
    expect(job.consecutiveFailures).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(job.consecutiveFailures).toBe(0);
    await job.close();
    // Stopped (shutting down): a failure is no longer logged.
    fail = true;
    expect(await job.run()).toBe(-1);
    expect(log.lines).toHaveLength(2);
  });

  it('runs one at a time: a run asked for meanwhile joins the one under way; a kick asks for one more right after it', async () => {
    const gates: Array<ReturnType<typeof deferred<void>>> = [];
    let runs = 0;
    const job = new ScheduledJob<number>({
      name: 'Slow',
      logger: logger(),
      everyMs: 60_000,
      work: async () => {
        const gate = deferred<void>();
        gates.push(gate);
        await gate.promise;
        return ++runs;
      },
    });
    const first = job.run();
    const joined = job.run();
    expect(joined).toBe(first);
    job.kick();
    job.kick();
    expect(gates).toHaveLength(1);
    gates[0].resolve();
    expect(await first).toBe(1);
    // The kicks while it ran: one more run, right after it.
    await vi.waitFor(() => expect(gates).toHaveLength(2));
    gates[1].resolve();
    await vi.waitFor(() => expect(runs).toBe(2));
    await job.close();
    expect(gates).toHaveLength(2);
  });

  it('a kick with a delay runs once a moment later, however many kicks came meanwhile; none after stop', async () => {
    vi.useFakeTimers();
    let runs = 0;
    const job = new ScheduledJob<void>({
      name: 'Soon',
      logger: logger(),
      everyMs: 60_000,
      work: async () => {
        runs++;
      },
    });
    job.kick(25);
    job.kick(25);
    await vi.advanceTimersByTimeAsync(24);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(1);
    job.stop();
    job.kick(25);
    job.kick();
    await vi.advanceTimersByTimeAsync(100);
    expect(runs).toBe(1);
    // A run asked for by hand still runs after stop (tests drive stopped jobs themselves).
    await job.run();
    expect(runs).toBe(2);
  });
});

describe('ScheduledJob.locked and PerNetworkJob.locked on PGlite', () => {
  let pglite: PGlite;
  let db: Database;

  beforeAll(async () => {
    pglite = new PGlite();
    // Started here (seconds on a busy machine), not in the first test.
    await pglite.waitReady;
    db = drizzlePglite(pglite) as unknown as Database;
  });

  afterAll(async () => {
    await pglite.close();
  });

  it('run the work in a transaction holding the advisory lock, and roll it back with the work', async () => {
    await db.execute(sql`create table job_runs (n int)`);
    const job = new ScheduledJob<void>({ name: 'Locked', logger: logger(), everyMs: 1000, lock: { db, key: 7_399_001 }, work: async () => undefined });
    const held = await job.locked(async (tx) => {
      await tx.execute(sql`insert into job_runs values (1)`);
      const result = await tx.execute(sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = 7399001`);
      return (result as unknown as { rows: Array<{ n: number }> }).rows[0].n;
    });
    expect(held).toBe(1);
    await expect(
      job.locked(async (tx) => {
        await tx.execute(sql`insert into job_runs values (2)`);
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    const rows = (await db.execute(sql`select n from job_runs order by n`)) as unknown as { rows: Array<{ n: number }> };
    expect(rows.rows).toEqual([{ n: 1 }]);
    expect(() => new ScheduledJob({ name: 'No lock', logger: logger(), everyMs: 1, work: async () => 0 }).locked(async () => 0)).toThrow('no advisory lock');
  });

  it('PerNetworkJob: one key per network (base + its place in CHAIN_NETWORKS); a failed run is logged, counted and handed on', async () => {
    const log = logger();
    const failures: string[] = [];
    const job = new PerNetworkJob({
      name: 'watcher',
      logger: log,
      db,
      lockBase: 7_399_100,
      onFailure: async (network, message) => void failures.push(`${network}: ${message}`),
    });
    expect(job.lockKey('bitcoin')).toBe(7_399_100);
    expect(job.lockKey('litecoin')).toBe(7_399_101);
    expect(await job.locked('litecoin', async () => 'worked')).toBe('worked');
    expect(
      await job.safely('litecoin', async () => {
        throw new Error('node down');
      }),
    ).toBeUndefined();
    expect(job.failuresOf('litecoin')).toBe(1);
    expect(log.lines).toEqual(['litecoin watcher: node down (attempt 1; retrying with back-off)']);
    expect(failures).toEqual(['litecoin: node down']);
    expect(await job.safely('litecoin', async () => 3)).toBe(3);
    expect(job.failuresOf('litecoin')).toBe(0);
    await expect(
      job.once('litecoin', async () => {
        throw new Error('tests see it');
      }),
    ).rejects.toThrow('tests see it');
  });

  it('PerNetworkJob.once runs one at a time per network: a second run waits for the first', async () => {
    const job = new PerNetworkJob({ name: 'payouts', logger: logger(), db, lockBase: 7_399_200 });
    const order: string[] = [];
    const gate = deferred<void>();
    const first = job.once('litecoin', async () => {
      order.push('first starts');
      await gate.promise;
      order.push('first ends');
    });
    const second = job.once('litecoin', async () => void order.push('second'));
    const other = job.once('ethereum', async () => void order.push('other network'));
    await other;
    gate.resolve();
    await Promise.all([first, second]);
    expect(order).toEqual(['first starts', 'other network', 'first ends', 'second']);
  });
});

describe('PerNetworkJob schedules', () => {
  it('start runs at once, after the run under way; stopped meanwhile, the waiting scheduled run does not start', async () => {
    const db = {} as Database;
    for (const stopFirst of [false, true]) {
      const job = new PerNetworkJob({ name: 'payouts', logger: logger(), db, lockBase: 7_399_400 });
      const gate = deferred<void>();
      let scheduled = 0;
      const manual = job.once('litecoin', () => gate.promise);
      job.start('litecoin', 60_000, async () => void scheduled++);
      // Due at once, it waits for the manual run.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(scheduled).toBe(0);
      if (stopFirst) job.stop();
      gate.resolve();
      await manual;
      await new Promise((resolve) => setTimeout(resolve, 20));
      await job.close();
      expect(scheduled).toBe(stopFirst ? 0 : 1);
    }
  });
});

// Across instances: another session holding the job's lock makes `locked` skip the work (PostgreSQL only: PGlite has one).
describe.skipIf(!process.env.TEST_DATABASE_URL)('ScheduledJob.locked on PostgreSQL', () => {
  let pool: Pool;
  let other: Client;

  beforeAll(async () => {
    pool = new Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 2 });
    other = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await other.connect();
  });

  afterAll(async () => {
    await other?.end();
    await pool?.end();
  });

  it('skips the work (undefined) while another instance holds the lock, and does it once the lock is free', async () => {
    const db = drizzlePg(pool) as unknown as Database;
    const job = new ScheduledJob<void>({ name: 'Shared', logger: logger(), everyMs: 1000, lock: { db, key: 7_399_300 }, work: async () => undefined });
    await other.query('begin');
    await other.query('select pg_advisory_xact_lock(7399300)');
    let ran = false;
    expect(await job.locked(async () => (ran = true))).toBeUndefined();
    expect(ran).toBe(false);
    await other.query('commit');
    expect(await job.locked(async () => (ran = true))).toBe(true);
  });
});
