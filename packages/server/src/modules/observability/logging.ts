import { type DynamicModule, Global, Inject, Injectable, type LoggerService, type LogLevel, Module } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type DestinationStream, type Logger as PinoInstance } from 'pino';
import { createRootLogger as createProcessLogger, loggerOptions, PinoNestLogger } from '../../common/logger';
import { matchedRoute } from '../../common/matched-route';
import { assignRequestId } from '../../common/request-id.middleware';
import type { AuthedRequest } from '../../common/principal';
import type { AppConfig } from '../../config/config';
import type { LogLevelName } from '../../config/settings';

/** This app's pino logger (createApp's root). */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

/** The request being served: its id, and the logger bound to it once a line is logged (most requests log none). */
interface RequestLogContext {
  root: PinoInstance;
  requestId: string | undefined;
  logger?: PinoInstance;
}
const requestContext = new AsyncLocalStorage<RequestLogContext>();

/** The logger of the request being served (a child of its app's root, bound to the request id), if any. */
function requestLogger(): PinoInstance | undefined {
  const context = requestContext.getStore();
  if (!context) return undefined;
  // Made on first use: a child of the redacting root redacts its bindings when it is made.
  context.logger ??= context.root.child({ requestId: context.requestId });
  return context.logger;
}

/**
 * Nest's logger (every `new Logger('X')` of the app) written through pino (PinoNestLogger): inside a request through
 * that request's logger (its id on every line), else through the app's root logger.
 */
@Injectable()
export class AppLogger extends PinoNestLogger {
  constructor(@Inject(ROOT_LOGGER) root: PinoInstance) {
    super(root);
  }

  // The level is the root's (a child has its parent's): no child is made for a line that is not written.
  protected override enabled(level: pino.Level): boolean {
    return (requestContext.getStore()?.root ?? this.root).isLevelEnabled(level);
  }

  protected override logger(): PinoInstance {
    return requestLogger() ?? this.root;
  }
}

/** The app's root logger and the Nest logger over it (see AppLogger). */
@Global()
@Module({})
export class LoggingModule {
  static register(root: PinoInstance): DynamicModule {
    return {
      module: LoggingModule,
      providers: [{ provide: ROOT_LOGGER, useValue: root }, AppLogger],
      exports: [ROOT_LOGGER, AppLogger],
    };
  }
}

/** The pino level matching Nest's `logger: ['error']` style used by tests, or the configured one. */
export function effectiveLogLevel(config: AppConfig, nestLogger: LoggerService | LogLevel[] | false | undefined): LogLevelName {
  if (nestLogger === false) return 'silent';
  if (Array.isArray(nestLogger)) {
    const order: LogLevelName[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];
    const asPino = nestLogger.map(
      (level) => ({ verbose: 'trace', debug: 'debug', log: 'info', warn: 'warn', error: 'error', fatal: 'fatal' })[level] as LogLevelName,
    );
    return order.find((level) => asPino.includes(level)) ?? 'silent';
  }
  return config.logLevel;
}

/** The app's root pino logger: JSON lines, or pino-pretty's single coloured lines for a development terminal. */
export function createRootLogger(config: AppConfig, level: LogLevelName, destination?: DestinationStream): PinoInstance {
  return createProcessLogger(config.logFormat, level, destination);
}

/**
 * A logger writing like `root` (same stream, level and format) without the redaction pass, for request lines built
 * only from fields that never hold a secret (method, route, path without query, status, duration, ids). Redaction
 * walks every line against ~50 wildcard paths, the largest single cost of a cached read.
 */
export function createAccessLogger(config: AppConfig, root: PinoInstance): PinoInstance {
  const stream = (root as unknown as Record<symbol, DestinationStream>)[pino.symbols.streamSym];
  return pino(loggerOptions(config.logFormat, root.level as LogLevelName), stream);
}

/**
 * The route pattern that matched (`/api/crypto/send-crypto/:tokenId`), not the URL: bounded label sets, no ids in logs.
 * Undefined when no route matched (the not-found handler, the client's catch-all).
 */
export function routePattern(request: FastifyRequest): string | undefined {
  const url = matchedRoute(request)?.url;
  return typeof url === 'string' && !url.includes('*') ? url : undefined;
}

/** The path without its query string (cursors, filters and any token-like value stay out of logs). */
function pathOf(request: FastifyRequest): string {
  const url = request.url;
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** The level of a request line: errors for 5xx, warnings for refused access and rate limits, else info. */
function requestLevel(status: number): 'error' | 'warn' | 'info' {
  return status >= 500 ? 'error' : status === 429 || status === 401 || status === 403 ? 'warn' : 'info';
}

function isLoggedPath(path: string): boolean {
  return path.startsWith('/api/') && !/^\/api\/(health\/(live|ready)|metrics)$/.test(path);
}

type LoggedRequest = FastifyRequest & AuthedRequest;

/**
 * The request logging of one app, as hooks on its Fastify instance: every request gets its id (the caller's sane
 * X-Request-Id or a new one, echoed back) when it arrives; from the handler on, every line logged while serving it goes
 * through a child of `root` bound to that id (see AppLogger); and an API request writes one line when it ends. Built per
 * app: tests and replica checks boot several apps in one process, each with its own destination and level.
 *
 * The context is entered in `preHandler`, after the body is read: Fastify parses a body in the request stream's own
 * events, outside any context entered before. The request line holds only fields that never carry a secret (method,
 * route pattern, path without query, status, duration, ids), so it is written by `access` (same stream and level, no
 * redaction pass).
 */
export function registerRequestLogging(fastify: FastifyInstance, root: PinoInstance, access: PinoInstance): void {
  fastify.addHook('onRequest', (request: LoggedRequest, reply, done) => {
    assignRequestId(request, reply);
    done();
  });
  fastify.addHook('preHandler', (request: LoggedRequest, _reply, done) => {
    requestContext.run({ root, requestId: request.requestId }, done);
  });
  fastify.addHook('onResponse', (request: LoggedRequest, reply, done) => {
    // API requests only; health probes and scrapes every few seconds would drown the rest.
    if (isLoggedPath(pathOf(request))) writeRequestLine(request, reply, access);
    done();
  });
}

/**
 * One info line per this many answers of a sampled route, the others at debug: a public, cached, anonymous read (the
 * market list, every visitor every few seconds) would otherwise be most of the log volume and of its own cost, and its
 * lines hold nothing an investigation needs (no user, no money, no error). Its errors and refusals are all logged, and
 * every answer is counted in the metrics.
 */
export const CACHED_READ_LOG_SAMPLE = 1000;

/** The answers of one sampled route: every `every`-th is logged at info (marked `sampled`), the others at debug. */
export class RequestLineSample {
  private answered = 0;

  constructor(readonly every: number = CACHED_READ_LOG_SAMPLE) {}

  /** True for the answer to log at info. */
  next(): boolean {
    this.answered = (this.answered + 1) % this.every;
    return this.answered === 1;
  }
}

/** Fastify route config read by the request logging (`@RouteConfig({ logSample })` on a Nest route). */
export interface RequestLogConfig {
  logSample?: RequestLineSample;
}

/**
 * The one writer of an API request's line (Fastify's onResponse hook): only fields that never hold a secret (an API key by its public prefix); a 5xx's
 * cause is logged by the exception filter under the same request id. Positional, so a line that is not written
 * allocates nothing.
 */
export function logRequestLine(
  access: PinoInstance,
  sample: RequestLineSample | undefined,
  requestId: string | undefined,
  method: string,
  route: string | null,
  path: string,
  status: number,
  durationMs: number,
  userId: string | null,
  apiKey?: string,
): void {
  let level: 'error' | 'warn' | 'info' | 'debug' = requestLevel(status);
  let sampled = false;
  if (sample && level === 'info') {
    sampled = sample.next();
    if (!sampled) level = 'debug';
  }
  if (!access.isLevelEnabled(level)) return;
  access[level](
    { requestId, method, route, path, status, durationMs, userId, ...(apiKey ? { apiKey } : {}), ...(sampled ? { sampled: sample!.every } : {}) },
    level === 'error' ? `${method} ${path} ${status} failed` : `${method} ${path} ${status} ${durationMs}ms`,
  );
}

function writeRequestLine(request: LoggedRequest, reply: FastifyReply, access: PinoInstance): void {
  logRequestLine(
    access,
    (matchedRoute(request)?.config as RequestLogConfig | undefined)?.logSample,
    request.requestId,
    request.method,
    routePattern(request) ?? null,
    pathOf(request),
    reply.statusCode,
    Math.round(reply.elapsedTime),
    request.principal?.id ?? null,
    // A request made with an API key names the key by its public prefix (never the key).
    request.apiKeyPrefix,
  );
}
