import { PGlite } from '@electric-sql/pglite';
import { generateDrizzleJson } from 'drizzle-kit/api';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../../src/db/schema';

const root = join(__dirname, '..', '..');
const migrationsDir = join(root, 'drizzle');
const meta = join(migrationsDir, 'meta');

interface JournalEntry {
  idx: number;
  when: number;
  tag: string;
}
interface Snapshot {
  id: string;
  prevId: string;
  tables: Record<
    string,
    { name: string; columns: object; indexes: object; foreignKeys: object; compositePrimaryKeys: object; uniqueConstraints: object; checkConstraints: object }
  >;
}

const journal = JSON.parse(readFileSync(join(meta, '_journal.json'), 'utf8')) as { entries: JournalEntry[] };
/** drizzle-kit names a migration and its snapshot by the entry's idx: `0025_name.sql`, `meta/0025_snapshot.json`. */
const prefixOf = (idx: number) => String(idx).padStart(4, '0');
const readSnapshot = (idx: number) => JSON.parse(readFileSync(join(meta, `${prefixOf(idx)}_snapshot.json`), 'utf8')) as Snapshot;

/**
 * drizzle-kit generate diffs the schema in src/db/schema against the newest snapshot in drizzle/meta: a snapshot
 * missing or stale makes it write again what the migrations already did. Each journal entry has its snapshot, chained
 * by id, and generate on the committed files finds nothing to do (the procedure: docs/architecture.md, "Changing the
 * database").
 */
describe('Drizzle migrations and snapshots', () => {
  it('every journal entry has its SQL file and its snapshot, chained by id, in order, and nothing else is in meta/', () => {
    const problems: string[] = [];
    let previous: { id: string; when: number; idx: number } = { id: '00000000-0000-0000-0000-000000000000', when: 0, idx: -1 };
    const ids = new Set<string>();
    for (const entry of journal.entries) {
      if (!entry.tag.startsWith(`${prefixOf(entry.idx)}_`)) problems.push(`${entry.tag}: its idx ${entry.idx} does not match its number`);
      if (entry.idx <= previous.idx) problems.push(`${entry.tag}: idx ${entry.idx} is not above the entry before`);
      // Drizzle's migrator applies an entry only when its `when` is later than the last applied one's.
      if (entry.when <= previous.when) problems.push(`${entry.tag}: when ${entry.when} is not later than the entry before (${previous.when})`);
      if (!existsSync(join(migrationsDir, `${entry.tag}.sql`))) problems.push(`${entry.tag}.sql is missing`);
      if (!existsSync(join(meta, `${prefixOf(entry.idx)}_snapshot.json`))) {
        problems.push(`${entry.tag}: meta/${prefixOf(entry.idx)}_snapshot.json is missing`);
        continue;
      }
      const snapshot = readSnapshot(entry.idx);
      if (snapshot.prevId !== previous.id) problems.push(`${entry.tag}: its snapshot's prevId is not the id of the snapshot before`);
      if (ids.has(snapshot.id)) problems.push(`${entry.tag}: its snapshot's id is used twice`);
      ids.add(snapshot.id);
      previous = { id: snapshot.id, when: entry.when, idx: entry.idx };
    }
    const expected = new Set(journal.entries.map((entry) => `${prefixOf(entry.idx)}_snapshot.json`).concat('_journal.json'));
    // drizzle-kit reads every file of meta/ not starting with "_" as a snapshot.
    for (const file of readdirSync(meta)) if (!expected.has(file)) problems.push(`meta/${file} belongs to no journal entry`);
    const sqlFiles = new Set(journal.entries.map((entry) => `${entry.tag}.sql`));
    for (const file of readdirSync(migrationsDir)) if (file.endsWith('.sql') && !sqlFiles.has(file)) problems.push(`${file} is not in the journal`);
    expect(problems).toEqual([]);
  });

  it('drizzle-kit generate on the committed migrations writes nothing: the newest snapshot is the schema', () => {
    const work = mkdtempSync(join(tmpdir(), 'coinpurse-drizzle-'));
    try {
      cpSync(migrationsDir, join(work, 'drizzle'), { recursive: true });
      const before = readdirSync(join(work, 'drizzle'), { recursive: true }).sort();
      // A copy of the folder, never the real one; stdin closed and a time limit, so a question (a rename?) fails the
      // test instead of hanging it.
      const result = spawnSync(
        join(root, 'node_modules', '.bin', 'drizzle-kit'),
        ['generate', '--dialect', 'postgresql', '--schema', join(root, 'src', 'db', 'schema', 'index.ts'), '--out', './drizzle', '--name', 'drift'],
        { cwd: work, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 },
      );
      const output = `${result.stdout}${result.stderr}`;
      const written = readdirSync(join(work, 'drizzle'), { recursive: true }).sort();
      const driftFile = join(work, 'drizzle', `${prefixOf(journal.entries.at(-1)!.idx + 1)}_drift.sql`);
      const drift = existsSync(driftFile) ? readFileSync(driftFile, 'utf8') : '';
      // Its output lists every table first; the end says what it did.
      const said = output
        .split('\n')
        .filter((line) => !/^\S+ \d+ columns \d+ indexes \d+ fks$/.test(line.trim()))
        .join('\n');
      expect(
        { wrote: drift, files: written },
        `drizzle-kit generate wrote a migration: src/db/schema and the newest snapshot in drizzle/meta disagree. Add the ` +
          `migration with \`pnpm --filter @coinpurse/server db:generate --name <name>\` (docs/architecture.md, "Changing the database").\n${drift || said}`,
      ).toEqual({ wrote: '', files: before });
      // It exits 0 on a broken snapshot chain too: only this line says it compared and found nothing.
      expect(output, said).toContain('No schema changes, nothing to migrate');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  describe('the schema names only what the migrated database has', () => {
    let pglite: PGlite;
    beforeAll(async () => {
      pglite = new PGlite();
      await migrate(drizzle(pglite), { migrationsFolder: migrationsDir });
    });
    afterAll(async () => {
      await pglite?.close();
    });

    // A name the database lacks (a foreign key a migration named by hand) would make a later generated migration
    // drop or alter something that is not there.
    it('every table, column, index and constraint of src/db/schema exists under its name after the migrations', async () => {
      const described = generateDrizzleJson(schema as Record<string, unknown>) as unknown as Snapshot;
      const names = async (query: string) => new Set((await pglite.query<{ name: string }>(query)).rows.map((row) => row.name));
      const tables = await names(`select relname as name from pg_class where relnamespace = 'public'::regnamespace and relkind in ('r', 'p')`);
      const columns = await names(
        `select c.relname || '.' || a.attname as name from pg_attribute a join pg_class c on c.oid = a.attrelid
         where c.relnamespace = 'public'::regnamespace and a.attnum > 0 and not a.attisdropped`,
      );
      const indexes = await names(`select indexname as name from pg_indexes where schemaname = 'public'`);
      const constraints = await names(`select conname as name from pg_constraint where connamespace = 'public'::regnamespace`);
      const missing: string[] = [];
      for (const table of Object.values(described.tables)) {
        if (!tables.has(table.name)) missing.push(`table ${table.name}`);
        for (const column of Object.keys(table.columns)) if (!columns.has(`${table.name}.${column}`)) missing.push(`column ${table.name}.${column}`);
        for (const index of Object.keys(table.indexes)) if (!indexes.has(index)) missing.push(`index ${index}`);
        for (const group of [table.foreignKeys, table.compositePrimaryKeys, table.uniqueConstraints, table.checkConstraints])
          for (const constraint of Object.keys(group)) if (!constraints.has(constraint)) missing.push(`constraint ${table.name}.${constraint}`);
      }
      expect(missing).toEqual([]);
      expect(Object.keys(described.tables).length).toBeGreaterThan(30);
    });
  });
});
