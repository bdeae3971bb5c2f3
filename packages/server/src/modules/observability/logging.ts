import { Injectable, type LoggerService, type LogLevel } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { Logger as PinoNestLogger, LoggerModule, type Params } from 'nestjs-pino';
import pino, { type DestinationStream, type Logger as PinoInstance } from 'pino';
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

/** The level of a request line: errors for 5xx, warnings for refused access and rate limits, else info. */
function requestLevel(status: number, failed: boolean): 'error' | 'warn' | 'info' {
  return failed || status >= 500 ? 'error' : status === 429 || status === 401 || status === 403 ? 'warn' : 'info';
}

function isLoggedPath(path: string): boolean {
  return path.startsWith('/api/') && !/^\/api\/(health\/(live|ready)|metrics)$/.test(path);
}

type LoggedRequest = Request & AuthedRequest & { log?: PinoInstance };

/**
 * The request logger of one app: `req.log` bound to the request id (nestjs-pino binds every line logged while serving
 * the request to it), and one line per API request when it ends. Mounted by createApp as the first middleware, and
 * built per app: tests and replica checks boot several apps in one process, each with its own destination and level.
 *
 * It replaces pino-http, which also built a second child logger per request bound to the whole serialized request
 * (headers included, run through redaction) and never used it with our quiet settings: that, and redacting the line
 * itself, were most of the logging cost of a request. The request line holds only fields that never carry a secret
 * (method, route pattern, path without query, status, duration, ids), so it is written by `access` (same stream and
 * level, no redaction); a failure's line carries the error and goes through the redacting `root`.
 */
export function httpLogger(root: PinoInstance, access: PinoInstance) {
  return (request: LoggedRequest, response: Response, next: NextFunction): void => {
    const requestId = assignRequestId(request, response);
    request.log = root.child({ requestId });
    // API requests only; health probes and scrapes every few seconds would drown the rest.
    if (isLoggedPath(pathOf(request))) {
      const started = Date.now();
      const done = (error?: Error) => {
        response.removeListener('close', done);
        response.removeListener('finish', done);
        response.removeListener('error', done);
        writeRequestLine(request, response, error, Date.now() - started, access);
      };
      response.on('close', done);
      response.on('finish', done);
      response.on('error', done);
    }
    next();
  };
}

function writeRequestLine(request: LoggedRequest, response: Response, error: Error | undefined, durationMs: number, access: PinoInstance): void {
  const status = response.statusCode;
  const level = requestLevel(status, error !== undefined);
  const line = requestLine(request, response, durationMs);
  const message = level === 'error' ? `${request.method} ${line.path} ${status} failed` : `${request.method} ${line.path} ${status} ${durationMs}ms`;
  // A real error object (a stream error) may hold anything: it goes through the redacting request logger. A 5xx
  // answered normally has none here; its cause is logged by the exception filter under the same request id.
  if (error && request.log) request.log.error({ err: error, ...line }, message);
  else access[level]({ requestId: request.requestId, ...line }, message);
}

/**
 * nestjs-pino: Nest's logger backed by pino, and every line logged while serving a request bound to that request's
 * logger (its id). `useExisting`: the request logger is the one httpLogger() mounted.
 */
export function loggingModule(root: PinoInstance) {
  const params: Params = { pinoHttp: { logger: root }, useExisting: true };
  return LoggerModule.forRoot(params);
}

function requestLine(request: LoggedRequest, response: Response, durationMs: number) {
  return {
    method: request.method,
    route: routePattern(request) ?? null,
    path: pathOf(request),
    status: response.statusCode,
    durationMs,
    userId: request.principal?.id ?? null,
  };
}
