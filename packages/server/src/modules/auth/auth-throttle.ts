import type { ThrottlerModuleOptions } from '@nestjs/throttler';
import { normalizeEmail } from './users.repository';

/**
 * Two limits on the auth routes: per client address and per account (the email in the body),
 * so a burst of wrong passwords is stopped whether it comes from one address or is spread across many.
 */
export function authThrottleOptions(limitPerMinute: number): ThrottlerModuleOptions {
  return {
    errorMessage: 'Too many attempts. Please wait a minute and try again.',
    throttlers: [
      { name: 'address', ttl: 60_000, limit: limitPerMinute },
      {
        name: 'account',
        ttl: 60_000,
        limit: limitPerMinute,
        getTracker: (request: Record<string, any>) => {
          const email = request.body?.email;
          return typeof email === 'string' && email ? `account:${normalizeEmail(email)}` : `address:${request.ip}`;
        },
      },
    ],
  };
}
