import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { databaseFaultOf } from './database-errors';
import { DomainError, ReplayedResponseError, TooManyRequestsError, TwoFactorRequiredError } from './errors';

export interface ErrorBody {
  statusCode: number;
  error: string;
  details?: Record<string, string[]>;
  /** Set on a 401 that asks for the two-factor code. */
  twoFactorRequired?: true;
}

const DEFAULT_MESSAGES: Record<number, string> = {
  400: 'The request is not valid.',
  401: 'Please sign in to continue.',
  403: 'You do not have access to this.',
  404: 'Not found.',
  405: 'This method is not allowed here.',
  409: 'This conflicts with the current state.',
  413: 'The upload is too large.',
  415: 'This file type is not supported.',
  422: 'The request cannot be processed.',
  429: 'Too many attempts. Please wait a minute and try again.',
  503: 'The service is temporarily unavailable. Please try again shortly.',
};

/** One place that turns every error into `{ statusCode, error }`; nothing internal leaks from a 500. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const reply = ctx.getResponse<FastifyReply>();
    const request = ctx.getRequest<FastifyRequest>();
    if (exception instanceof ReplayedResponseError) {
      if (!reply.sent) reply.status(exception.statusCode).type('application/json; charset=utf-8').send(exception.rawBody);
      return;
    }
    const body = this.toBody(exception, request);
    if (reply.sent || reply.raw.headersSent) return;
    // Database faults and timeouts are retryable; so is a busy account (429).
    if (body.statusCode === 503) reply.header('Retry-After', '1');
    else if (exception instanceof TooManyRequestsError && exception.retryAfterSeconds) reply.header('Retry-After', String(exception.retryAfterSeconds));
    reply.status(body.statusCode).send(body);
  }

  toBody(exception: unknown, request?: FastifyRequest): ErrorBody {
    if (exception instanceof DomainError) {
      return {
        statusCode: exception.statusCode,
        error: exception.message,
        ...(exception.details ? { details: exception.details } : {}),
        ...(exception instanceof TwoFactorRequiredError ? { twoFactorRequired: true as const } : {}),
      };
    }
    if (exception instanceof HttpException) {
      const statusCode = exception.getStatus();
      if (statusCode >= 500) return this.internal(exception, request);
      const friendly = bodyParserMessage(exception.cause);
      if (friendly) return { statusCode, error: friendly };
      const response = exception.getResponse();
      return { statusCode, error: messageOf(response) ?? DEFAULT_MESSAGES[statusCode] ?? 'The request could not be completed.', ...detailsOf(response) };
    }
    // Fastify's own errors (body parsing, media type, ...) carry a status of their own.
    const status = (exception as { status?: unknown; statusCode?: unknown })?.status ?? (exception as { statusCode?: unknown })?.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return { statusCode: status, error: bodyParserMessage(exception) ?? DEFAULT_MESSAGES[status] ?? 'The request could not be completed.' };
    }
    // A dropped connection or a lock/statement timeout: 503 with a retryable message (the work was rolled back or,
    // for a connection lost during COMMIT, may have committed: money calls with an Idempotency-Key replay then).
    const fault = databaseFaultOf(exception);
    if (fault) {
      this.logger.warn(`${request?.method ?? ''} ${request?.url ?? ''}: ${fault.constructor.name} (${describeCause(exception)})`);
      return { statusCode: fault.statusCode, error: fault.message };
    }
    // Safety net: a PostgreSQL "data exception" (class 22: value too long, out of range, bad text) is bad input
    // that validation should have caught; answer 400 rather than 500, and log it so the validation gets fixed.
    const sqlState = postgresErrorCode(exception);
    // The payouts trigger (migration 0011): a withdrawal whose payment is signed keeps its status.
    if (sqlState === PAYOUT_SIGNED_STATE) {
      return { statusCode: 409, error: 'This withdrawal is being paid on the chain, so its status can no longer change.' };
    }
    if (sqlState?.startsWith('22')) {
      this.logger.warn(`${request?.method ?? ''} ${request?.url ?? ''}: database refused a value (SQLSTATE ${sqlState})`);
      return { statusCode: 400, error: 'The request contains a value that is not allowed.' };
    }
    return this.internal(exception, request);
  }

  private internal(exception: unknown, request?: FastifyRequest): ErrorBody {
    this.logger.error(`${request?.method ?? ''} ${request?.url ?? ''} failed`, exception instanceof Error ? exception.stack : String(exception));
    return { statusCode: HttpStatus.INTERNAL_SERVER_ERROR, error: 'Something went wrong on our side. Please try again.' };
  }
}

/** SQLSTATE raised by the payouts trigger when a signed withdrawal's status or void would change. */
const PAYOUT_SIGNED_STATE = 'CP011';

function describeCause(error: unknown): string {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; current = (current as { cause?: unknown }).cause, depth++) {
    if (!(current as { cause?: unknown }).cause) return `${(current as { code?: string }).code ?? ''} ${(current as Error).message ?? ''}`.trim();
  }
  return String(error);
}

function postgresErrorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; current = (current as { cause?: unknown }).cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** Fastify's errors about the request itself carry technical messages; people get these instead. */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body does not match its Content-Length.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Send the request body as JSON (Content-Type: application/json).',
  FST_ERR_CTP_INVALID_TYPE: 'Send the request body as JSON (Content-Type: application/json).',
  FST_ERR_BAD_URL: 'The address is not valid.',
  FST_ERR_ASYNC_CONSTRAINT: 'The address is not valid.',
};

function bodyParserMessage(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && FRAMEWORK_MESSAGES[code]) return FRAMEWORK_MESSAGES[code];
  if (error instanceof SyntaxError) return 'The request body is not valid JSON.';
  if (error instanceof URIError) return 'The address is not valid.';
  return undefined;
}

function messageOf(response: string | object): string | undefined {
  if (typeof response === 'string') return response;
  const { error, message } = response as { error?: unknown; message?: unknown };
  if (typeof message === 'string') return message;
  if (Array.isArray(message) && message.length) return String(message[0]);
  if (typeof error === 'string') return error;
  return undefined;
}

function detailsOf(response: string | object): { details?: Record<string, string[]> } {
  if (typeof response === 'object' && response && 'details' in response) {
    return { details: (response as { details: Record<string, string[]> }).details };
  }
  return {};
}
