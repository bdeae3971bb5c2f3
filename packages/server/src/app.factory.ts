import 'reflect-metadata';
import { Logger, type LoggerService, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import { API_PREFIX } from '@coinpurse/contract';
import express, { type NextFunction, type Request, type Response } from 'express';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AppModule } from './app.module';
import { createValidationPipe } from './common/validation';
import type { AppConfig } from './config/config';
import { openDatabase } from './db/database';
import { buildOpenApiDocument } from './openapi';
import { IMAGE_DIRECTORIES } from './static-assets';
import { StoredImagesService } from './modules/stored-images/stored-images.service';
import { precompressedAssets } from './common/precompressed-assets';
import { AppLogger, createAccessLogger, createRootLogger, effectiveLogLevel, httpLogger } from './modules/observability/logging';
import { MetricsService } from './modules/observability/metrics.service';
import { MarketCacheService } from './modules/market/market-cache.service';
import { type FastPath, marketListFastPath } from './modules/market/market-fast-path';
import { API_SECURITY_HEADERS, securityHeadersMiddleware } from './common/security-headers';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { DestinationStream } from 'pino';

export interface CreateAppOptions {
  /** Nest-style levels (tests pass `['error']`) or false; the default is LOG_LEVEL. */
  logger?: LoggerService | LogLevel[] | false;
  /** Where log lines go instead of stdout (tests capture them). */
  logDestination?: DestinationStream;
}

/** Builds the whole app (database opened and migrated, API under /api, docs, built client at /). Used by main and tests. */
export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<NestExpressApplication> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    migrationsDir: config.migrationsDir,
    timeouts: config.databaseTimeouts,
  });
  const rootLogger = createRootLogger(config, effectiveLogLevel(config, options.logger), options.logDestination);
  let app: NestExpressApplication;
  try {
    app = await NestFactory.create<NestExpressApplication>(AppModule.register(config, database, rootLogger), { bufferLogs: true, bodyParser: true });
  } catch (error) {
    await database.close();
    throw error;
  }
  // Every `new Logger('X')` of the app now writes through pino, with the request id of the request it serves.
  app.useLogger(app.get(AppLogger));
  const accessLog = createAccessLogger(config, rootLogger);
  // First middleware: gives every request its id (echoed back), req.log and its request line.
  app.use(httpLogger(rootLogger, accessLog));
  configureApp(app, config);
  await app.init();
  mountFastPath(
    app,
    marketListFastPath({
      cache: app.get(MarketCacheService),
      metrics: app.get(MetricsService),
      accessLog,
      securityHeaders: API_SECURITY_HEADERS,
    }),
  );
  return app;
}

/** Puts `fastPath` in front of Express on the app's HTTP server: what it does not answer goes on to Express as before. */
function mountFastPath(app: NestExpressApplication, fastPath: FastPath): void {
  const server = app.getHttpServer() as Server;
  for (const listener of server.listeners('request') as RequestListener[]) {
    server.removeListener('request', listener);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      if (!fastPath(request, response)) listener(request, response);
    });
  }
}

export function configureApp(app: NestExpressApplication, config: AppConfig): void {
  app.enableShutdownHooks();
  app.disable('x-powered-by');
  // Which X-Forwarded-For entries are believed for req.ip (rate limits, audit): none unless TRUST_PROXY says so.
  app.set('trust proxy', config.trustProxy);
  app.set('query parser', 'simple');
  // Helmet's document headers for pages, the API set for JSON answers, and no-store on everything under /api.
  app.use(securityHeadersMiddleware());
  app.setGlobalPrefix(API_PREFIX);
  app.useGlobalPipes(createValidationPipe());

  // Built on the first request for the docs (then kept), not at start: scanning every route costs start-up time.
  SwaggerModule.setup(`${API_PREFIX}/docs`, app, () => buildOpenApiDocument(app), { jsonDocumentUrl: `${API_PREFIX}/openapi.json` });

  // Uploaded images (from the database, any instance) and coin icons. Names are server-made; nosniff comes from helmet.
  app.use('/images', app.get(StoredImagesService).middleware());
  const imageDirectories = IMAGE_DIRECTORIES(config);
  for (const dir of imageDirectories) app.use('/images', express.static(dir, { index: false, dotfiles: 'deny', fallthrough: true, maxAge: '1d' }));
  app.use('/images', (_req: Request, res: Response) => res.status(404).json({ statusCode: 404, error: 'Image not found.' }));

  if (existsSync(join(config.clientDir, 'index.html'))) {
    const isApi = (req: Request) => req.path === `/${API_PREFIX}` || req.path.startsWith(`/${API_PREFIX}/`);
    // API requests skip the client's static handlers entirely (no file lookup on the hot path).
    const clientOnly = (handler: (req: Request, res: Response, next: NextFunction) => void) => (req: Request, res: Response, next: NextFunction) =>
      isApi(req) ? next() : handler(req, res, next);
    app.use(clientOnly(precompressedAssets(config.clientDir)));
    app.use(clientOnly(express.static(config.clientDir, { index: false, maxAge: '1h', setHeaders: immutableAssets })));
    // SPA fallback: every non-API GET gets the app shell; the client router takes it from there.
    app.use(
      clientOnly((req: Request, res: Response, next: NextFunction) => {
        if (req.method !== 'GET') return next();
        res.setHeader('Cache-Control', 'no-cache');
        res.sendFile(join(config.clientDir, 'index.html'));
      }),
    );
  } else {
    new Logger('Static').warn(`No built client at ${config.clientDir}: only the API is served (run pnpm build).`);
  }
}

function immutableAssets(res: Response, path: string): void {
  if (path.includes(`${join('dist', 'assets')}`)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
}
