import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { Pool, PoolClient } from 'pg';
import { DATABASE, type Database } from '../../src/db/database';
import type { TestApp } from './test-app';

export interface QueryCounter {
  /** Statements sent to the database since the counter was made (or last reset): one round trip each. */
  readonly count: number;
  /** The statements' text, for a failing assertion's message. */
  readonly statements: string[];
  reset(): void;
}

const WRAPPED = Symbol('queryCounterWrapped');
type Countable = { query: (...args: unknown[]) => unknown; [WRAPPED]?: true };

/**
 * Counts the statements the app sends to its database, by wrapping the driver client under Drizzle (`db.$client`):
 * on PostgreSQL every pooled connection's `query` (pool queries and transactions alike); on PGlite `query`, `exec`
 * and the statements of `transaction` (its BEGIN and COMMIT count as two). One counter per app at a time.
 */
export function countQueries(t: TestApp): QueryCounter {
  const db = t.app.get<Database>(DATABASE) as Database & { $client: unknown };
  const client = db.$client as Pool | PGlite;
  let statements = sinks.get(client as object);
  if (!statements) sinks.set(client as object, (statements = []));
  statements.length = 0;
  const sink = statements;
  const record = (text: unknown) => sink.push(String(typeof text === 'object' && text ? ((text as { text?: string }).text ?? '') : text));

  if (t.config.databaseUrl) {
    const pool = client as Pool;
    const wrap = (connection: PoolClient) => {
      const countable = connection as unknown as Countable;
      if (countable[WRAPPED]) return;
      countable[WRAPPED] = true;
      const query = connection.query.bind(connection) as (...args: unknown[]) => unknown;
      countable.query = (...args: unknown[]) => {
        record(args[0]);
        return query(...args);
      };
    };
    // Idle connections made before the counter, and every connection checked out from now on.
    for (const idle of (pool as unknown as { _idle: Array<{ client: PoolClient }> })._idle ?? []) wrap(idle.client);
    pool.on('acquire', wrap);
  } else {
    const pglite = client as PGlite & { [WRAPPED]?: true };
    if (!pglite[WRAPPED]) {
      pglite[WRAPPED] = true;
      const query = pglite.query.bind(pglite);
      const exec = pglite.exec.bind(pglite);
      const transaction = pglite.transaction.bind(pglite);
      pglite.query = ((text: string, ...rest: unknown[]) => {
        record(text);
        return (query as (...args: unknown[]) => unknown)(text, ...rest);
      }) as typeof pglite.query;
      pglite.exec = ((text: string, ...rest: unknown[]) => {
        record(text);
        return (exec as (...args: unknown[]) => unknown)(text, ...rest);
      }) as typeof pglite.exec;
      pglite.transaction = (<T>(callback: (tx: Transaction) => Promise<T>) => {
        record('begin');
        return transaction(async (tx) => {
          const txQuery = tx.query.bind(tx);
          const txExec = tx.exec.bind(tx);
          tx.query = ((text: string, ...rest: unknown[]) => {
            record(text);
            return (txQuery as (...args: unknown[]) => unknown)(text, ...rest);
          }) as typeof tx.query;
          tx.exec = ((text: string, ...rest: unknown[]) => {
            record(text);
            return (txExec as (...args: unknown[]) => unknown)(text, ...rest);
          }) as typeof tx.exec;
          const result = await callback(tx);
          record('commit');
          return result;
        });
      }) as typeof pglite.transaction;
    }
  }
  return {
    get count() {
      return sink.length;
    },
    get statements() {
      return [...sink];
    },
    reset() {
      sink.length = 0;
    },
  };
}

/** The statements recorded per driver client (the wrappers stay in place; a new counter starts from zero). */
const sinks = new WeakMap<object, string[]>();
