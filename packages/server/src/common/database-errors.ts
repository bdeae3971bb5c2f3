import { DatabaseBusyError, DatabaseUnavailableError, type DomainError } from './errors';

/** lock_not_available (lock_timeout), query_canceled (statement_timeout), idle-in-transaction timeout. */
const BUSY_STATES = new Set(['55P03', '57014', '25P03']);
/** admin_shutdown (pg_terminate_backend), crash_shutdown, cannot_connect_now, too_many_connections. */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** Socket-level failures from Node. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** What pg and pg-pool throw when a connection ends or cannot be had (they carry no code). */
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
  'Cannot use a pool after calling end on the pool',
  'PGlite is closed',
];

/**
 * The typed error for a database fault that says nothing about the request itself: a dropped or refused connection
 * (the requests using it fail, a retry goes to a fresh one) or a lock/statement timeout (rolled back). Undefined for
 * anything else. Looks through Drizzle's wrapper (`cause`).
 */
export function databaseFaultOf(error: unknown): DomainError | undefined {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (BUSY_STATES.has(code)) return new DatabaseBusyError();
      if (UNAVAILABLE_STATES.has(code) || code.startsWith('08') || SOCKET_CODES.has(code)) return new DatabaseUnavailableError();
    }
    const message = (current as { message?: unknown }).message;
    if (typeof message === 'string' && CONNECTION_MESSAGES.some((m) => message.startsWith(m))) return new DatabaseUnavailableError();
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A unique constraint refused the write (23505), at any depth of causes. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; current = (current as { cause?: unknown }).cause, depth++) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
