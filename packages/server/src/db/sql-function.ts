import { sql, type SQL } from 'drizzle-orm';
import { Pool } from 'pg';
import type { Database, Executor } from './database';

/**
 * A PostgreSQL function (the money operations of the migrations) called with one fixed statement,
 * `select <name>($1::type, …) as result`: on the PostgreSQL server a named prepared statement (parsed and planned once
 * per connection), on PGlite or inside a transaction the same text with its values bound. Values go as parameters only.
 * Objects and arrays meant for `jsonb` are sent as JSON text.
 */
export class SqlFunction {
  /** The statement every call sends (also what a reviewer reads in `src/queries/money.sql`). */
  readonly text: string;

  constructor(
    readonly name: string,
    readonly parameterTypes: readonly string[],
  ) {
    if (!/^cp_[a-z_]+$/.test(name)) throw new Error(`Not a money function name: ${name}`);
    this.text = `select ${name}(${parameterTypes.map((type, i) => `$${i + 1}::${type}`).join(', ')}) as result`;
  }

  /** Runs the function on `executor` (the database: autocommit, one round trip; a transaction: inside it). */
  async call(db: Database, args: readonly unknown[], executor: Executor = db): Promise<unknown> {
    if (args.length !== this.parameterTypes.length) throw new Error(`${this.name} takes ${this.parameterTypes.length} values, got ${args.length}`);
    const values = args.map((value, i) => valueFor(this.parameterTypes[i], value));
    const client = (db as unknown as { $client?: unknown }).$client;
    if (executor === db && client instanceof Pool) {
      const result = await client.query<{ result: unknown }>({ name: this.name, text: this.text, values });
      return result.rows[0]?.result;
    }
    const result = (await executor.execute(this.statement(values))) as unknown as { rows: Array<{ result: unknown }> };
    return result.rows[0]?.result;
  }

  /**
   * `args` as a batch function reads one call from a JSON array (cp_swap_batch): `jsonb` values as JSON themselves,
   * the rest as `call` sends them.
   */
  jsonValues(args: readonly unknown[]): unknown[] {
    return args.map((value, i) => {
      if (this.parameterTypes[i] !== 'jsonb' || value === undefined || value === null) return valueFor(this.parameterTypes[i], value);
      return typeof value === 'string' ? JSON.parse(value) : value;
    });
  }

  private statement(values: unknown[]): SQL {
    const parts = values.map((value, i) => sql`${value}::${sql.raw(this.parameterTypes[i])}`);
    return sql`select ${sql.raw(this.name)}(${sql.join(parts, sql`, `)}) as result`;
  }
}

function valueFor(type: string, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (type === 'jsonb') return typeof value === 'string' ? value : JSON.stringify(value);
  if (value instanceof Date) return value.toISOString();
  return value;
}
