import './compile-cache';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { DataDirLockedError } from './db/data-dir-lock';
import { loadConfig } from './config/config';
import { ConfigError, loadDotEnv } from './config/settings';

async function main(): Promise<void> {
  let config;
  let envFile: string | undefined;
  try {
    envFile = loadDotEnv();
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const app = await createApp(config);
  // Every interface, IPv6 and IPv4 (as Node's own default); IPv4 only where IPv6 is off.
  await app.listen(config.port, '::').catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EAFNOSUPPORT' && error.code !== 'EADDRNOTAVAIL') throw error;
    return app.listen(config.port, '0.0.0.0');
  });
  // The bundle's loader (scripts/main-loader.cjs) writes V8's code cache once the startup path has run.
  (process as NodeJS.EventEmitter).emit('coinpurse:listening');
  const url = `http://localhost:${config.port}`;
  const logger = new Logger('Coinpurse');
  if (envFile) logger.log(`Read ${envFile} (variables set in the environment take precedence)`);
  logger.log(`Listening on ${url} (API ${url}/api, docs ${url}/api/docs, database ${config.databaseUrl ? 'PostgreSQL' : 'PGlite in ' + config.dataDir})`);
  logger.log(
    `Probes ${url}/api/health/live and /api/health/ready; metrics ${url}/api/metrics (${config.metricsToken ? 'bearer METRICS_TOKEN' : 'loopback only'}); logs ${config.logFormat} at ${config.logLevel}`,
  );
}

main().catch((error) => {
  if (error instanceof DataDirLockedError) {
    console.error(error.message);
    process.exit(75); // EX_TEMPFAIL
  }
  console.error(error);
  process.exit(1);
});
