import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The current text of every SQL function the migrations define, in one generated file per family
 * (`src/db/functions/<family>.sql`), so nobody has to read the migrations in order to know what a money function does
 * today. `pnpm --filter @coinpurse/server db:functions` writes the files (src/scripts/dump-functions.ts);
 * test/integration/sql-functions.test.ts fails when they and the migrations disagree, on PGlite and PostgreSQL.
 *
 * How: the migrations of `drizzle/meta/_journal.json` are applied one by one to an empty database, statement by
 * statement as Drizzle's migrator splits them, and after each one the catalog is read (`pg_get_functiondef`, the
 * triggers that execute each function, the composite types). So each function is known with the migration that
 * created it and the ones that changed it (CREATE OR REPLACE, ALTER FUNCTION); the file shows the state after the last.
 */

/**
 * A function (or composite type) belongs to the family of the migration that first created it: the family named here,
 * or else the migration's name without its number and a trailing `_functions` (`0026_api_keys` → `api-keys`). Name a
 * migration here only to put its functions into an existing family.
 */
export const FAMILIES: Readonly<Record<string, string>> = {
  '0003_coin_price_changed_at': 'reference-data',
  '0004_reference_data_notify': 'reference-data',
  '0011_payouts': 'payouts',
  '0012_ledger_core': 'ledger-core',
  '0013_wallet_functions': 'wallet',
  '0014_admin_transaction_functions': 'admin-transactions',
  '0015_adjustment_functions': 'adjustments',
  '0016_chain_functions': 'chain',
  '0017_deposit_review': 'deposit-review',
  '0019_payout_fees': 'payouts',
  '0021_sweeps': 'sweeps',
  '0056_verification_limits': 'verification',
  '0061_dropped_deposits': 'deposit-review',
  '0062_withdrawal_fee_modes': 'fees',
  '0064_lighter_money_checks': 'ledger-core',
  '0065_swap_group_commit': 'wallet',
  '0066_swap_terms_batch': 'fees',
  '0067_withdrawal_terms_plpgsql': 'fees',
};

export const REGENERATE_COMMAND = 'pnpm --filter @coinpurse/server db:functions';
/** Where the generated files live, relative to the server package. */
export const FUNCTIONS_DIR = join('src', 'db', 'functions');

export function familyOf(tag: string): string {
  return (
    FAMILIES[tag] ??
    tag
      .replace(/^\d+_/, '')
      .replace(/_functions$/, '')
      .replace(/_/g, '-')
  );
}

/** The two ways the dump reaches a database: PGlite (`exec`/`query`) and node-postgres (`query`) both fit. */
export interface SqlRunner {
  /** Runs one or several statements (simple query protocol), results ignored. */
  run(sql: string): Promise<void>;
  rows<T>(sql: string): Promise<T[]>;
}

interface Migration {
  tag: string;
  text: string;
  statements: string[];
}

/** The journal's migrations, split as Drizzle's migrator splits them (drizzle-orm/migrator readMigrationFiles). */
export function readMigrations(migrationsDir: string): Migration[] {
  const journal = JSON.parse(readFileSync(join(migrationsDir, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
  return journal.entries.map(({ tag }) => {
    const text = readFileSync(join(migrationsDir, `${tag}.sql`), 'utf8');
    return { tag, text, statements: text.split('--> statement-breakpoint') };
  });
}

/** One object of the dump: a function (with the triggers that execute it) or a composite type. */
interface CatalogObject {
  /** `cp_post(text,uuid,text,uuid,cp_move[])`; a type: `type cp_move`. */
  key: string;
  name: string;
  kind: 'function' | 'type';
  definition: string;
}

export interface DumpedObject extends CatalogObject {
  createdIn: string;
  /** Which statement of that migration created it (its order in the family's file). */
  createdAt: number;
  /** Later migrations after which its definition differed. */
  changedIn: string[];
}

const FUNCTIONS_QUERY = `
  select p.oid::regprocedure::text as key, p.proname as name, pg_get_functiondef(p.oid) as definition,
    coalesce((select string_agg(pg_get_triggerdef(t.oid) || ';', E'\\n' order by t.tgname)
      from pg_trigger t where t.tgfoid = p.oid and not t.tgisinternal), '') as triggers
  from pg_proc p
  where p.pronamespace = current_schema()::regnamespace and p.prokind in ('f', 'p')
    and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')`;

const TYPES_QUERY = `
  select t.typname as name,
    format('CREATE TYPE %I.%I AS (%s);', n.nspname, t.typname,
      string_agg(format('%I %s', a.attname, format_type(a.atttypid, a.atttypmod)), ', ' order by a.attnum)) as definition
  from pg_type t join pg_namespace n on n.oid = t.typnamespace join pg_class c on c.oid = t.typrelid
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
  where n.oid = current_schema()::regnamespace and c.relkind = 'c'
    and not exists (select 1 from pg_depend d where d.classid = 'pg_type'::regclass and d.objid = t.oid and d.deptype = 'e')
  group by n.nspname, t.typname`;

/**
 * The text of a definition as the files show it, the same from PostgreSQL 15 and PGlite (18): pg_get_functiondef's
 * output without its trailing newline, ended with `;`, trailing blanks cut from every line (a function's body is
 * kept verbatim by the server, so an editor's stray space would otherwise show up as a difference), then its triggers.
 */
export function normaliseDefinition(functionDef: string, triggers: string): string {
  const text = `${functionDef.trimEnd()};${triggers ? `\n\n${triggers}` : ''}`;
  return text.replace(/[ \t]+$/gm, '');
}

async function readCatalog(db: SqlRunner): Promise<Map<string, CatalogObject>> {
  const found = new Map<string, CatalogObject>();
  for (const row of await db.rows<{ key: string; name: string; definition: string; triggers: string }>(FUNCTIONS_QUERY)) {
    found.set(row.key, { key: row.key, name: row.name, kind: 'function', definition: normaliseDefinition(row.definition, row.triggers) });
  }
  for (const row of await db.rows<{ name: string; definition: string }>(TYPES_QUERY)) {
    found.set(`type ${row.name}`, { key: `type ${row.name}`, name: row.name, kind: 'type', definition: row.definition });
  }
  return found;
}

/**
 * Applies every migration of `migrationsDir` to the empty database behind `db`, statement by statement, and returns
 * every function and composite type that exists at the end, with the migration that created it and those that
 * changed it. The database is left fully migrated (without Drizzle's own bookkeeping table).
 */
export async function migrateAndDump(db: SqlRunner, migrationsDir: string): Promise<DumpedObject[]> {
  const current = new Map<string, DumpedObject>();
  // Where each name first appeared: a function dropped and created again (a new signature) stays in its family.
  const origins = new Map<string, { tag: string; index: number }>();
  const changes = new Map<string, string[]>();
  for (const migration of readMigrations(migrationsDir)) {
    for (const [index, statement] of migration.statements.entries()) {
      await db.run(statement);
      const catalog = await readCatalog(db);
      for (const [key, object] of catalog) {
        const known = current.get(key);
        if (known && known.definition === object.definition) continue;
        const name = `${object.kind} ${object.name}`;
        if (!origins.has(name)) origins.set(name, { tag: migration.tag, index });
        const origin = origins.get(name)!;
        const changedIn = changes.get(key) ?? [];
        changes.set(key, changedIn);
        if (migration.tag !== origin.tag && !changedIn.includes(migration.tag)) changedIn.push(migration.tag);
        current.set(key, { ...object, createdIn: origin.tag, createdAt: origin.index, changedIn });
      }
      for (const key of [...current.keys()]) if (!catalog.has(key)) current.delete(key);
    }
  }
  return [...current.values()];
}

/**
 * The comment above the statement of `text` that creates (or replaces) the object; none when that comment is the
 * migration's header and the family's file already shows that header at its top.
 */
function commentOf(text: string, object: CatalogObject, headerShown: boolean): string[] {
  const lines = text.split('\n');
  const name = object.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern =
    object.kind === 'type'
      ? new RegExp(`^CREATE\\s+TYPE\\s+(?:"?public"?\\.)?"?${name}"?\\s`, 'i')
      : new RegExp(`^CREATE\\s+(?:OR\\s+REPLACE\\s+)?FUNCTION\\s+(?:"?public"?\\.)?"?${name}"?\\s*\\(`, 'i');
  const at = lines.findIndex((line) => pattern.test(line));
  let start = at;
  while (start > 0 && /^--(?!>)/.test(lines[start - 1])) start--;
  return at < 0 || (start === 0 && headerShown) ? [] : lines.slice(start, at).map((line) => line.trimEnd());
}

/** A migration's own header: the comment lines it starts with. */
function headerOf(text: string): string[] {
  const lines = text.split('\n');
  const end = lines.findIndex((line) => !/^--(?!>)/.test(line));
  const header = lines.slice(0, end < 0 ? lines.length : end).map((line) => line.trimEnd());
  while (header.length > 0 && header[header.length - 1] === '--') header.pop();
  return header;
}

const RULE = `-- ${'-'.repeat(117)}`;
/** The line (after a RULE) that opens each object's section: the test names what differs by it. */
const SECTION = /^-- (?:function|type) (.+)$/;

/** The generated files: `<family>.sql` → its text. */
export function renderFamilies(objects: DumpedObject[], migrationsDir: string): Map<string, string> {
  const migrations = new Map(readMigrations(migrationsDir).map((migration, order) => [migration.tag, { ...migration, order }]));
  const orderOf = (tag: string) => migrations.get(tag)?.order ?? Number.MAX_SAFE_INTEGER;
  const families = new Map<string, DumpedObject[]>();
  for (const object of objects) {
    const family = familyOf(object.createdIn);
    families.set(family, [...(families.get(family) ?? []), object]);
  }
  const files = new Map<string, string>();
  for (const [family, members] of [...families].sort(([a], [b]) => a.localeCompare(b))) {
    members.sort(
      (a, b) =>
        orderOf(a.createdIn) - orderOf(b.createdIn) ||
        a.createdAt - b.createdAt ||
        (a.kind === b.kind ? 0 : a.kind === 'type' ? -1 : 1) ||
        a.key.localeCompare(b.key),
    );
    const sources = [...new Set(members.map((member) => member.createdIn))].sort((a, b) => orderOf(a) - orderOf(b));
    const lines = [
      `-- GENERATED FILE, do not edit. Written by \`${REGENERATE_COMMAND}\` (src/scripts/dump-functions.ts);`,
      `-- test/integration/sql-functions.test.ts fails when it and the migrations disagree. To change a function, write a`,
      `-- new migration in drizzle/ (CREATE OR REPLACE FUNCTION ...), run the command and commit what it writes.`,
      `--`,
      `-- The "${family}" family: the current definition of each function (and composite type) first created by`,
      ...sources.map((tag) => `--   drizzle/${tag}.sql`),
      `-- (a function stays in the family of the migration that created it; the families are named in FAMILIES,`,
      `-- src/db/function-definitions.ts). Read from a database migrated with every file of drizzle/: pg_get_functiondef,`,
      `-- then the triggers that execute the function; in the order the migrations created them. Above each, the comment`,
      `-- of the migration that created it, and of each migration that changed it since.`,
    ];
    for (const tag of sources) {
      const header = headerOf(migrations.get(tag)?.text ?? '');
      if (header.length > 0) lines.push('', `-- From the header of drizzle/${tag}.sql:`, '--', ...header);
    }
    for (const member of members) {
      lines.push('', RULE, `-- ${member.kind} ${member.kind === 'type' ? member.name : member.key}`);
      lines.push(`-- Created in drizzle/${member.createdIn}.sql.`);
      if (member.changedIn.length > 0) lines.push(`-- Changed in ${member.changedIn.map((tag) => `drizzle/${tag}.sql`).join(', ')}.`);
      lines.push(RULE);
      const created = commentOf(migrations.get(member.createdIn)?.text ?? '', member, true);
      if (created.length > 0) lines.push(...created);
      for (const tag of member.changedIn) {
        const comment = commentOf(migrations.get(tag)?.text ?? '', member, sources.includes(tag));
        if (comment.length > 0) lines.push('--', `-- Changed in drizzle/${tag}.sql:`, ...comment);
      }
      lines.push(member.definition);
    }
    files.set(`${family}.sql`, `${lines.join('\n')}\n`);
  }
  return files;
}

/** The objects of a generated file, by the section line that opens each: key → its section's text. */
function sectionsOf(text: string): Map<string, string> {
  const sections = new Map<string, string>();
  let current: string | undefined;
  let previous = '';
  for (const line of text.split('\n')) {
    const match = previous === RULE ? SECTION.exec(line) : null;
    previous = line;
    if (match) current = match[1];
    if (current !== undefined) sections.set(current, `${sections.get(current) ?? ''}${line}\n`);
  }
  return sections;
}

/**
 * What differs between the files the migrations give (`expected`) and those in `dir`, one sentence per function or
 * file, each naming the command that writes them again. Empty: they agree.
 */
export function differences(expected: Map<string, string>, dir: string): string[] {
  const problems: string[] = [];
  const committed = existsSync(dir) ? readdirSync(dir).filter((file) => file.endsWith('.sql')) : [];
  const fix = `run \`${REGENERATE_COMMAND}\` and commit ${FUNCTIONS_DIR}/`;
  for (const file of committed) if (!expected.has(file)) problems.push(`${FUNCTIONS_DIR}/${file} holds no function the migrations define: ${fix}.`);
  for (const [file, text] of expected) {
    if (!committed.includes(file)) {
      problems.push(`${FUNCTIONS_DIR}/${file} is missing (the migrations define ${[...sectionsOf(text).keys()].join(', ')}): ${fix}.`);
      continue;
    }
    const actual = readFileSync(join(dir, file), 'utf8');
    if (actual === text) continue;
    const [want, have] = [sectionsOf(text), sectionsOf(actual)];
    const named: string[] = [];
    for (const [key, section] of want) {
      if (!have.has(key)) named.push(`${key} is missing`);
      else if (have.get(key) !== section) named.push(`${key} differs from the migrations`);
    }
    for (const key of have.keys()) if (!want.has(key)) named.push(`${key} is no longer defined by the migrations`);
    if (named.length === 0) named.push('its header differs');
    problems.push(`${FUNCTIONS_DIR}/${file}: ${named.join('; ')}: ${fix}.`);
  }
  return problems;
}
