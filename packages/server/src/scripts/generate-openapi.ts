import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppModule } from '../app.module';
import { loadConfig, SERVER_ROOT } from '../config/config';
import type { DatabaseHandle } from '../db/database';
import { buildOpenApiDocument } from '../openapi';

/** Writes packages/contract/openapi.json without a database or an HTTP server (Nest preview mode). */
async function main(): Promise<void> {
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: ':memory:', MARKET_REFRESH_SECONDS: '0' });
  const noDatabase = { db: undefined, driver: 'pglite', close: async () => undefined } as unknown as DatabaseHandle;
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(config, noDatabase), new FastifyAdapter(), { preview: true, logger: false });
  app.setGlobalPrefix('api');
  const document = buildOpenApiDocument(app, { strict: true });
  const target = join(SERVER_ROOT, '..', 'contract', 'openapi.json');
  writeFileSync(target, JSON.stringify(document, null, 2) + '\n');
  await app.close();
  console.log(`OpenAPI document written to ${target} (${Object.keys(document.paths).length} paths)`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
