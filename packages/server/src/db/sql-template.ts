import { type Param, Placeholder, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { Pool } from 'pg';
import type { Database } from './database';

/**
 * Where a piece's `i`-th value goes in its SQL: a placeholder when the statement is built once as a template, the value
 * itself as a parameter when it is built for one call.
 */
export type Bind = (index: number) => Placeholder | Param;

/**
 * A part of a statement whose SQL text depends only on `key`: every value that varies from call to call is in `values`
 * and reaches the SQL through `bind(i)` (never interpolated directly). A statement made only of pieces is then built and
 * compiled once per combination of keys, and each call sends the cached text with its values (hot money paths: building
 * and compiling a long CTE chain costs more CPU than PostgreSQL spends running it).
 */
export interface SqlPiece<Args extends unknown[] = []> {
  readonly key: string;
  readonly values: readonly unknown[];
  build(bind: Bind, ...args: Args): SQL;
}

export function sqlPiece<Args extends unknown[] = []>(key: string, values: readonly unknown[], build: (bind: Bind, ...args: Args) => SQL): SqlPiece<Args> {
  return { key, values, build };
}

export function isSqlPiece(value: unknown): value is SqlPiece<never[]> {
  return typeof value === 'object' && value !== null && typeof (value as { build?: unknown }).build === 'function' && 'key' in value;
}

/**
 * A constant in a piece's SQL, written as a literal: a template holds no parameter but its pieces' bound values, so a
 * value interpolated by mistake fails loudly (see `compile`) instead of being cached with the text.
 */
export function literal(value: string | number): SQL {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`Not a finite number: ${value}`);
    return sql.raw(String(value));
  }
  return sql.raw(`'${value.replace(/'/g, "''")}'`);
}

/** A statement or piece as SQL built for this one call. */
export function toSql(statement: SQL | SqlPiece): SQL {
  return isSqlPiece(statement) ? statement.build(valuesOf(statement.values)) : statement;
}

/** Binds a piece's values as ordinary parameters (built for this one call). */
export function valuesOf(values: readonly unknown[]): Bind {
  return (i) => sql.param(values[i]);
}

/** A compiled statement: its text and, per `$n`, the piece and value index it takes. */
interface Template {
  /** The prepared statement's name on PostgreSQL (each pooled connection parses and plans it once); unique per text. */
  name: string | undefined;
  text: string;
  slots: Array<{ piece: number; index: number }>;
}

const dialect = new PgDialect();
/** Shapes are few (token counts, guard sets); a bound keeps a bug from growing the cache without limit. */
const MAX_TEMPLATES = 1000;
/** Statement names are process-wide: a pool's connection must never see one name with two texts. */
let nextName = 0;

/**
 * Statement texts per shape. `run` takes the statement's pieces (in order) and an `assemble` that builds the whole
 * statement from one `Bind` per piece; the first call with a given key builds it with placeholders and compiles it,
 * every later call only binds values. The text is sent as one statement through the driver's client (the pool: one
 * round trip, counted like any other).
 */
export class StatementTemplates {
  private readonly templates = new Map<string, Template>();

  /** The statement built for one call (values bound as parameters), e.g. to run it inside a transaction. */
  static inline(pieces: ReadonlyArray<{ values: readonly unknown[] }>, assemble: (bind: (piece: number) => Bind) => SQL): SQL {
    return assemble((piece) => valuesOf(pieces[piece].values));
  }

  async run(
    db: Database,
    key: string,
    pieces: ReadonlyArray<{ values: readonly unknown[] }>,
    assemble: (bind: (piece: number) => Bind) => SQL,
  ): Promise<Array<Record<string, unknown>>> {
    let template = this.templates.get(key);
    if (!template) {
      const kept = this.templates.size < MAX_TEMPLATES;
      template = compile(
        kept ? `cp_t${nextName++}` : undefined,
        assemble((piece) => (index) => sql.placeholder(`${piece}.${index}`)),
      );
      if (kept) this.templates.set(key, template);
    }
    const params = new Array<unknown>(template.slots.length);
    for (let n = 0; n < params.length; n++) {
      const slot = template.slots[n];
      params[n] = pieces[slot.piece].values[slot.index];
    }
    const client = clientOf(db);
    // On PostgreSQL a named statement: parsed and planned once per connection, then only bound and executed (the
    // server's CPU is the other half of a swap's cost). PGlite runs in-process: plain text.
    const result =
      client instanceof Pool && template.name
        ? await client.query({ name: template.name, text: template.text, values: params })
        : await client.query(template.text, params);
    return (result as { rows: Array<Record<string, unknown>> }).rows;
  }
}

function compile(name: string | undefined, statement: SQL): Template {
  const { sql: text, params } = dialect.sqlToQuery(statement);
  const slots = params.map((param) => {
    // Anything but a placeholder is a value the piece interpolated instead of binding: it would be sent with every
    // later call of this shape. Constants are written with `literal`.
    if (!(param instanceof Placeholder)) throw new Error(`A statement template holds a value that is not bound: ${String(param).slice(0, 40)}`);
    const [piece, index] = param.name.split('.').map(Number);
    return { piece, index };
  });
  return { name, text, slots };
}

interface RawClient {
  query(text: string, params: unknown[]): Promise<unknown>;
}

/** The driver's own client under Drizzle (pg Pool or PGlite): both take `query(text, params)`. */
function clientOf(db: Database): RawClient | Pool {
  const client = (db as unknown as { $client?: RawClient | Pool }).$client;
  if (!client) throw new Error('The database handle exposes no client');
  return client;
}
