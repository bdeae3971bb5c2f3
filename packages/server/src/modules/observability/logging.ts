import { Injectable, type LoggerService, type LogLevel } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Logger as PinoNestLogger, LoggerModule, type Params } from 'nestjs-pino';
import pino, { type DestinationStream, type Logger as PinoInstance } from 'pino';
import { pinoHttp } from 'pino-http';
import pretty from 'pino-pretty';
import { assignRequestId } from '../../common/request-id.middleware';
import type { AuthedRequest } from '../../common/principal';
import type { AppConfig, LogLevelName } from '../../config/config';

/**
 * Keys whose values never reach a log line, wherever they appear in a logged object (two levels deep covers
 * `{ body: { password } }` and `{ req: { headers: { authorization } } }`). Messages that are plain strings are the
 * caller's responsibility: never interpolate a secret into one.
 */
const SECRET_KEYS = [
  'authorization',
  'cookie',
  'set-cookie',
  'password',
  'currentPassword',
  'newPassword',
  'adminPassword',
  'token',
  'accessToken',
  'refreshToken',
  'resetToken',
  'resetLink',
  'link',
  'code',
  'otp',
  'secret',
  'jwtSecret',
];
export const REDACT_PATHS = SECRET_KEYS.flatMap((key) => {
  const member = /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `["${key}"]`;
  return [member.startsWith('.') ? key : member, `*${member}`, `*.*${member}`];
});

/** Nest contexts that announce every module and route at start; demoted to debug so a start is a few lines. */
const STARTUP_NOISE = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

/** Nest's logger backed by pino; the framework's route-by-route start-up chatter goes to debug. */
@Injectable()
export class AppLogger extends PinoNestLogger {
  override log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams[optionalParams.length - 1];
    if (typeof context === 'string' && STARTUP_NOISE.has(context)) return super.debug(message, ...optionalParams);
    super.log(message, ...optionalParams);
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

/** The one root pino logger: JSON lines, or pino-pretty's single coloured lines for a development terminal. */
export function createRootLogger(config: AppConfig, level: LogLevelName, destination?: DestinationStream): PinoInstance {
  const stream =
    destination ??
    (config.logFormat === 'pretty'
      ? pretty({ colorize: true, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', sync: true })
      : // Synchronous stdout (pino's default): no line is lost when the process exits.
        pino.destination({ dest: 1, sync: true }));
  return pino({ ...loggerOptions(config, level), redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, stream);
}

/**
 * A logger writing like `root` (same stream, level and format) without the redaction pass, for request lines built
 * only from fields that never hold a secret (method, route, path without query, status, duration, ids). Redaction
 * walks every line against ~50 wildcard paths, the largest single cost of a cached read.
 */
export function createAccessLogger(config: AppConfig, root: PinoInstance): PinoInstance {
  const stream = (root as unknown as Record<symbol, DestinationStream>)[pino.symbols.streamSym];
  return pino(loggerOptions(config, root.level as LogLevelName), stream);
}

function loggerOptions(config: AppConfig, level: LogLevelName): pino.LoggerOptions {
  return {
    level,
    base: config.logFormat === 'json' ? { pid: process.pid } : undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
}

/**
 * The route pattern Express matched (`/api/crypto/send-crypto/:tokenId`), not the URL: bounded label sets, no ids in
 * logs. Undefined when no route matched (Nest's catch-all 404 route `*path` included).
 */
export function routePattern(request: Request): string | undefined {
  const path = (request as Request & { route?: { path?: unknown } }).route?.path;
  return typeof path === 'string' && !path.startsWith('*') ? path : undefined;
}

/** The path without its query string (cursors, filters and any token-like value stay out of logs). */
function pathOf(request: Request): string {
  const url = request.originalUrl ?? request.url ?? '';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * The request logger of one app (pino-http): one line per request when it ends, and `req.log` bound to its request
 * id. Mounted by createApp as the first middleware. It is built per app rather than left to nestjs-pino, which keeps
 * one pino-http instance per process: tests and replica checks boot several apps in one process, each with its own
 * destination and level.
 */
export function httpLogger(root: PinoInstance) {
  return pinoHttp({
    logger: root,
    genReqId: (req, res) => assignRequestId(req as unknown as AuthedRequest, res as unknown as Response),
    customAttributeKeys: { reqId: 'requestId', responseTime: 'durationMs' },
    quietReqLogger: true,
    quietResLogger: true,
    // API requests only; health probes and scrapes every few seconds would drown the rest.
    autoLogging: { ignore: (req) => !isLoggedPath(pathOf(req as Request)) },
    customLogLevel: (_req, res, error) =>
      error || res.statusCode >= 500 ? 'error' : res.statusCode === 429 || res.statusCode === 401 || res.statusCode === 403 ? 'warn' : 'info',
    customSuccessMessage: (req, res, responseTime) => `${req.method} ${pathOf(req as Request)} ${res.statusCode} ${responseTime}ms`,
    customErrorMessage: (req, res) => `${req.method} ${pathOf(req as Request)} ${res.statusCode} failed`,
    customSuccessObject: (req, res, value) => requestLine(req as Request, res as Response, value),
    // A 5xx answered normally reaches pino-http without an error, and it invents one ("failed with status code 503",
    // with its own stack): noise. The real cause is logged by the exception filter under the same request id.
    customErrorObject: (req, res, error, value) => ({
      ...requestLine(req as Request, res as Response, value),
      ...(isSyntheticStatusError(error, res.statusCode) ? {} : { err: error }),
    }),
  });
}

function isSyntheticStatusError(error: Error | undefined, status: number): boolean {
  return !error || error.message === `failed with status code ${status}`;
}

function isLoggedPath(path: string): boolean {
  return path.startsWith('/api/') && !/^\/api\/(health\/(live|ready)|metrics)$/.test(path);
}

/**
 * nestjs-pino: Nest's logger backed by pino, and every line logged while serving a request bound to that request's
 * logger (its id). `useExisting`: the request logger is the one httpLogger() mounted.
 */
export function loggingModule(root: PinoInstance) {
  const params: Params = { pinoHttp: { logger: root }, useExisting: true };
  return LoggerModule.forRoot(params);
}

function requestLine(request: Request, response: Response, value: object): Record<string, unknown> {
  return {
    method: request.method,
    route: routePattern(request) ?? null,
    path: pathOf(request),
    status: response.statusCode,
    durationMs: (value as { durationMs?: number }).durationMs,
    userId: (request as AuthedRequest).principal?.id ?? null,
  };
}
