/**
 * Typed domain errors. Services throw these; the exception filter maps them to HTTP.
 * The message is shown to people (the client puts it in a toast), so write it for them.
 */
export abstract class DomainError extends Error {
  abstract readonly statusCode: number;
  constructor(
    message: string,
    readonly details?: Record<string, string[]>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidInputError extends DomainError {
  readonly statusCode = 400;
}
export class UnauthenticatedError extends DomainError {
  readonly statusCode = 401;
}
export class ForbiddenError extends DomainError {
  readonly statusCode = 403;
}
export class NotFoundError extends DomainError {
  readonly statusCode = 404;
}
export class ConflictError extends DomainError {
  readonly statusCode = 409;
}
export class PayloadTooLargeError extends DomainError {
  readonly statusCode = 413;
}
export class UnsupportedMediaError extends DomainError {
  readonly statusCode = 415;
}
export class UnprocessableError extends DomainError {
  readonly statusCode = 422;
}
export class TooManyRequestsError extends DomainError {
  readonly statusCode = 429;
  /** Seconds to wait before trying again, sent as `Retry-After` (none when undefined). */
  readonly retryAfterSeconds?: number;
}
/**
 * A money call that cannot start now because the same account is busy: the caller's own money calls in flight on this
 * instance are at their limit, or the account's row stayed locked past the lock timeout. Nothing changed; retry.
 */
export class AccountBusyError extends TooManyRequestsError {
  override readonly retryAfterSeconds = 1;
}
export class ServiceUnavailableError extends DomainError {
  readonly statusCode = 503;
}
/** The database connection was lost or could not be opened; nothing was acknowledged, a retry is safe. */
export class DatabaseUnavailableError extends ServiceUnavailableError {
  constructor(message = 'The service is temporarily unavailable. Please try again in a moment.') {
    super(message);
  }
}
/** A lock or statement timeout: the work was rolled back, nothing changed. */
export class DatabaseBusyError extends ServiceUnavailableError {
  constructor(message = 'The service is busy. Please try again.') {
    super(message);
  }
}
/** A stored error answer replayed for a repeated Idempotency-Key: sent as the exact bytes first sent. */
export class ReplayedResponseError extends DomainError {
  constructor(
    readonly statusCode: number,
    readonly rawBody: string,
  ) {
    super('Replayed response');
  }
}

/** 401 asking for the second factor: the body carries `twoFactorRequired: true` so the client shows the code step. */
export class TwoFactorRequiredError extends UnauthenticatedError {
  readonly twoFactorRequired = true;
}
