/**
 * `pnpm seed --users 100000 --transactions 1000000 [--heavy 100000] [--password …]`: bulk, ledger-consistent test data
 * in DATABASE_URL (PostgreSQL) or the PGlite DATA_DIR, then the ledger check. Prints the time taken and the heavy
 * customer's email (its password is the seed password) as JSON on the last line.
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/config';
import { loadDotEnv } from '../config/settings';
import { openDatabase } from '../db/database';
import { seedDatabase } from './bulk-seed';
import { LedgerRepository } from '../modules/ledger/ledger.repository';
import { LedgerService } from '../modules/ledger/ledger.service';
import type { LedgerEvents } from '../modules/ledger/ledger-events';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      users: { type: 'string', default: '1000' },
      transactions: { type: 'string', default: '10000' },
      heavy: { type: 'string' },
      password: { type: 'string' },
    },
    allowPositionals: true,
  });
  const users = Number(values.users);
  const transactions = Number(values.transactions);
  const heavy = values.heavy === undefined ? undefined : Number(values.heavy);
  if (!Number.isInteger(users) || users < 1 || !Number.isInteger(transactions) || transactions < 0 || (heavy !== undefined && !(heavy >= 0))) {
    console.error('Usage: pnpm seed --users <n ≥ 1> --transactions <n ≥ 0> [--heavy <n>] [--password <text>]');
    process.exit(2);
  }
  loadDotEnv();
  const config = loadConfig();
  // Bulk statements run far longer than a request may: no statement or lock timeout on this connection.
  const handle = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    migrationsDir: config.migrationsDir,
    timeouts: { statementMs: 0, lockMs: 0, idleInTransactionMs: 0, connectMs: 10_000 },
  });
  try {
    console.log(`Seeding ${users} users and ${transactions} transactions into ${handle.driver === 'postgres' ? 'PostgreSQL' : `PGlite (${config.dataDir})`}…`);
    const result = await seedDatabase(handle.db, { users, transactions, heavyTransactions: heavy, password: values.password });
    console.log(
      `Seeded ${result.users} users, ${result.transactions} transactions, ${result.journalEntries} journal entries, ${result.journalLines} lines in ${(result.ms / 1000).toFixed(1)} s`,
    );
    console.log(
      `Steps: ${Object.entries(result.steps)
        .map(([name, ms]) => `${name} ${(ms / 1000).toFixed(1)} s`)
        .join(', ')}`,
    );
    const checkStarted = performance.now();
    // The check only reads through the repository; it announces no balance change.
    const ledger = new LedgerService(new LedgerRepository(handle.db), handle.db, undefined as unknown as LedgerEvents);
    const check = await ledger.check();
    console.log(
      `Ledger check: ${check.ok ? 'ok' : 'FAILED'} (${check.accounts} accounts, ${check.lines} lines, ${check.mismatches.length} mismatches, ${check.negativeCustomerBalances} negative customer balances, tokens ${check.tokens.map((t) => `${t.token} Σ ${t.sum}`).join(', ')}) in ${((performance.now() - checkStarted) / 1000).toFixed(1)} s`,
    );
    console.log(JSON.stringify({ ...result, ledgerOk: check.ok }));
    if (!check.ok) process.exitCode = 1;
  } finally {
    await handle.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
