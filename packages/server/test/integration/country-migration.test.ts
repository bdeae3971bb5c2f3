import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countryCode, countryNames, countrySpellings } from '../../src/common/countries';
import { type Database, openDatabase } from '../../src/db/database';
import { createPostgresDatabase, DATABASE_KINDS } from '../support/databases';

const MIGRATIONS = join(__dirname, '..', '..', 'drizzle');
const COUNTRY_MIGRATION = '0008_country_codes';

/** A migrations folder holding every migration before the countries one (journal included). */
function migrationsBefore(tag: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'coinpurse-migrations-'));
  mkdirSync(join(folder, 'meta'));
  const journal = JSON.parse(readFileSync(join(MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
  journal.entries = journal.entries.filter((entry) => entry.tag < tag);
  for (const entry of journal.entries) copyFileSync(join(MIGRATIONS, `${entry.tag}.sql`), join(folder, `${entry.tag}.sql`));
  writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify(journal));
  return folder;
}

const rows = async <T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> => {
  const result = await db.execute(query);
  return ((result as { rows?: T[] }).rows ?? (result as unknown as T[])) as T[];
};

describe.each(DATABASE_KINDS)('countries migration (0008) on %s', (kind) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('stores codes for the names and codes it knows, keeps the rest as they are and lists them', async () => {
    const before = migrationsBefore(COUNTRY_MIGRATION);
    const dataDir = mkdtempSync(join(tmpdir(), 'coinpurse-countries-'));
    cleanups.push(
      () => rmSync(before, { recursive: true, force: true }),
      () => rmSync(dataDir, { recursive: true, force: true }),
    );
    const postgres = kind === 'postgres' ? await createPostgresDatabase() : undefined;
    if (postgres) cleanups.push(() => postgres.drop());
    const target = { databaseUrl: postgres?.url, dataDir };

    // Customers as sign-up stored them before: whatever text was sent. Every spelling the API accepts (lower case as
    // the table keys it, the answered names as written, codes in both cases), some as people type them, some unknown.
    const known = [
      ...countrySpellings().keys(),
      ...countryNames().values(),
      ...[...countryNames().keys()].flatMap((code) => [code, code.toLowerCase()]),
      '  France ',
      'GERMANY',
      'Côte d’Ivoire',
      'United States',
      'Cabo Verde',
    ];
    const unknown = ['Atlantis', 'Atlantis', 'Narnia', 'XX', ''];
    const values = [...known, ...unknown];
    const first = await openDatabase({ ...target, migrationsDir: before });
    try {
      for (let start = 0; start < values.length; start += 500) {
        const chunk = values.slice(start, start + 500).map((country, i) => {
          const email = `c${start + i}@countries.test`;
          return sql`(${`Customer ${start + i}`}, ${email}, ${email}, 'x', ${country}, 'user')`;
        });
        await first.db.execute(sql`insert into users (name, email, email_normalized, password_hash, country, role) values ${sql.join(chunk, sql`, `)}`);
      }
      await first.db.execute(
        sql`insert into users (name, email, email_normalized, password_hash, country, role) values ('Admin', 'a@countries.test', 'a@countries.test', 'x', '-', 'admin')`,
      );
      expect(await rows(first.db, sql`select 1 from users where country = 'DE'`)).toHaveLength(1); // only the row stored as "DE"
    } finally {
      await first.close();
    }

    const warnings: string[] = [];
    vi.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => void warnings.push(String(message)));
    const migrated = await openDatabase({ ...target, migrationsDir: MIGRATIONS });
    cleanups.push(() => migrated.close());

    const stored = await rows<{ email: string; country: string }>(migrated.db, sql`select email, country from users where role = 'user' order by email`);
    const byEmail = new Map(stored.map((row) => [row.email, row.country]));
    const expected = values.map((value) => [value, countryCode(value) ?? value]);
    expect(values.map((value, i) => [value, byEmail.get(`c${i}@countries.test`)])).toEqual(expected);
    // Every known spelling got a code; the unknown ones (and the empty one) are untouched.
    expect(known.every((value) => countryCode(value) !== undefined)).toBe(true);
    expect(unknown.every((value) => countryCode(value) === undefined)).toBe(true);
    expect(await rows(migrated.db, sql`select country from users where role = 'admin'`)).toEqual([{ country: '-' }]);

    // The migration's output lists what it kept, with the number of accounts; the admins' "-" is no country to list.
    expect(warnings.filter((line) => line.startsWith('Migration:'))).toEqual([
      `Migration: Countries kept as stored (not a country of ISO 3166-1, value and accounts): "" (1), "Atlantis" (2), "Narnia" (1), "XX" (1)`,
    ]);

    // Run again (by hand, statement by statement), it changes nothing.
    const statements = readFileSync(join(MIGRATIONS, `${COUNTRY_MIGRATION}.sql`), 'utf8').split('--> statement-breakpoint');
    for (const statement of statements) await migrated.db.execute(sql.raw(statement));
    expect(await rows(migrated.db, sql`select email, country from users where role = 'user' order by email`)).toEqual(stored);
  });
});
