import { normalizeIp, type ThrottlerModuleOptions, type ThrottlerStorage } from '@nestjs/throttler';
import { normalizeEmail } from './users.repository';

/** The account-wide limit allows this many times the per-minute limit ... */
export const ACCOUNT_WIDE_FACTOR = 10;
/** ... per this window. */
export const ACCOUNT_WIDE_WINDOW_MS = 15 * 60_000;

type TrackedRequest = Record<string, any>;

const address = (request: TrackedRequest): string => normalizeIp(String(request.ip ?? ''));
const account = (request: TrackedRequest): string | undefined => {
  const email = request.body?.email;
  return typeof email === 'string' && email ? normalizeEmail(email) : undefined;
};

/**
 * Three limits on the auth routes (login, sign-up, forgot/reset password, tickets), counted in the shared storage:
 * - `address`: per client address, `limitPerMinute` a minute;
 * - `account`: per (account, client address), `limitPerMinute` a minute — a burst of guesses at one account from one
 *   address is stopped, but failures from elsewhere do not lock the owner out;
 * - `account-wide`: per account from anywhere, 10 × `limitPerMinute` per 15 minutes — the slow ceiling for guesses
 *   spread over many addresses.
 * The client address is `req.ip`: the socket's address, or the X-Forwarded-For entry TRUST_PROXY allows.
 * Requests without an email in the body count per address in the account limits.
 */
export function authThrottleOptions(limitPerMinute: number, storage?: ThrottlerStorage): ThrottlerModuleOptions {
  return {
    errorMessage: 'Too many attempts. Please wait a minute and try again.',
    storage,
    throttlers: [
      { name: 'address', ttl: 60_000, limit: limitPerMinute },
      {
        name: 'account',
        ttl: 60_000,
        limit: limitPerMinute,
        getTracker: (request: TrackedRequest) => {
          const email = account(request);
          return email ? `account:${email}|address:${address(request)}` : `address:${address(request)}`;
        },
      },
      {
        name: 'account-wide',
        ttl: ACCOUNT_WIDE_WINDOW_MS,
        limit: limitPerMinute * ACCOUNT_WIDE_FACTOR,
        getTracker: (request: TrackedRequest) => {
          const email = account(request);
          return email ? `account:${email}` : `address:${address(request)}`;
        },
      },
    ],
  };
}
