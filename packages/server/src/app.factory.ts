import 'reflect-metadata';
import { type LoggerService, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { API_PREFIX } from '@coinpurse/contract';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';
import { AppModule } from './app.module';
import { useChainsForAddresses } from './common/address-validation';
import { registerClientAssets } from './common/client-assets';
import { registerDocs } from './common/docs-assets';
import { registerJsonBodies } from './common/json-body';
import { registerMultipartForUploads } from './common/multipart-plugin';
import { registerSecurityHeaders } from './common/security-headers';
import { createValidationPipe } from './common/validation';
import type { AppConfig } from './config/config';
import { openDatabase } from './db/database';
import { MarketCacheService } from './modules/market/market-cache.service';
import { registerMarketListAnswer } from './modules/market/market-list.route';
import { registerHttpMetrics } from './modules/observability/http-metrics';
import { AppLogger, createAccessLogger, createRootLogger, effectiveLogLevel, registerRequestLogging } from './modules/observability/logging';
import { MetricsService } from './modules/observability/metrics.service';
import { registerImageRoutes } from './modules/stored-images/image-routes';
import { StoredImagesService } from './modules/stored-images/stored-images.service';
import { buildOpenApiDocument } from './openapi';
import { IMAGE_DIRECTORIES } from './common/static-assets';

export interface CreateAppOptions {
  /** Nest-style levels (tests pass `['error']`) or false; the default is LOG_LEVEL. */
  logger?: LoggerService | LogLevel[] | false;
  /** Where log lines go instead of stdout (tests capture them). */
  logDestination?: DestinationStream;
}

/** JSON and form bodies up to this size (Express's body-parser default, kept); uploads have their own limits. */
export const BODY_LIMIT_BYTES = 100 * 1024;

/**
 * The HTTP server's options. Routes match as Express's did: case-insensitively, with or without a trailing slash.
 * TRUST_PROXY: a hop count trusts that many proxies in front (Express's rule, `hop < n`), addresses and ranges the
 * ones listed.
 */
export function serverOptions(config: Pick<AppConfig, 'trustProxy'>): FastifyServerOptions {
  const { trustProxy } = config;
  return {
    trustProxy: typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
  };
}

/** Builds the whole app (database opened and migrated, API under /api, docs, built client at /). Used by main and tests. */
export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<NestFastifyApplication> {
  // Addresses of a network whose node runs a test chain are validated for that chain.
  useChainsForAddresses(config.chains);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    migrationsDir: config.migrationsDir,
    timeouts: config.databaseTimeouts,
  });
  const rootLogger = createRootLogger(config, effectiveLogLevel(config, options.logger), options.logDestination);
  let app: NestFastifyApplication;
  try {
    const adapter = new FastifyAdapter(serverOptions(config));
    // Before Nest's adapter registers it for the upload interceptors (it then skips it).
    registerMultipartForUploads(adapter.getInstance() as unknown as FastifyInstance);
    app = await NestFactory.create<NestFastifyApplication>(AppModule.register(config, database, rootLogger), adapter, {
      bufferLogs: true,
      // The bodies are read as registerJsonBodies says (configureApp), not by Nest's default parsers.
      bodyParser: false,
    });
  } catch (error) {
    await database.close();
    throw error;
  }
  // Every `new Logger('X')` of the app now writes through pino, with the request id of the request it serves.
  app.useLogger(app.get(AppLogger));
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  const accessLog = createAccessLogger(config, rootLogger);
  // Hooks before any route: every request gets its id, log line, security headers and metrics sample.
  registerRequestLogging(fastify, rootLogger, accessLog);
  registerSecurityHeaders(fastify);
  registerHttpMetrics(fastify, app.get(MetricsService));
  // Before the routes are added: the market list's own route gets its hook.
  registerMarketListAnswer(fastify, app.get(MarketCacheService));
  await configureApp(app, config);
  await app.init();
  // Plugins loaded and every route's hooks in place before the first request (listen() would do it; tests use the
  // server without listening).
  await fastify.ready();
  return app;
}

export async function configureApp(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  app.enableShutdownHooks();
  app.setGlobalPrefix(API_PREFIX);
  app.useGlobalPipes(createValidationPipe());
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  registerJsonBodies(fastify, BODY_LIMIT_BYTES);

  // Built on the first request for the docs (then kept), not at start: scanning every route costs start-up time.
  SwaggerModule.setup(`${API_PREFIX}/docs`, app, () => buildOpenApiDocument(app), { jsonDocumentUrl: `${API_PREFIX}/openapi.json` });

  // The built client (its files, and the app shell for the client's routes); the guides the screens link to; then
  // uploaded images and coin icons.
  await registerClientAssets(fastify, config.clientDir);
  registerDocs(fastify, config.docsDir, config.docsUrl);
  registerImageRoutes(fastify, app.get(StoredImagesService), IMAGE_DIRECTORIES(config));
}
