import type { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Logger as PinoInstance } from 'pino';
import pretty from 'pino-pretty';
import type { LogFormat, LogLevelName } from '../config/settings';

/**
 * How both processes log (the API through modules/observability/logging.ts, the signer process in src/signer/main.ts):
 * one pino root logger — JSON lines, or pino-pretty's single coloured lines for a person at a terminal — with the level
 * applied and secrets redacted, and Nest's `Logger` written through it.
 */

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

/** The one root pino logger of a process: JSON lines, or pino-pretty's single coloured lines for a terminal. */
export function createRootLogger(format: LogFormat, level: LogLevelName, destination?: DestinationStream): PinoInstance {
  const stream =
    destination ??
    (format === 'pretty'
      ? pretty({ colorize: true, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', sync: true })
      : // Synchronous stdout (pino's default): no line is lost when the process exits.
        pino.destination({ dest: 1, sync: true }));
  return pino({ ...loggerOptions(format, level), redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, stream);
}

/** The options of a root logger (and of one sharing its stream): the level, the pid on JSON lines, ISO times, level names. */
export function loggerOptions(format: LogFormat, level: LogLevelName): pino.LoggerOptions {
  return {
    level,
    base: format === 'json' ? { pid: process.pid } : undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
}

/** Nest contexts that announce every module and route at start; demoted to debug so a start is a few lines. */
const STARTUP_NOISE = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

type PinoLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/**
 * Nest's logger (every `new Logger('X')`) written through a pino logger: `logger()` says which (the root; the API's
 * subclass picks the request's). Nest's calling convention: the context is the last optional parameter; an error's
 * stack may come as the one before it.
 */
export class PinoNestLogger implements LoggerService {
  constructor(protected readonly root: PinoInstance) {}

  verbose(message: unknown, ...optionalParams: unknown[]): void {
    this.write('trace', message, optionalParams);
  }

  debug(message: unknown, ...optionalParams: unknown[]): void {
    this.write('debug', message, optionalParams);
  }

  log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams[optionalParams.length - 1];
    this.write(typeof context === 'string' && STARTUP_NOISE.has(context) ? 'debug' : 'info', message, optionalParams);
  }

  warn(message: unknown, ...optionalParams: unknown[]): void {
    this.write('warn', message, optionalParams);
  }

  error(message: unknown, ...optionalParams: unknown[]): void {
    this.write('error', message, optionalParams);
  }

  fatal(message: unknown, ...optionalParams: unknown[]): void {
    this.write('fatal', message, optionalParams);
  }

  /** Whether a line of `level` is written at all (checked before any child logger is made). */
  protected enabled(level: PinoLevel): boolean {
    return this.root.isLevelEnabled(level);
  }

  /** The pino logger a line goes to. */
  protected logger(): PinoInstance {
    return this.root;
  }

  private write(level: PinoLevel, message: unknown, optionalParams: unknown[]): void {
    if (!this.enabled(level)) return;
    const logger = this.logger();
    const fields: Record<string, unknown> = {};
    let rest = optionalParams;
    if (rest.length) {
      fields.context = rest[rest.length - 1];
      rest = rest.slice(0, -1);
    }
    if (message instanceof Error) {
      fields.err = message;
      logger[level](fields, ...(rest as []));
    } else if (typeof message === 'object' && message !== null) {
      logger[level]({ ...fields, ...message }, ...(rest as []));
    } else if (level === 'error' && rest.length === 1 && typeof rest[0] === 'string' && /\n\s*at /.test(rest[0])) {
      // Nest's own exception handlers pass (message, stack, context).
      const err = new Error(String(message));
      err.stack = rest[0];
      logger[level]({ ...fields, err });
    } else {
      logger[level](fields, String(message), ...(rest as []));
    }
  }
}
