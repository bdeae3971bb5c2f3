import { PGlite } from '@electric-sql/pglite';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  differences,
  type DumpedObject,
  FUNCTIONS_DIR,
  migrateAndDump,
  REGENERATE_COMMAND,
  renderFamilies,
  type SqlRunner,
} from '../../src/db/function-definitions';
import { createPostgresDatabase, DATABASE_KINDS } from '../support/databases';

const root = join(__dirname, '..', '..');
const migrationsDir = join(root, 'drizzle');
const functionsDir = join(root, FUNCTIONS_DIR);

/**
 * src/db/functions/<family>.sql hold the current definition of every SQL function; they are generated from the
 * migrations (`pnpm --filter @coinpurse/server db:functions`, written from PGlite). The same dump from PostgreSQL 15
 * must give the very same files, so a reader sees what either database runs.
 */
describe.each(DATABASE_KINDS)('the generated SQL function files on %s', (kind) => {
  let objects: DumpedObject[];
  let expected: Map<string, string>;
  let close: () => Promise<void>;

  beforeAll(async () => {
    let db: SqlRunner;
    if (kind === 'pglite') {
      const pglite = new PGlite();
      db = { run: async (sql) => void (await pglite.exec(sql)), rows: async <T>(sql: string) => (await pglite.query<T>(sql)).rows };
      close = () => pglite.close();
    } else {
      const database = await createPostgresDatabase();
      const client = new Client({ connectionString: database.url });
      await client.connect();
      db = { run: async (sql) => void (await client.query(sql)), rows: async <T>(sql: string) => (await client.query(sql)).rows as T[] };
      close = async () => {
        await client.end();
        await database.drop();
      };
    }
    objects = await migrateAndDump(db, migrationsDir);
    expected = renderFamilies(objects, migrationsDir);
  });
  afterAll(async () => {
    await close?.();
  });

  it('agree with the migrations: every function and trigger as the migrated database defines it', () => {
    expect(differences(expected, functionsDir)).toEqual([]);
  });

  it('place each function in the family of the migration that created it, with the later ones that changed it', () => {
    const byName = new Map(objects.map((object) => [object.name, object]));
    expect(byName.get('cp_post')).toMatchObject({ createdIn: '0012_ledger_core', changedIn: [] });
    // Re-created by 0023 and given its plan setting by 0024: still in the chain family of 0016, which created it.
    expect(byName.get('cp_fail_payout')).toMatchObject({
      createdIn: '0016_chain_functions',
      changedIn: ['0023_cold_payout_abandon', '0024_money_generic_plans'],
    });
    expect(byName.get('payouts_guard_transaction')).toMatchObject({ createdIn: '0011_payouts', changedIn: ['0020_cold_payouts', '0022_signer_signatures'] });
    // Dropped by 0025: nothing called it any more.
    expect(byName.has('cp_require')).toBe(false);
    const chain = expected.get('chain.sql') ?? '';
    expect(chain).toContain("IF v_payout.id IS NULL OR v_payout.state NOT IN ('approved', 'awaiting_funds', 'awaiting_cold_signature') THEN");
    expect(chain).toContain("SET plan_cache_mode TO 'force_generic_plan'");
    expect(expected.get('payouts.sql')).toContain('CREATE TRIGGER payouts_guard_transaction BEFORE UPDATE OF status, voided_at ON public.transactions');
  });

  it('name the function that differs and the command that writes the files again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'coinpurse-functions-'));
    try {
      for (const [file, text] of expected) writeFileSync(join(dir, file), text);
      expect(differences(expected, dir)).toEqual([]);
      const wallet = readFileSync(join(dir, 'wallet.sql'), 'utf8');
      writeFileSync(join(dir, 'wallet.sql'), wallet.replace('PERFORM cp_require_second_factor(p_user, p_code_checked);', ''));
      writeFileSync(join(dir, 'stale.sql'), '-- a family no migration defines\n');
      rmSync(join(dir, 'sweeps.sql'));
      const problems = differences(expected, dir);
      expect(problems).toHaveLength(3);
      expect(problems.join('\n')).toContain(
        `${FUNCTIONS_DIR}/wallet.sql: cp_send(uuid,uuid,text,text,text,text,numeric,numeric,numeric,jsonb,timestamp with time zone,boolean,integer,integer,jsonb,jsonb,numeric) differs`,
      );
      expect(problems.join('\n')).toContain(
        `${FUNCTIONS_DIR}/sweeps.sql is missing (the migrations define cp_base_to_coins(numeric,integer), cp_record_sweep(`,
      );
      expect(problems.join('\n')).toContain(`${FUNCTIONS_DIR}/stale.sql holds no function`);
      for (const problem of problems) expect(problem).toContain(REGENERATE_COMMAND);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
