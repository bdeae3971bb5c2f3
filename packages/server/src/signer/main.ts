import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import { drizzle } from 'drizzle-orm/node-postgres';
import { Pool } from 'pg';
import { createRootLogger, PinoNestLogger } from '../common/logger';
import { ConfigError } from '../config/settings';
import { createSignerHttpApi } from './http-api';
import { loadSignerConfig } from './signer-config';
import { loadSignerEnvFile } from './signer-env-file';
import { SigningService } from './signing-service';

/**
 * The signer process (`node dist/signer.js`, docs/operate/signer.md): the only process that holds a hot key. It reads
 * its own environment (SIGNER_TOKEN, DATABASE_URL, CHAIN_<NETWORK>_RPC_URL/_XPUB/_CHAIN and _WALLET or _KEY_FILE) and
 * its own env file (`signer.env` or SIGNER_ENV_FILE, never the API's `.env`), connects to the API's PostgreSQL
 * database (the API migrates it), and answers the API's requests on loopback. It logs like the API: pino, JSON lines
 * unless a person watches a terminal, at LOG_LEVEL, secrets redacted (and never put into a message).
 */
async function main(): Promise<void> {
  let config;
  let envFile: string | undefined;
  try {
    envFile = loadSignerEnvFile();
    config = loadSignerConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message.replace('Invalid configuration', 'Invalid signer configuration'));
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const root = createRootLogger(config.logFormat, config.logLevel);
  // Every `new Logger('…')` of the signer's code writes through it (before any of them logs a line).
  Logger.overrideLogger(new PinoNestLogger(root));
  const logger = new Logger('Signer');
  if (envFile) logger.log(`Read ${envFile} (variables set in the environment take precedence)`);
  const pool = new Pool({
    connectionString: config.databaseUrl,
    max: 5,
    statement_timeout: 30_000,
    lock_timeout: 10_000,
    idle_in_transaction_session_timeout: 120_000,
  });
  pool.on('error', (error) => logger.warn(`PostgreSQL: ${error.message}`));
  // No schema: the signer's code names its tables itself (src/db/sql-executor.ts), and loads only those.
  const db = drizzle(pool);
  const service = new SigningService(db, config.networks);
  const server = createSignerHttpApi(service, config.token);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  for (const identity of service.identities()) {
    logger.log(
      `Signing ${identity.network} payouts from ${identity.family === 'evm' ? 'the hot address' : 'the node wallet'} ${identity.source}${identity.sweeps ? ' (and sweeps)' : ''}`,
    );
  }
  // One line a supervisor (or a test) can read the port from: written whatever LOG_LEVEL says.
  root.child({ context: 'Signer' }, { level: 'info' }).info(`Signer listening on http://${config.host}:${port}`);
  const stop = () => {
    server.close();
    void pool.end().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
