import { applyDecorators, type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor, UseInterceptors } from '@nestjs/common';
import { ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { catchError, finalize, from, mergeMap, type Observable, throwError } from 'rxjs';
import { AccountBusyError } from '../../common/errors';
import { KeyedSemaphore, PermitRefused } from '../../common/keyed-semaphore';
import type { AuthedRequest } from '../../common/principal';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { sqlState } from '../../db/in-transaction';
import { Idempotent } from './idempotency';

/**
 * Waiting places per customer on this instance (beyond them: 429 at once). A burst is refused as it arrives rather than
 * all at once when its waits run out, and a client's few concurrent calls (retries, a double click) still go through.
 */
const MAX_WAITING_PER_CUSTOMER = 32;
/** A wait with the lock timeout off still ends (ms). */
const DEFAULT_MAX_WAIT_MS = 2000;

export const TOO_MANY_MONEY_CALLS_MESSAGE = 'Too many payments from your account at once. Please wait a moment and try again.';
export const ACCOUNT_BUSY_MESSAGE = 'Your account is busy with another payment. Please try again in a moment.';

/**
 * The per-customer limit on money calls in flight on this instance (MONEY_CALLS_PER_CUSTOMER). A call takes a permit
 * before it touches the database, so one customer's burst holds at most that many pool connections and waits in
 * memory, not on their account's row lock with a connection each: other customers keep the pool. A call waits for a
 * permit at most as long as it would wait for the row lock (DB_LOCK_TIMEOUT_MS), then answers 429.
 */
@Injectable()
export class MoneyCallLimits {
  readonly semaphore: KeyedSemaphore;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.semaphore = new KeyedSemaphore(config.moneyCallsPerCustomer, MAX_WAITING_PER_CUSTOMER, config.databaseTimeouts.lockMs || DEFAULT_MAX_WAIT_MS);
  }
}

/**
 * Runs the handler (and the interceptors after this one: the idempotency key's look-up and claim) under the caller's
 * permit. A permit refused, or a lock wait on the account past the lock timeout (SQLSTATE 55P03, else a 503 "busy"),
 * answers 429 with Retry-After: nothing changed, and an Idempotency-Key stays free for the retry (this interceptor is
 * outside the idempotency one, which stores 4xx answers).
 */
@Injectable()
export class MoneyCallLimitInterceptor implements NestInterceptor {
  constructor(private readonly limits: MoneyCallLimits) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const caller = context.switchToHttp().getRequest<AuthedRequest>().principal?.id;
    if (!caller) return next.handle();
    return from(this.limits.semaphore.acquire(caller)).pipe(
      catchError((error: unknown) => throwError(() => (error instanceof PermitRefused ? new AccountBusyError(TOO_MANY_MONEY_CALLS_MESSAGE) : error))),
      mergeMap((release) =>
        next.handle().pipe(
          finalize(release),
          catchError((error: unknown) => throwError(() => (lockWaitTimedOut(error) ? new AccountBusyError(ACCOUNT_BUSY_MESSAGE) : error))),
        ),
      ),
    );
  }
}

/** lock_not_available: a statement waited on a row lock longer than lock_timeout. */
function lockWaitTimedOut(error: unknown): boolean {
  return sqlState(error) === '55P03';
}

/**
 * A customer's money call: limited per customer (MoneyCallLimitInterceptor) around the optional Idempotency-Key
 * (`Idempotent`), in that order.
 */
export function MoneyCall(): MethodDecorator {
  return applyDecorators(
    UseInterceptors(MoneyCallLimitInterceptor),
    Idempotent(),
    ApiTooManyRequestsResponse({
      description: `The customer's account is busy: too many of their money calls at once, or another payment holds it. Nothing changed; retry after Retry-After seconds.`,
    }),
  );
}
