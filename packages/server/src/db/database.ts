import { PGlite } from '@electric-sql/pglite';
import { Logger } from '@nestjs/common';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client, Pool } from 'pg';
import { Announcer, type NotifySender } from './announcer';
import { lockDataDir } from './data-dir-lock';
import { PGLITE_START_PARAMS, seedFor } from './pglite-seed';
import * as schema from './schema';

export type Schema = typeof schema;
/** Both drivers share Drizzle's PostgreSQL surface; repositories only use that. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Either the database or an open transaction: repositories accept both. */
export type Executor = Database | Tx;

export const DATABASE = Symbol('DATABASE');

/**
 * Counts the statements sent to the database (PostgreSQL: each `query` on a pool client, BEGIN and COMMIT included;
 * PGlite: each query/exec call, a transaction's BEGIN and COMMIT counted as two). `measure` also attributes them to
 * one piece of async work, so a test can assert how many round trips one operation makes while other work runs.
 */
export class QueryCounter {
  /** Every statement sent since the database was opened. */
  total = 0;
  private readonly scope = new AsyncLocalStorage<string[]>();

  /** Runs `work` and returns, with its result, the text of each statement it sent (in order). */
  async measure<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
    const statements: string[] = [];
    const result = await this.scope.run(statements, work);
    return { result, statements };
  }

  count(text: unknown): void {
    this.total++;
    const raw = typeof text === 'string' ? text : ((text as { text?: unknown } | undefined)?.text ?? '');
    this.scope.getStore()?.push(String(raw));
  }
}

export interface DatabaseHandle {
  db: Database;
  driver: 'pglite' | 'postgres';
  /** The statements sent so far (see QueryCounter). */
  queries: QueryCounter;
  close(): Promise<void>;
  /**
   * LISTEN on a channel; the handler gets each NOTIFY payload (sent with `select pg_notify(channel, payload)`, delivered
   * on commit). PostgreSQL: one dedicated connection per handle, re-established after an error; `onReconnect` is called
   * then (notifications sent while it was down are lost: caches start over). Returns an unlisten function.
   */
  listen(channel: string, handler: (payload: string) => void, options?: ListenOptions): Promise<() => Promise<void>>;
  /** NOTIFYs of changes already committed, sent together outside their transactions (see Announcer). */
  announcer: Announcer;
}

export interface ListenOptions {
  onReconnect?: () => void;
}

const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

const MIGRATION_LOCK = 7_300_001;
/** How long shutdown waits for the pool's connections to close. */
const POOL_DRAIN_MS = 5_000;

/** Server-side limits set on every PostgreSQL session of the pool (milliseconds; 0 turns one off). */
export interface DatabaseTimeouts {
  statementMs: number;
  lockMs: number;
  idleInTransactionMs: number;
  /** How long a request waits for a pool connection (or a new one to open) before it answers 503. */
  connectMs: number;
}

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = { statementMs: 5000, lockMs: 2000, idleInTransactionMs: 10_000, connectMs: 10_000 };

/** Opens the database (PostgreSQL when `databaseUrl` is set, else PGlite) and applies the migrations. */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  migrationsDir: string;
  timeouts?: DatabaseTimeouts;
}): Promise<DatabaseHandle> {
  const logger = new Logger('Database');
  if (options.databaseUrl) {
    // Migrations run on a session of their own, without the request timeouts (a long backfill or a wait for another
    // instance's migration lock is expected there).
    const migrator = new Client({ connectionString: options.databaseUrl });
    migrator.on('error', (error) => logger.warn(`PostgreSQL migration connection: ${error.message}`));
    // What a migration reports with RAISE NOTICE (e.g. 0008's countries kept as stored) goes to the start log.
    migrator.on('notice', (notice) => {
      if (raisedByMigration(notice)) logger.warn(`Migration: ${notice.message}`);
    });
    await migrator.connect();
    try {
      // Several instances may start at once: one migrates, the others wait.
      await migrator.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migratePg(drizzlePg(migrator, { schema }), { migrationsFolder: options.migrationsDir });
      await migrator.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    } finally {
      await migrator.end().catch(() => undefined);
    }
    const timeouts = options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS;
    const pool = new Pool({
      connectionString: options.databaseUrl,
      max: 20,
      // Sent as startup parameters, so every session has them before its first statement: a frozen peer holding a
      // lock, a runaway query or a transaction left open cannot block the others without limit.
      statement_timeout: timeouts.statementMs,
      lock_timeout: timeouts.lockMs,
      idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
      connectionTimeoutMillis: timeouts.connectMs,
    });
    // A client whose connection drops (pg_terminate_backend, a restart, a failover) emits 'error'. pg-pool listens only
    // while the client is idle; a checked-out client without a listener would crash the process. Every client gets
    // one for its whole life: the request using it fails (503 via the exception filter), the pool discards the client
    // on release (it is no longer queryable) and opens a fresh one on demand.
    const queries = new QueryCounter();
    pool.on('connect', (client) => {
      client.on('error', (error) => logger.warn(`PostgreSQL connection lost: ${error.message}`));
      // Every statement (pool.query included) goes through exactly one client's `query`: one round trip each.
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        queries.count(args[0]);
        return query(...args);
      };
    });
    pool.on('error', (error) => logger.warn(`PostgreSQL pool: ${error.message}`));
    const listener = new PgListener(options.databaseUrl, logger);
    const announcer = announcerOf((text, params) => pool.query(text, params), logger);
    return {
      db: drizzlePg(pool, { schema }) as unknown as Database,
      driver: 'postgres',
      queries,
      announcer,
      close: async () => {
        await announcer.flush();
        await listener.close();
        // A connection whose peer never acknowledges the goodbye (a half-dead proxy or network) must not hold the
        // shutdown forever: wait a bounded time for the pool to drain, then let the process go.
        const drained = await Promise.race([pool.end().then(() => true), new Promise<false>((resolve) => setTimeout(resolve, POOL_DRAIN_MS, false).unref())]);
        if (!drained) logger.warn(`PostgreSQL pool: connections still open after ${POOL_DRAIN_MS} ms at shutdown; leaving them.`);
      },
      listen: (channel, handler, listenOptions) => listener.listen(channel, handler, listenOptions),
    };
  }

  let pglite: PGlite;
  let unlock = () => {};
  if (options.dataDir === ':memory:') {
    pglite = new PGlite({ startParams: PGLITE_START_PARAMS });
  } else {
    // One process per data directory: a second one refuses to start (naming the holder's PID).
    unlock = lockDataDir(options.dataDir);
    const dir = join(options.dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
    // A new data directory starts from the build's migrated seed when there is one (no initdb).
    pglite = new PGlite(dir, { startParams: PGLITE_START_PARAMS, loadDataDir: seedFor(dir, options.migrationsDir) });
  }
  try {
    await pglite.waitReady;
    const reporting = reportingNotices(pglite, (message) => logger.warn(`Migration: ${message}`));
    await migratePglite(drizzlePglite(reporting, { schema }), { migrationsFolder: options.migrationsDir });
  } catch (error) {
    await pglite.close().catch(() => undefined);
    unlock();
    throw error;
  }
  const queries = countPgliteQueries(pglite);
  const db = drizzlePglite(pglite, { schema });
  const announcer = announcerOf((text, params) => pglite.query(text, params), logger);
  return {
    db: db as unknown as Database,
    driver: 'pglite',
    queries,
    announcer,
    close: async () => {
      await announcer.flush();
      try {
        await pglite.close();
      } finally {
        unlock();
      }
    },
    listen: async (channel, handler) => {
      if (!CHANNEL_NAME.test(channel)) throw new Error(`Invalid channel name ${channel}`);
      const unlisten = await pglite.listen(channel, handler);
      return () => unlisten();
    },
  };
}

/** A migration's own RAISE NOTICE (SQLSTATE 00000), not the server's "already exists, skipping" of IF NOT EXISTS. */
function raisedByMigration(notice: { code?: string }): boolean {
  return notice.code === '00000';
}

/**
 * PGlite hands a NOTICE only to the query that asked for it (`onNotice`): this view of the database (and of each of its
 * transactions) asks on every query, so what the migrations report reaches `report`.
 */
function reportingNotices(pglite: PGlite, report: (message: string) => void): PGlite {
  const onNotice = (notice: { message: string; code?: string }) => {
    if (raisedByMigration(notice)) report(notice.message);
  };
  const view = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(object, property) {
        const value: unknown = Reflect.get(object, property, object);
        if (typeof value !== 'function') return value;
        if (property === 'query')
          return (text: string, params?: unknown[], queryOptions?: object) => value.call(object, text, params, { ...queryOptions, onNotice });
        if (property === 'exec') return (text: string, queryOptions?: object) => value.call(object, text, { ...queryOptions, onNotice });
        if (property === 'transaction') return (work: (tx: object) => unknown) => value.call(object, (tx: object) => work(view(tx)));
        return value.bind(object);
      },
    });
  return view(pglite);
}

/** An Announcer sending its NOTIFYs as one `select pg_notify($1, $2), ...` through `query`. */
function announcerOf(query: (text: string, params: unknown[]) => Promise<unknown>, logger: Logger): Announcer {
  const send: NotifySender = async (notifies) => {
    const calls = notifies.map((_, i) => `pg_notify($${2 * i + 1}, $${2 * i + 2})`);
    await query(`select ${calls.join(', ')}`, notifies.flat());
  };
  return new Announcer(send, (error) => logger.warn(`Could not announce committed changes: ${error.message}`));
}

/** Counts PGlite's statements: query/exec calls, and a transaction's own ones plus its BEGIN and COMMIT. */
function countPgliteQueries(pglite: PGlite): QueryCounter {
  const queries = new QueryCounter();
  type Callable = (...args: unknown[]) => Promise<unknown>;
  const wrap = (target: object, name: 'query' | 'exec') => {
    const original = (target as Record<string, Callable>)[name].bind(target);
    (target as Record<string, Callable>)[name] = (...args: unknown[]) => {
      queries.count(args[0]);
      return original(...args);
    };
  };
  wrap(pglite, 'query');
  wrap(pglite, 'exec');
  const transaction = pglite.transaction.bind(pglite) as (work: (tx: object) => Promise<unknown>) => Promise<unknown>;
  (pglite as unknown as { transaction: typeof transaction }).transaction = (work) => {
    queries.count('begin');
    return transaction((tx) => {
      wrap(tx, 'query');
      wrap(tx, 'exec');
      return work(tx);
    }).finally(() => queries.count('commit'));
  };
  return queries;
}

/** One LISTEN connection for all channels of a PostgreSQL handle; reconnects with back-off when the connection drops. */
class PgListener {
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private readonly reconnectHandlers = new Set<() => void>();
  private closed = false;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly logger: Logger,
  ) {}

  async listen(channel: string, handler: (payload: string) => void, options: ListenOptions = {}): Promise<() => Promise<void>> {
    if (!CHANNEL_NAME.test(channel)) throw new Error(`Invalid channel name ${channel}`);
    const onReconnect = options.onReconnect;
    if (onReconnect) this.reconnectHandlers.add(onReconnect);
    let set = this.handlers.get(channel);
    const first = !set;
    if (!set) this.handlers.set(channel, (set = new Set()));
    set.add(handler);
    const client = await this.connect();
    if (first) await client.query(`listen ${channel}`);
    return async () => {
      if (onReconnect) this.reconnectHandlers.delete(onReconnect);
      const current = this.handlers.get(channel);
      current?.delete(handler);
      if (current && current.size === 0) {
        this.handlers.delete(channel);
        await this.client?.query(`unlisten ${channel}`).catch(() => undefined);
      }
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private connect(): Promise<Client> {
    if (this.client) return Promise.resolve(this.client);
    if (!this.connecting) {
      this.connecting = (async () => {
        const client = new Client({ connectionString: this.url });
        client.on('notification', (message) => {
          for (const handler of this.handlers.get(message.channel) ?? []) {
            try {
              handler(message.payload ?? '');
            } catch (error) {
              this.logger.warn(`LISTEN handler on ${message.channel} failed: ${(error as Error).message}`);
            }
          }
        });
        client.on('error', (error) => {
          this.logger.warn(`PostgreSQL LISTEN connection: ${error.message}`);
          this.reconnectSoon(client);
        });
        client.on('end', () => this.reconnectSoon(client));
        await client.connect();
        this.client = client;
        return client;
      })().finally(() => {
        this.connecting = undefined;
      });
    }
    return this.connecting;
  }

  private reconnectSoon(dead: Client): void {
    if (this.closed || this.client !== dead) return;
    this.client = undefined;
    dead.end().catch(() => undefined);
    const attempt = (delay: number) => {
      this.retryTimer = setTimeout(async () => {
        if (this.closed) return;
        try {
          const client = await this.connect();
          for (const channel of this.handlers.keys()) await client.query(`listen ${channel}`);
          this.logger.log('PostgreSQL LISTEN connection re-established');
          for (const onReconnect of this.reconnectHandlers) onReconnect();
        } catch {
          attempt(Math.min(delay * 2, 30_000));
        }
      }, delay);
      this.retryTimer.unref();
    };
    attempt(500);
  }
}
