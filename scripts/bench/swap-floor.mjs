// The floor for swaps: what PostgreSQL allows for the rows one swap writes, next to `pgbench -N`, in the same run.
// The floor is a `pgbench -f` script of ONE plain SQL statement per transaction (one round trip, no checks, no function)
// writing on the app's own tables — with their indexes, constraints and triggers — the rows a swap writes: its four
// balance updates (the customer's two accounts and the two swap-pool shard accounts, a shard per client as the ledger
// leases them), the journal entry and its four lines, the transaction row and the audit row, the last two copied from
// a real swap made through the API at set-up. 32 clients (BENCH_CLIENTS), each with a customer of its own, as in
// swaps.mjs. BENCH_ROUNDS (3) interleaved rounds of the floor and -N, BENCH_SECONDS (8) each; medians shown.
//
// swaps/s ÷ floor: when run by run.mjs after swaps.mjs, the swaps figure of that script is read from the run's figures
// (BENCH_FIGURES_FILE) and divided by the floor. The two are measured minutes apart on a machine others load too, so the
// ratio is also shown normalised by each script's own `pgbench -N` (swaps/-N ÷ floor/-N): the load the machine carried
// during each script cancels out. Alone, this prints the floor and the formula.
// Run after `pnpm build`. Env: BENCH_DATABASE_URL (default TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres),
// BENCH_PGBENCH_SCALE (32).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { figure, median, SHARED_CORES_NOTE } from './figures.mjs';
import {
  admin,
  api,
  benchServerEnv,
  builtServer,
  dbUrl,
  freePort,
  pgbench,
  pgbenchInit,
  requireFromServer,
  requirePgbench,
  runSuffix,
  serverDir,
  waitForHealth,
} from './harness.mjs';

const { Client } = requireFromServer('pg');

const SECONDS = Number(process.env.BENCH_SECONDS || 8);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS || 3));
const CLIENTS = Number(process.env.BENCH_CLIENTS || 32);
const SCALE = Number(process.env.BENCH_PGBENCH_SCALE || 32);
const ADMIN = { email: 'bench-admin@coinpurse.local', password: 'bench-admin-password-1' };
/** The swaps figure of swaps.mjs, by the name it prints. */
const SWAPS_FIGURE = /^swaps\/s over HTTP, PostgreSQL, 32 clients/;

const mainJs = builtServer();
const suffix = runSuffix();
const appDb = `coinpurse_floor_${suffix}`;
const pgbenchDb = `coinpurse_floor_pgbench_${suffix}`;
const work = mkdtempSync(join(tmpdir(), 'coinpurse-bench-floor-'));
let server;

async function cleanup() {
  // A process ended by a signal has no exit code but a signal code: waiting for its exit again would never end.
  if (server && server.exitCode === null && server.signalCode === null) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
  for (const name of [appDb, pgbenchDb]) await admin(`drop database if exists ${name} with (force)`).catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
}

const PRICES = { bitcoin: 50000, ethereum: 2500, tether: 1 };
/** The pairs swaps.mjs swaps, each for 10 USD. */
const PAIRS = [
  ['tether', 'bitcoin'],
  ['bitcoin', 'ethereum'],
  ['ethereum', 'tether'],
  ['bitcoin', 'tether'],
  ['ethereum', 'bitcoin'],
  ['tether', 'ethereum'],
];
const quantity = (token) => (10 / PRICES[token]).toFixed(18);

/**
 * The app's database as swaps.mjs sets it up (migrated by the server, prices, funded customers), one swap per customer
 * through the API, then the server stopped: the floor measures PostgreSQL alone. Returns the customers' ids and the
 * transaction and audit rows of a real swap.
 */
async function setUp() {
  await admin(`create database ${appDb}`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, [mainJs], {
    cwd: serverDir,
    env: benchServerEnv({ port, databaseUrl: dbUrl(appDb), dataDir: work, adminUser: ADMIN }, { APPROVAL_THRESHOLD_USD: '0' }),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitForHealth(url, server);
  const db = new Client({ connectionString: dbUrl(appDb) });
  await db.connect();
  try {
    for (const [id, symbol, name] of [
      ['bitcoin', 'btc', 'Bitcoin'],
      ['ethereum', 'eth', 'Ethereum'],
      ['tether', 'usdt', 'Tether'],
    ]) {
      await db.query(
        `insert into coins (id, symbol, name, image, current_price, last_updated, source) values ($1, $2, $3, '', $4, now(), 'live')
         on conflict (id) do update set current_price = excluded.current_price, last_updated = now(), source = 'live'`,
        [id, symbol, name, String(PRICES[id])],
      );
      await db.query(
        `insert into supported_tokens (coin_id) select $1::text where not exists (select 1 from supported_tokens where coin_id = $1::text and deleted_at is null)`,
        [id],
      );
    }
    const adminSession = await api(url, 'POST', '/api/admin/login-admin', undefined, ADMIN);
    const users = [];
    for (let i = 0; i < CLIENTS; i++) {
      const session = await api(url, 'POST', '/api/user/create-user', undefined, {
        name: `Floor ${i}`,
        email: `floor.${i}.${suffix}@example.com`,
        password: 'bench-password-1',
        country: 'DE',
      });
      for (const token of Object.keys(PRICES)) {
        await api(url, 'POST', `/api/admin/update-balance/${session._id}`, adminSession.token, { token, amount: '1000000', type: 'yes', msg: 'bench funding' });
      }
      // Every customer account a swap of the pairs touches exists from here on.
      await api(url, 'POST', '/api/crypto/swap', session.token, { amount: '10.00', from: 'tether', to: 'bitcoin' });
      await api(url, 'POST', '/api/crypto/swap', session.token, { amount: '10.00', from: 'bitcoin', to: 'ethereum' });
      users.push(session._id);
    }
    await new Promise((resolve) => {
      server.once('exit', resolve);
      server.kill('SIGTERM');
    });
    // The swap-pool shard accounts, one shard per client (the ledger leases each posting in flight its own), made by
    // the app's own function as a swap would.
    for (let shard = 1; shard <= CLIENTS; shard++)
      for (const token of Object.keys(PRICES)) await db.query(`select cp_platform_account('swap_pool', $1, $2)`, [token, shard]);
    const { rows: transactions } = await db.query(`select note, details, price from transactions where type = 'swap' order by created_at desc limit 1`);
    const { rows: audits } = await db.query(
      `select a.actor_role, a.action, a.target_type, a.after, a.request_id from audit_log a join transactions t on t.id::text = a.target_id where t.type = 'swap' order by a.id desc limit 1`,
    );
    if (!transactions.length || !audits.length) throw new Error('set-up: no swap row or no audit row of a swap to copy');
    await db.query('vacuum analyze');
    return { users, transaction: transactions[0], audit: audits[0] };
  } finally {
    await db.end();
  }
}

const literal = (value) => (value === null || value === undefined ? 'NULL' : `'${String(value).replaceAll("'", "''")}'`);
const textArray = (values) => `ARRAY[${values.map(literal).join(', ')}]`;

/**
 * The floor's pgbench script: one statement. Client n (pgbench's :client_id) is customer n and uses swap-pool shard
 * n + 1; each transaction swaps one of PAIRS at random. Writes exactly a swap's rows: four balance updates, one journal
 * entry, four journal lines, one transaction row, one audit row.
 */
function floorScript({ users, transaction, audit }) {
  const from = PAIRS.map(([f]) => f);
  const to = PAIRS.map(([, t]) => t);
  return `\\set pair random(1, ${PAIRS.length})
WITH input AS MATERIALIZED (
  SELECT (${textArray(users)})[:client_id + 1]::uuid AS user_id, 'swap_pool#' || (:client_id + 1) AS pool,
         (${textArray(from)})[:pair] AS f, (${textArray(to)})[:pair] AS t,
         (${textArray(from.map(quantity))})[:pair]::numeric AS fq, (${textArray(to.map(quantity))})[:pair]::numeric AS tq,
         gen_random_uuid() AS tx, gen_random_uuid() AS entry
), moves AS MATERIALIZED (
  SELECT a.id, a.token, CASE WHEN a.token = i.f THEN -i.fq ELSE i.tq END AS amount
  FROM input i JOIN ledger_accounts a ON a.kind = 'customer' AND a.user_id = i.user_id AND a.token IN (i.f, i.t)
  UNION ALL
  SELECT a.id, a.token, CASE WHEN a.token = i.f THEN i.fq ELSE -i.tq END
  FROM input i JOIN ledger_accounts a ON a.kind = 'platform' AND a.platform_code = i.pool AND a.token IN (i.f, i.t)
), balances AS (
  UPDATE ledger_accounts a SET balance = a.balance + m.amount FROM moves m WHERE a.id = m.id RETURNING a.id
), entry AS (
  INSERT INTO journal_entries (id, kind, transaction_id, reason, created_by)
  SELECT i.entry, 'swap', i.tx, 'swap ' || i.f || ' to ' || i.t, i.user_id FROM input i RETURNING id
), lines AS (
  INSERT INTO journal_lines (entry_id, account_id, token, amount) SELECT i.entry, m.id, m.token, m.amount FROM input i, moves m RETURNING id
), tx AS (
  INSERT INTO transactions (id, user_id, type, token, network, address, coin_amount, usd_amount, price, status, direction, note, details, created_by, created_at, updated_at)
  SELECT i.tx, i.user_id, 'swap', i.f, NULL, NULL, i.fq, 10, ${literal(transaction.price)}, 'approved', 'out', ${literal(transaction.note)}, ${literal(JSON.stringify(transaction.details))}::jsonb, i.user_id, now(), now()
  FROM input i RETURNING id
), audit AS (
  INSERT INTO audit_log (actor_id, actor_role, action, target_type, target_id, before, after, request_id, api_key_id)
  SELECT i.user_id, ${literal(audit.actor_role)}, ${literal(audit.action)}, ${literal(audit.target_type)}, i.tx::text, NULL, ${literal(JSON.stringify(audit.after))}::jsonb, ${literal(audit.request_id)}, NULL
  FROM input i RETURNING id
)
SELECT (SELECT count(*) FROM balances) AS balances, (SELECT count(*) FROM entry) AS entries, (SELECT count(*) FROM lines) AS lines,
       (SELECT count(*) FROM tx) AS transactions, (SELECT count(*) FROM audit) AS audits;
`;
}

const pgbenchRun = (database, extra) => pgbench(database, { clients: CLIENTS, seconds: SECONDS }, extra);

/** The swaps figure swaps.mjs wrote earlier in this `pnpm bench` run: swaps/s and its ratio to that run's -N. */
function swapsFromThisRun() {
  const file = process.env.BENCH_FIGURES_FILE;
  if (!file || !existsSync(file)) return undefined;
  const found = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .find((f) => SWAPS_FIGURE.test(f.name));
  if (!found) return undefined;
  // The anchor as printed ('pgbench -N 4346 tps'): more digits than the rounded ratio.
  const value = Number.parseFloat(found.value);
  const simple = Number.parseFloat(/([\d.]+) tps/.exec(found.anchor)?.[1] ?? 'NaN');
  return { value, perSimple: Number.isFinite(simple) && simple ? value / simple : Number.parseFloat(found.ratio) };
}

try {
  requirePgbench();
  console.log(
    `The floor for swaps: a swap's rows by one SQL statement per transaction (pgbench -f, ${CLIENTS} clients) vs pgbench -N (scale ${SCALE}), ${SECONDS} s per run, ${ROUNDS} interleaved round(s), median shown.`,
  );
  console.log(SHARED_CORES_NOTE);
  const template = await setUp();
  const script = join(work, 'swap-floor.sql');
  writeFileSync(script, floorScript(template));
  // One transaction by hand: the statement writes exactly a swap's rows, or this says why not.
  const check = spawnSync('psql', ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-v', 'client_id=0', '-v', 'pair=1', dbUrl(appDb)], {
    input: readFileSync(script, 'utf8').replace(/^\\set pair .*\n/, ''),
    encoding: 'utf8',
  });
  if (check.status !== 0 || check.stdout.trim() !== '4|1|4|1|1')
    throw new Error(`the floor statement did not write a swap's rows: ${check.stdout}${check.stderr}`);
  await admin(`create database ${pgbenchDb}`);
  pgbenchInit(pgbenchDb, SCALE);
  pgbench(appDb, { clients: CLIENTS, seconds: 2 }, ['-f', script]); // warm-up
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Interleaved, so load from elsewhere on the machine hits both alike.
    rounds.push({ floor: pgbenchRun(appDb, ['-f', script]), simple: pgbenchRun(pgbenchDb, ['-N']) });
  }
  const floor = median(rounds.map((r) => r.floor));
  const simple = median(rounds.map((r) => r.simple));
  figure({
    name: `swap floor (a swap's rows, one statement), ${CLIENTS} clients`,
    value: floor,
    unit: 'tps',
    anchor: { label: 'pgbench -N', value: simple, unit: 'tps' },
    target: 'none (the anchor of swaps/s)',
    detail: `runs ${rounds.map((r) => r.floor.toFixed(0)).join(' / ')} vs -N ${rounds.map((r) => r.simple.toFixed(0)).join(' / ')}`,
  });
  const swaps = swapsFromThisRun();
  if (swaps && Number.isFinite(swaps.value)) {
    // swaps.mjs measured its swaps next to its own -N minutes earlier: normalised by each script's -N, the machine's
    // load during each cancels out.
    const normalised = swaps.perSimple / (floor / simple);
    figure({
      name: 'swaps/s vs the floor',
      value: swaps.value,
      anchor: { label: 'swap floor', value: floor, unit: 'tps' },
      ratio: normalised,
      target: '≥ 0.6 of the floor',
      met: normalised >= 0.6,
      detail: `ratio normalised by each script's pgbench -N: (swaps/s ÷ -N in swaps.mjs ${swaps.perSimple.toFixed(2)}) ÷ (floor ÷ -N here ${(floor / simple).toFixed(2)}); unnormalised ${(swaps.value / floor).toFixed(2)}`,
    });
  } else {
    console.log(
      `  swaps/s ÷ floor: run with swaps.mjs (pnpm bench swap) for the figure; by hand: (swaps/s ÷ its pgbench -N) ÷ ${(floor / simple).toFixed(2)} (this run's floor ÷ -N)`,
    );
  }
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await cleanup();
}
