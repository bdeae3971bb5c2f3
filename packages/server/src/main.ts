import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { ConfigError, loadConfig } from './config/config';
import { DataDirLockedError } from './db/data-dir-lock';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const app = await createApp(config);
  await app.listen(config.port);
  const url = `http://localhost:${config.port}`;
  new Logger('Coinpurse').log(
    `Listening on ${url} (API ${url}/api, docs ${url}/api/docs, database ${config.databaseUrl ? 'PostgreSQL' : 'PGlite in ' + config.dataDir})`,
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
