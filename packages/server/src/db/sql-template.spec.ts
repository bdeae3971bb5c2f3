import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database';
import { literal, type SqlPiece, sqlPiece, StatementTemplates } from './sql-template';

describe('StatementTemplates', () => {
  let pglite: PGlite;
  let db: Database;
  const sent: string[] = [];

  beforeAll(async () => {
    pglite = new PGlite();
    await pglite.exec(`create table t (id int primary key, label text, note text)`);
    const query = pglite.query.bind(pglite) as (text: string, params?: unknown[]) => Promise<unknown>;
    (pglite as unknown as { query: typeof query }).query = (text, params) => {
      sent.push(text);
      return query(text, params);
    };
    db = drizzle(pglite) as unknown as Database;
  });
  afterAll(() => pglite.close());

  const insert = (id: number, label: string, note: string | null): SqlPiece =>
    sqlPiece('insert', [id, label, note], (bind) => sql`insert into t (id, label, note) values (${bind(0)}, ${bind(1)} || ${literal("'s")}, ${bind(2)})`);

  it('builds a shape once and binds each call its own values, as the statement built per call would', async () => {
    const templates = new StatementTemplates();
    const run = (piece: SqlPiece) => templates.run(db, piece.key, [piece], (bindOf) => piece.build(bindOf(0)));
    await run(insert(1, 'one', null));
    await run(insert(2, 'two', 'second'));
    await db.execute(StatementTemplates.inline([insert(3, 'three', 'per call')], (bindOf) => insert(3, 'three', 'per call').build(bindOf(0))));
    const { rows } = await pglite.query<{ id: number; label: string; note: string | null }>('select id, label, note from t order by id');
    expect(rows).toEqual([
      { id: 1, label: "one's", note: null },
      { id: 2, label: "two's", note: 'second' },
      { id: 3, label: "three's", note: 'per call' },
    ]);
    expect(sent[0]).toBe(sent[1]);
  });

  it('refuses a template holding a value that is not bound (it would be sent with every later call)', async () => {
    const templates = new StatementTemplates();
    const leaky = sqlPiece('leaky', [4], (bind) => sql`insert into t (id, label) values (${bind(0)}, ${'leaked'})`);
    await expect(templates.run(db, leaky.key, [leaky], (bindOf) => leaky.build(bindOf(0)))).rejects.toThrow(/not bound/);
  });
});
