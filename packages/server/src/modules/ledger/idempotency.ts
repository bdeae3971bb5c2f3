import {
  applyDecorators,
  CallHandler,
  createParamDecorator,
  ExecutionContext,
  HttpStatus,
  Inject,
  Injectable,
  type NestInterceptor,
  RequestMethod,
  UseInterceptors,
} from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { Interval } from '@nestjs/schedule';
import { ApiConflictResponse, ApiHeader, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { IDEMPOTENCY_KEY_HEADER } from '@coinpurse/contract';
import { and, eq, lt, sql, type SQL } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { ConflictError, DomainError, InvalidInputError, UnprocessableError } from '../../common/errors';
import type { AuthedRequest } from '../../common/principal';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { idempotencyKeys } from '../../db/schema';

/** Keys are kept at least this long (then purged). */
export const IDEMPOTENCY_RETENTION_HOURS = 48;
/** An in-flight claim older than this belongs to a request that died; a retry may take it over. */
const ABANDONED_AFTER_MS = 5 * 60_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** What a handler needs to store its response atomically with its effect. */
export interface IdempotencyContext {
  scope: string;
  key: string;
  status: number;
}

type IdempotentRequest = AuthedRequest & { idempotency?: IdempotencyContext };

/** A stored error response, replayed as it was first sent. */
class ReplayedError extends DomainError {
  constructor(
    readonly statusCode: number,
    message: string,
    details?: Record<string, string[]>,
  ) {
    super(message, details);
  }
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

@Injectable()
export class IdempotencyService {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** Claims the key, or tells what to do: replay a stored response, 409 while in flight, 422 on another request. */
  async claim(scope: string, key: string, hash: string): Promise<{ replay?: { status: number; body: unknown } }> {
    const inserted = await this.db
      .insert(idempotencyKeys)
      .values({ scope, key, requestHash: hash, state: 'in_flight' })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length) return {};
    const [row] = await this.db
      .select({
        requestHash: idempotencyKeys.requestHash,
        state: idempotencyKeys.state,
        status: idempotencyKeys.responseStatus,
        body: idempotencyKeys.responseBody,
        createdAt: idempotencyKeys.createdAt,
      })
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
    if (!row) return this.claim(scope, key, hash); // purged meanwhile
    if (row.requestHash !== hash)
      throw new UnprocessableError('This Idempotency-Key was already used with a different request. Use a new key for a new request.');
    if (row.state === 'done') return { replay: { status: row.status ?? 200, body: row.body } };
    if (Date.now() - row.createdAt.getTime() > ABANDONED_AFTER_MS) {
      const taken = await this.db
        .update(idempotencyKeys)
        .set({ createdAt: new Date() })
        .where(
          and(
            eq(idempotencyKeys.scope, scope),
            eq(idempotencyKeys.key, key),
            eq(idempotencyKeys.state, 'in_flight'),
            eq(idempotencyKeys.createdAt, row.createdAt),
          ),
        )
        .returning({ key: idempotencyKeys.key });
      if (taken.length) return {};
    }
    throw new ConflictError('A request with this Idempotency-Key is still being processed. Try again in a moment.');
  }

  /** Stores the response; pass the transaction of the effect so both commit together. */
  async complete(context: IdempotencyContext | undefined, status: number, body: unknown, executor: Executor = this.db): Promise<void> {
    if (!context) return;
    await executor
      .update(idempotencyKeys)
      .set({ state: 'done', responseStatus: status, responseBody: body as object })
      .where(and(eq(idempotencyKeys.scope, context.scope), eq(idempotencyKeys.key, context.key), eq(idempotencyKeys.state, 'in_flight')));
  }

  /** The same as `complete`, as a statement to run inside a single-statement posting. */
  completeStatement(context: IdempotencyContext | undefined, status: number, body: unknown): SQL | undefined {
    if (!context) return undefined;
    return sql`update idempotency_keys set state = 'done', response_status = ${status}, response_body = ${JSON.stringify(body)}::jsonb
      where scope = ${context.scope} and key = ${context.key} and state = 'in_flight'`;
  }

  /** Frees the key after a failure that changed nothing and may be retried (5xx). */
  async release(context: IdempotencyContext): Promise<void> {
    await this.db
      .delete(idempotencyKeys)
      .where(and(eq(idempotencyKeys.scope, context.scope), eq(idempotencyKeys.key, context.key), eq(idempotencyKeys.state, 'in_flight')));
  }

  @Interval(3_600_000)
  async purge(): Promise<void> {
    try {
      await this.db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, sql`now() - make_interval(hours => ${IDEMPOTENCY_RETENTION_HOURS})`));
    } catch {
      // Best effort: the next run tries again.
    }
  }
}

/**
 * `Idempotency-Key` (optional) the Stripe/IETF way: same key and body → the first response replayed (header
 * `Idempotent-Replayed: true`); same key, other body → 422; while the first is in flight → 409. Keys are scoped per
 * caller and route. Successful responses are stored in the same database transaction as their effect; 4xx answers are
 * stored too; 5xx answers free the key for a retry.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly idempotency: IdempotencyService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return from(this.run(context, next));
  }

  private async run(context: ExecutionContext, next: CallHandler): Promise<unknown> {
    const request = context.switchToHttp().getRequest<IdempotentRequest>();
    const response = context.switchToHttp().getResponse<import('express').Response>();
    const key = request.header(IDEMPOTENCY_KEY_HEADER);
    if (key === undefined) return lastValueFrom(next.handle(), { defaultValue: undefined });
    if (!KEY_PATTERN.test(key)) throw new InvalidInputError('The Idempotency-Key header must be 1 to 255 visible characters.');

    const handler = context.getHandler();
    const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod;
    const status =
      (Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined) ?? (method === RequestMethod.POST ? HttpStatus.CREATED : HttpStatus.OK);
    const route = `${request.method} ${(request.route as { path?: string } | undefined)?.path ?? request.path}`;
    const scope = `${request.principal?.id ?? 'anonymous'} ${route}`;
    const hash = createHash('sha256')
      .update(JSON.stringify(canonical({ params: request.params ?? {}, body: request.body ?? null })))
      .digest('hex');

    const claimed = await this.idempotency.claim(scope, key, hash);
    if (claimed.replay) {
      response.setHeader('Idempotent-Replayed', 'true');
      const { status: storedStatus, body } = claimed.replay;
      if (storedStatus >= 400) {
        const error = body as { error?: string; details?: Record<string, string[]> };
        throw new ReplayedError(storedStatus, error?.error ?? 'The request could not be completed.', error?.details);
      }
      return body;
    }

    const idempotency: IdempotencyContext = { scope, key, status };
    request.idempotency = idempotency;
    try {
      const body = await lastValueFrom(next.handle(), { defaultValue: undefined });
      await this.idempotency.complete(idempotency, status, body ?? null);
      return body;
    } catch (error) {
      if (error instanceof DomainError && error.statusCode < 500) {
        await this.idempotency.complete(idempotency, error.statusCode, {
          statusCode: error.statusCode,
          error: error.message,
          ...(error.details ? { details: error.details } : {}),
        });
      } else {
        await this.idempotency.release(idempotency).catch(() => undefined);
      }
      throw error;
    }
  }
}

/** The idempotency context of this request (undefined without an Idempotency-Key header). */
export const IdempotencyCtx = createParamDecorator(
  (_: unknown, context: ExecutionContext): IdempotencyContext | undefined => context.switchToHttp().getRequest<IdempotentRequest>().idempotency,
);

/** Route decorator: accepts an optional Idempotency-Key header. */
export function Idempotent(): MethodDecorator {
  return applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: IDEMPOTENCY_KEY_HEADER,
      required: false,
      description:
        'Optional, 1–255 visible characters, scoped to the caller and route, kept at least 24 h. Same key and body: the first response is replayed (header Idempotent-Replayed: true). Same key, other body: 422. While the first request is in flight: 409.',
    }),
    ApiConflictResponse({ description: 'A request with this Idempotency-Key is still in flight, or the state does not allow the change.' }),
    ApiUnprocessableEntityResponse({ description: 'This Idempotency-Key was used with a different request.' }),
  );
}
