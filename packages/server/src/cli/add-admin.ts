/**
 * `pnpm admin:add --name "Ada Admin" --email ada@example.com`: adds an administrator from the server (with four-eyes on,
 * the way to get the second admin). The password comes from NEW_ADMIN_PASSWORD or the first line of standard input,
 * never from the command line (shell history, process list). Uses DATABASE_URL or the PGlite DATA_DIR, like the app;
 * on PGlite, stop the app first (one process per data directory).
 */
import 'reflect-metadata';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/config';
import { loadDotEnv } from '../config/settings';
import { openDatabase } from '../db/database';
import { addAdministrator } from '../modules/admin/add-administrator';

async function readPassword(): Promise<string> {
  if (process.env.NEW_ADMIN_PASSWORD) return process.env.NEW_ADMIN_PASSWORD;
  if (process.stdin.isTTY) process.stderr.write('Password for the new administrator (then Enter): ');
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  return '';
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { name: { type: 'string' }, email: { type: 'string' } } });
  if (!values.name || !values.email) {
    console.error('Usage: NEW_ADMIN_PASSWORD=… pnpm admin:add --name <name> --email <email>   (or the password on standard input)');
    process.exit(2);
  }
  loadDotEnv();
  const config = loadConfig();
  const password = await readPassword();
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, migrationsDir: config.migrationsDir });
  try {
    const created = await addAdministrator(handle.db, { name: values.name, email: values.email, password });
    console.log(`Administrator added: ${created.email} (${created.id}). It signs in at /login-admin.`);
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 1;
  } finally {
    await handle.close();
  }
}

void main();
