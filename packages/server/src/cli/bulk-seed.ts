import { sql, type SQL } from 'drizzle-orm';
import { createHash, randomBytes } from 'node:crypto';
import { hashPassword } from '../modules/auth/password-hasher';
import { PLATFORM_SHARDS } from '../modules/ledger/ledger.service';
import { tokenDecimals } from '../modules/ledger/money';
import type { Database, Executor } from '../db/database';

/**
 * Bulk test data for scale work: customers, their ledger accounts, and a history of deposits, withdrawals and swaps
 * recorded the way the services record them (transaction rows, journal entries linked to them, lines summing to zero
 * per token, every balance = Σ its lines, no customer ever below zero), written with set-based SQL
 * (generate_series, INSERT ... SELECT) in one database transaction, so a million transactions take a minute, not hours.
 */
export interface SeedOptions {
  users: number;
  transactions: number;
  /** Transactions of the first ("heavy") customer; default min(100,000, transactions / 10). */
  heavyTransactions?: number;
  /** Password of every seeded customer (one scrypt hash shared by all: hashing 100,000 would take hours). */
  password?: string;
}

export interface SeedResult {
  /** Distinguishes this run's ids and emails from earlier runs on the same database. */
  runId: string;
  users: number;
  transactions: number;
  heavyUser: { id: string; email: string; transactions: number };
  password: string;
  journalEntries: number;
  journalLines: number;
  ms: number;
  /** Milliseconds of the big statements, by name. */
  steps: Record<string, number>;
}

/** Tokens the seeded history uses, with their default network, a withdrawal address and a price when the coin is missing. */
const TOKENS = [
  { id: 'bitcoin', symbol: 'btc', name: 'Bitcoin', price: '50000', network: 'bitcoin', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
  { id: 'ethereum', symbol: 'eth', name: 'Ethereum', price: '2500', network: 'ethereum', address: '0x52908400098527886E0F7030069857D2E4169EE7' },
  { id: 'tether', symbol: 'usdt', name: 'Tether', price: '1', network: 'ethereum', address: '0x8617E340B3D01FA5F11F306F4090FD50E238070D' },
] as const;

/**
 * One customer's k-th transaction follows a cycle of ten: deposits in each token come first in every cycle and every
 * outflow of the cycle is far smaller than its token's deposit, so a balance never goes below zero at any point.
 */
const CYCLE = {
  type: ['deposit', 'deposit', 'deposit', 'swap', 'withdrawal', 'withdrawal', 'withdrawal', 'deposit', 'swap', 'deposit'],
  status: ['approved', 'approved', 'approved', 'approved', 'pending', 'approved', 'rejected', 'pending', 'approved', 'rejected'],
  token: ['bitcoin', 'ethereum', 'tether', 'bitcoin', 'tether', 'ethereum', 'bitcoin', 'tether', 'tether', 'ethereum'],
  toToken: [null, null, null, 'ethereum', null, null, null, null, 'bitcoin', null],
};

// prettier-ignore
const FIRST_NAMES = [
  'Alice', 'Bruno', 'Chen', 'Dana', 'Emeka', 'Fatima', 'Gustav', 'Hana', 'Ivan', 'Jamal', 'Keiko', 'Lucia', 'Mateo', 'Nadia',
  'Omar', 'Priya', 'Quinn', 'Rosa', 'Sven', 'Tariq', 'Uma', 'Victor', 'Wen', 'Ximena', 'Yusuf', 'Zoe', 'Aaron', 'Beatriz',
  'Carlos', 'Dmitri', 'Elena', 'Farid', 'Greta', 'Hugo', 'Ingrid', 'Jonas', 'Kofi', 'Leila', 'Marta', 'Nikos',
];
// prettier-ignore
const LAST_NAMES = [
  'Smith', 'Garcia', 'Wang', 'Muller', 'Okafor', 'Rossi', 'Kowalski', 'Tanaka', 'Silva', 'Novak', 'Haddad', 'Jensen', 'Petrov',
  'Dubois', 'Kim', 'Nguyen', 'Costa', 'Moreau', 'Larsen', 'Ibrahim', 'Fischer', 'Romano', 'Sato', 'Lopez', 'Andersson',
  'Mensah', 'Horvat', 'Ali', 'Fernandes', 'Kovacs', 'Yilmaz', 'Bauer', 'Reyes', 'Nakamura', 'Olsen', 'Popescu', 'Varga',
  'Khan', 'Lindqvist', 'Mendes',
];
/** ISO 3166-1 alpha-2 codes, as countries are stored. */
const COUNTRIES = ['DE', 'FR', 'ES', 'IT', 'PL', 'NL', 'SE', 'PT', 'IE', 'AT'];

async function rows<T>(executor: Executor, query: SQL): Promise<T[]> {
  return ((await executor.execute(query)) as unknown as { rows: T[] }).rows;
}

function textArray(values: ReadonlyArray<string | null>): SQL {
  return sql`array[${sql.join(
    values.map((v) => (v === null ? sql`null` : sql`${v}`)),
    sql`, `,
  )}]::text[]`;
}

export function heavyTransactionsFor(options: Pick<SeedOptions, 'users' | 'transactions' | 'heavyTransactions'>): number {
  if (options.users <= 1) return options.transactions;
  return Math.min(options.heavyTransactions ?? Math.min(100_000, Math.floor(options.transactions / 10)), options.transactions);
}

export async function seedDatabase(db: Database, options: SeedOptions): Promise<SeedResult> {
  const started = performance.now();
  const users = Math.floor(options.users);
  const total = Math.floor(options.transactions);
  if (!(users >= 1) || !(total >= 0)) throw new Error('users must be ≥ 1 and transactions ≥ 0');
  const heavy = heavyTransactionsFor({ ...options, users, transactions: total });
  const others = users - 1;
  const runId = randomBytes(4).toString('hex');
  const password = options.password ?? 'seed-password-1';
  const passwordHash = await hashPassword(password);

  const steps: Record<string, number> = {};
  const counts = await db.transaction(async (tx) => {
    const timed = async (name: string, statement: SQL) => {
      const stepStarted = performance.now();
      await tx.execute(statement);
      steps[name] = Math.round(performance.now() - stepStarted);
    };
    // Coins and supported tokens the history is in (kept when they exist), each token with its default network.
    for (const token of TOKENS) {
      await tx.execute(sql`insert into coins (id, symbol, name, image, current_price, last_updated, source)
        values (${token.id}, ${token.symbol}, ${token.name}, '', ${token.price}::numeric, now(), 'live') on conflict (id) do nothing`);
      await tx.execute(sql`insert into supported_tokens (coin_id) select ${token.id}::text
        where not exists (select 1 from supported_tokens where coin_id = ${token.id}::text and deleted_at is null)`);
      await tx.execute(sql`insert into token_networks (token_id, network) select st.id, ${token.network}::text from supported_tokens st
        where st.coin_id = ${token.id}::text and st.deleted_at is null and not exists (select 1 from token_networks tn where tn.token_id = st.id)`);
    }
    const prices = await rows<{ id: string; price: string }>(
      tx,
      sql`select id, current_price::text as price from coins where id in (${sql.join(
        TOKENS.map((t) => sql`${t.id}`),
        sql`, `,
      )})`,
    );
    const tokenValues = sql.join(
      TOKENS.map((t) => {
        const price = prices.find((p) => p.id === t.id)?.price ?? t.price;
        return sql`(${t.id}::text, ${t.symbol}::text, ${price}::numeric, ${tokenDecimals(t.id)}::int, ${t.network}::text, ${t.address}::text)`;
      }),
      sql`, `,
    );

    await tx.execute(
      sql`create temp table seed_token (id text primary key, symbol text, price numeric, decimals int, network text, address text) on commit drop`,
    );
    await tx.execute(sql`insert into seed_token values ${tokenValues}`);

    // Platform accounts (the other side of every movement), created when missing.
    const platformCodes = [
      'deposits',
      'withdrawals_pending',
      'withdrawals_settled',
      ...Array.from({ length: PLATFORM_SHARDS }, (_, i) => `swap_pool#${i + 1}`),
    ];
    await tx.execute(sql`insert into ledger_accounts (kind, platform_code, token)
      select 'platform', code, t.id from unnest(${textArray(platformCodes)}) as code cross join seed_token t
      on conflict do nothing`);
    await tx.execute(sql`create temp table seed_platform on commit drop as
      select platform_code as code, token, id from ledger_accounts where kind = 'platform' and token in (select id from seed_token)`);

    // Customers: the first is the heavy one; names and emails vary so the admin search has something to find.
    await timed(
      'users',
      sql`insert into users (id, name, email, email_normalized, password_hash, country, created_at, updated_at)
      select md5(${runId} || ':user:' || n)::uuid, u.name, u.email, u.email, ${passwordHash}, (${textArray(COUNTRIES)})[1 + n % ${COUNTRIES.length}],
             now() - interval '400 days' + n * interval '1 second', now()
      from generate_series(1, ${users}::int) as n
      cross join lateral (select
        case when n = 1 then 'Heavy Trader' else (${textArray(FIRST_NAMES)})[1 + n % ${FIRST_NAMES.length}] || ' ' || (${textArray(LAST_NAMES)})[1 + (n / ${FIRST_NAMES.length}) % ${LAST_NAMES.length}] end as name,
        case when n = 1 then 'heavy.trader.' || ${runId} || '@example.com'
             else lower((${textArray(FIRST_NAMES)})[1 + n % ${FIRST_NAMES.length}] || '.' || (${textArray(LAST_NAMES)})[1 + (n / ${FIRST_NAMES.length}) % ${LAST_NAMES.length}]) || '.' || n || '.' || ${runId} || '@example.com' end as email) u`,
    );

    // The history: transaction i belongs to customer n as its k-th; rows are ordered (and dated over the past year) by
    // the fraction of each customer's history they are at, so every customer's history is spread over the whole table.
    await timed(
      'plan history',
      sql`create temp table seed_tx on commit drop as
      with g as (
        select i,
               case when i <= ${heavy}::int then 1 else 2 + (i - ${heavy}::int - 1) % ${Math.max(others, 1)}::int end as n,
               case when i <= ${heavy}::int then i - 1 else (i - ${heavy}::int - 1) / ${Math.max(others, 1)}::int end as k
        from generate_series(1, ${total}::int) as i
      ), c as (
        select g.*, k % 10 as c,
               case when n = 1 then ${heavy}::int
                    else ${others > 0 ? Math.floor((total - heavy) / others) : 0}::int + case when n - 2 < ${others > 0 ? (total - heavy) % others : 0}::int then 1 else 0 end end as cnt
        from g
      ), typed as (
        select c.*, (${textArray(CYCLE.type)})[c + 1] as type, (${textArray(CYCLE.status)})[c + 1] as status,
               (${textArray(CYCLE.token)})[c + 1] as token, (${textArray(CYCLE.toToken)})[c + 1] as to_token,
               (case when c < 3 then 1000 + i % 97 when c in (7, 9) then 200 + i % 53 else 20 + i % 31 end)::numeric as usd_asked,
               row_number() over (order by (k + 0.5) / greatest(cnt, 1), i) as r
        from c
      )
      select t.i, t.r, t.n, t.type, t.status, t.token, t.to_token,
             md5(${runId} || ':tx:' || t.i)::uuid as tx_id,
             md5(${runId} || ':user:' || t.n)::uuid as user_id,
             1 + t.i % ${PLATFORM_SHARDS}::int as shard,
             f.price, f.symbol as from_symbol, f.network, f.address,
             trunc(t.usd_asked / f.price, f.decimals) as qty,
             tt.price as to_price, tt.symbol as to_symbol,
             case when t.to_token is not null then trunc(trunc(t.usd_asked / f.price, f.decimals) * f.price / tt.price, tt.decimals) end as to_qty,
             now() - interval '365 days' + t.r * (interval '365 days' / greatest(${total}::int, 1)) as created_at
      from typed t
      join seed_token f on f.id = t.token
      left join seed_token tt on tt.id = t.to_token`,
    );

    await timed(
      'transactions',
      sql`insert into transactions (id, user_id, type, token, network, address, coin_amount, usd_amount, price, status, direction, note, details, created_by, created_at, updated_at)
      select tx_id, user_id, type, token,
             case when type = 'swap' then null else network end,
             case when type = 'withdrawal' then address end,
             qty, round(qty * price, 8), price, status,
             case when type = 'deposit' then 'in' else 'out' end,
             case when type = 'swap' then upper(from_symbol) || ' → ' || upper(to_symbol) end,
             case type
               when 'swap' then jsonb_build_object('toToken', to_token, 'toCoinAmount', trim_scale(to_qty)::text, 'toPrice', trim_scale(to_price)::text,
                                                   'fromPrice', trim_scale(price)::text, 'priceSource', 'live')
               when 'withdrawal' then jsonb_build_object('priceSource', 'live')
                 || case when status = 'approved' then jsonb_build_object('txHash',
                      case when network = 'bitcoin' then '' else '0x' end || md5(${runId} || ':hash:' || i) || md5(${runId} || ':hash2:' || i)) else '{}'::jsonb end
             end,
             case when type = 'deposit' then null else user_id end,
             created_at,
             case when type = 'withdrawal' and status <> 'pending' then created_at + interval '1 hour' else created_at end
      from seed_tx order by r`,
    );

    // Journal entries, one per ledger movement, as the services post them.
    await timed(
      'plan entries',
      sql`create temp table seed_entry on commit drop as
      select md5(${runId} || ':entry:' || i)::uuid as id, tx_id, i, n, token, to_token, qty, to_qty, shard, type, status, created_at,
             case when type = 'deposit' then 'deposit_credit' when type = 'swap' then 'swap' else 'withdrawal_hold' end as kind,
             case when type = 'deposit' then 'deposit approved' when type = 'swap' then 'swap ' || token || ' to ' || to_token else 'withdrawal requested' end as reason,
             case when type = 'deposit' then null else user_id end as created_by
      from seed_tx where not (type = 'deposit' and status <> 'approved')
      union all
      select md5(${runId} || ':settle:' || i)::uuid, tx_id, i, n, token, null, qty, null, shard, type, status, created_at + interval '1 hour',
             'withdrawal_pending_to_' || status, 'status pending → ' || status, null
      from seed_tx where type = 'withdrawal' and status <> 'pending'`,
    );

    // Lines: (entry, account, token, amount), each entry summing to zero per token.
    await timed(
      'plan lines',
      sql`create temp table seed_line on commit drop as
      select e.id as entry_id, case when l.customer then md5(${runId} || ':account:' || e.n || ':' || l.token)::uuid end as customer_account,
             l.customer, l.code, l.token, l.amount, e.created_at
      from seed_entry e
      cross join lateral (
        select * from (values
          (e.kind = 'deposit_credit', false, 'deposits', e.token, -e.qty),
          (e.kind = 'deposit_credit', true, null, e.token, e.qty),
          (e.kind = 'withdrawal_hold', true, null, e.token, -e.qty),
          (e.kind = 'withdrawal_hold', false, 'withdrawals_pending', e.token, e.qty),
          (e.kind like 'withdrawal_pending_to_%', false, 'withdrawals_pending', e.token, -e.qty),
          (e.kind = 'withdrawal_pending_to_approved', false, 'withdrawals_settled', e.token, e.qty),
          (e.kind = 'withdrawal_pending_to_rejected', true, null, e.token, e.qty),
          (e.kind = 'swap', true, null, e.token, -e.qty),
          (e.kind = 'swap', false, 'swap_pool#' || e.shard, e.token, e.qty),
          (e.kind = 'swap', false, 'swap_pool#' || e.shard, e.to_token, -e.to_qty),
          (e.kind = 'swap', true, null, e.to_token, e.to_qty)
        ) as v(applies, customer, code, token, amount) where v.applies
      ) l`,
    );

    // Customer accounts with their balance = Σ their lines (every seeded customer gets one per token), platform
    // balances moved by their lines' sum.
    await timed(
      'customer accounts',
      sql`insert into ledger_accounts (id, kind, user_id, token, balance, created_at)
      select md5(${runId} || ':account:' || n || ':' || t.id)::uuid, 'customer', md5(${runId} || ':user:' || n)::uuid, t.id,
             coalesce(s.sum, 0), now() - interval '400 days'
      from generate_series(1, ${users}::int) as n cross join seed_token t
      left join (select customer_account, sum(amount) as sum from seed_line where customer group by customer_account) s
        on s.customer_account = md5(${runId} || ':account:' || n || ':' || t.id)::uuid`,
    );
    await tx.execute(sql`update ledger_accounts a set balance = a.balance + s.sum
      from (select p.id, sum(l.amount) as sum from seed_line l join seed_platform p on p.code = l.code and p.token = l.token where not l.customer group by p.id) s
      where a.id = s.id`);

    await timed(
      'journal entries',
      sql`insert into journal_entries (id, kind, transaction_id, reason, created_by, created_at)
      select id, kind, tx_id, reason, created_by, created_at from seed_entry order by created_at`,
    );
    await timed(
      'journal lines',
      sql`insert into journal_lines (entry_id, account_id, token, amount, created_at)
      select l.entry_id, case when l.customer then l.customer_account else p.id end, l.token, l.amount, l.created_at
      from seed_line l left join seed_platform p on not l.customer and p.code = l.code and p.token = l.token
      order by l.created_at`,
    );

    const [entryCount] = await rows<{ entries: number; lines: number }>(
      tx,
      sql`select (select count(*) from seed_entry)::int as entries, (select count(*) from seed_line)::int as lines`,
    );
    return entryCount;
  });

  // Fresh statistics (and the visibility map for index-only scans) for the planner: the lists' plans depend on them.
  const vacuumStarted = performance.now();
  for (const table of ['users', 'transactions', 'ledger_accounts', 'journal_entries', 'journal_lines']) {
    await db.execute(sql.raw(`vacuum (analyze) ${table}`));
  }
  steps['vacuum analyze'] = Math.round(performance.now() - vacuumStarted);

  return {
    runId,
    users,
    transactions: total,
    heavyUser: { id: heavyUserId(runId), email: `heavy.trader.${runId}@example.com`, transactions: heavy },
    password,
    journalEntries: counts.entries,
    journalLines: counts.lines,
    ms: Math.round(performance.now() - started),
    steps,
  };
}

function heavyUserId(runId: string): string {
  // md5(runId || ':user:1')::uuid, as the insert computes it.
  const hex = createHash('md5').update(`${runId}:user:1`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
