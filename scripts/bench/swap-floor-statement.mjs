// The floor for swaps (issue 36): what PostgreSQL allows for the rows one swap writes. A `pgbench -f` script of ONE plain
// SQL statement per transaction (one round trip, no checks, no function) writing on the app's own tables — with their
// indexes, constraints and triggers — the rows a swap writes: its four balance updates (the customer's two accounts and
// the two swap-pool shard accounts, a shard per client as the ledger leases them), the journal entry and its four
// lines, the transaction row and the audit row, the last two copied from a real swap made through the API. swaps.mjs
// measures it in each of its rounds, next to the swaps, on the same database.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dbUrl } from './harness.mjs';

/** Prices the benches set, and the pairs they swap, each for 10 USD. */
export const PRICES = { bitcoin: 50000, ethereum: 2500, tether: 1 };
export const PAIRS = [
  ['tether', 'bitcoin'],
  ['bitcoin', 'ethereum'],
  ['ethereum', 'tether'],
  ['bitcoin', 'tether'],
  ['ethereum', 'bitcoin'],
  ['tether', 'ethereum'],
];
const quantity = (token) => (10 / PRICES[token]).toFixed(18);

/**
 * What the floor's statement copies, read from the app's database after real swaps: the customers' ids (every customer
 * has swapped each pair's tokens, so their accounts exist), the swap-pool shard accounts 1..clients made by the app's own
 * function, and the transaction and audit rows of the latest swap.
 */
export async function floorTemplate(db, userIds) {
  for (let shard = 1; shard <= userIds.length; shard++)
    for (const token of Object.keys(PRICES)) await db.query(`select cp_platform_account('swap_pool', $1, $2)`, [token, shard]);
  const { rows: transactions } = await db.query(`select note, details, price from transactions where type = 'swap' order by created_at desc limit 1`);
  const { rows: audits } = await db.query(
    `select a.actor_role, a.action, a.target_type, a.after, a.request_id from audit_log a join transactions t on t.id::text = a.target_id where t.type = 'swap' order by a.id desc limit 1`,
  );
  if (!transactions.length || !audits.length) throw new Error('set-up: no swap row or no audit row of a swap to copy');
  return { users: userIds, transaction: transactions[0], audit: audits[0] };
}

const literal = (value) => (value === null || value === undefined ? 'NULL' : `'${String(value).replaceAll("'", "''")}'`);
const textArray = (values) => `ARRAY[${values.map(literal).join(', ')}]`;

/**
 * The floor's pgbench script: one statement. Client n (pgbench's :client_id) is customer n and uses swap-pool shard
 * n + 1; each transaction swaps one of PAIRS at random. Writes exactly a swap's rows: four balance updates, one journal
 * entry, four journal lines, one transaction row, one audit row.
 */
export function floorScript({ users, transaction, audit }) {
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

/** One transaction of the script by hand: it writes exactly a swap's rows, or this throws why not. */
export function checkFloorScript(database, scriptFile) {
  const check = spawnSync('psql', ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-v', 'client_id=0', '-v', 'pair=1', dbUrl(database)], {
    input: readFileSync(scriptFile, 'utf8').replace(/^\\set pair .*\n/, ''),
    encoding: 'utf8',
  });
  if (check.status !== 0 || check.stdout.trim() !== '4|1|4|1|1')
    throw new Error(`the floor statement did not write a swap's rows: ${check.stdout}${check.stderr}`);
}
