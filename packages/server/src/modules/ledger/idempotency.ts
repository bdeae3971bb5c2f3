import {
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  applyDecorators,
  CallHandler,
  createParamDecorator,
  ExecutionContext,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  type NestInterceptor,
  RequestMethod,
  UseInterceptors,
} from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { ApiConflictResponse, ApiHeader, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { IDEMPOTENCY_KEY_HEADER } from '@coinpurse/contract';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { createHash } from 'node:crypto';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { ConflictError, DomainError, InvalidInputError, ReplayedResponseError, UnprocessableError } from '../../common/errors';
import type { AuthedRequest } from '../../common/principal';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { DATABASE, type Database, type Executor, type Tx } from '../../db/database';
import { idempotencyKeys } from '../../db/schema';
import { sqlState } from '../../db/in-transaction';
import { ScheduledJob } from '../../jobs/scheduled-job';
import { MONEY_CODES, moneyRefusalOf } from './money-errors';

/** Keys are kept at least this long (then purged). */
export const IDEMPOTENCY_RETENTION_HOURS = 48;
/**
 * Claims are no longer committed on their own (they live and die with the effect's transaction); an `in_flight` row
 * can only come from an older version. Such a row is taken over after this long.
 */
const LEGACY_ABANDONED_AFTER_MS = 5 * 60_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Node's name of the header (lower case). */
const IDEMPOTENCY_KEY_HEADER_NAME = IDEMPOTENCY_KEY_HEADER.toLowerCase();
/** What a stored answer is sent as (Express's `type('application/json')` spelled out). */
const JSON_TYPE = 'application/json; charset=utf-8';
/** Deeper bodies are refused before they get here (JSON shape limits); this bounds the canonicaliser on its own too. */
const MAX_CANONICAL_DEPTH = 64;
const IN_FLIGHT_MESSAGE = 'A request with this Idempotency-Key is still being processed. Try again in a moment.';
const REUSED_MESSAGE = 'This Idempotency-Key was already used with a different request. Use a new key for a new request.';

/** An Idempotency-Key as `cp_claim_key` takes it. */
export interface KeyClaim {
  scope: string;
  key: string;
  requestHash: string;
  status: number;
  /** The exact bytes of the answer, replayed as they are. */
  body: string;
}

/** What a handler needs to claim its key and store its response atomically with its effect. */
export interface IdempotencyContext {
  scope: string;
  key: string;
  status: number;
  requestHash: string;
  /** The exact response bytes, once stored in the effect's transaction (the interceptor sends these). */
  storedBody?: string;
}

type IdempotentRequest = AuthedRequest & { idempotency?: IdempotencyContext };

interface StoredKey {
  requestHash: string;
  state: 'in_flight' | 'done';
  status: number | null;
  body: string | null;
  createdAt: Date;
}

/** Thrown inside the effect's transaction when the key turns out to be taken: it rolls back, the interceptor replays. */
class KeyAlreadyUsed extends Error {
  constructor(readonly stored: StoredKey) {
    super('Idempotency-Key already used');
  }
}

/** The duplicate waited longer than the lock timeout for the first request to finish. Not stored. */
class KeyInFlightError extends ConflictError {}

function canonical(value: unknown, depth = 0): unknown {
  if (depth > MAX_CANONICAL_DEPTH) throw new InvalidInputError('The request body is nested too deeply.');
  if (Array.isArray(value)) return value.map((item) => canonical(item, depth + 1));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k], depth + 1)]),
    );
  }
  return value;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How often the keys past IDEMPOTENCY_RETENTION_HOURS are deleted. */
const PURGE_EVERY_MS = 3_600_000;

@Injectable()
export class IdempotencyService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Idempotency');
  /** Deletes old keys every hour (any instance: a delete of rows past their retention is safe to repeat). */
  private readonly purgeJob = new ScheduledJob<void>({
    name: 'Purging idempotency keys',
    logger: this.logger,
    everyMs: PURGE_EVERY_MS,
    work: () => this.deleteExpired(),
  });

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The committed record of a key, if any. */
  async find(scope: string, key: string, executor: Executor = this.db, lock = false): Promise<StoredKey | undefined> {
    const query = executor
      .select({
        requestHash: idempotencyKeys.requestHash,
        state: idempotencyKeys.state,
        status: idempotencyKeys.responseStatus,
        body: idempotencyKeys.responseBody,
        createdAt: idempotencyKeys.createdAt,
      })
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
    const [row] = lock ? await query.for('update') : await query;
    return row;
  }

  /**
   * Claims the key inside the effect's transaction: call it first in `tx`. The row is inserted uncommitted, so a
   * concurrent duplicate waits on the primary key until this transaction ends, then sees the committed response
   * (and replays it) or, after a rollback or a crash, claims the key itself at once.
   */
  async claim(context: IdempotencyContext | undefined, tx: Tx): Promise<void> {
    if (!context) return;
    let inserted: unknown[];
    try {
      inserted = await tx
        .insert(idempotencyKeys)
        .values({ scope: context.scope, key: context.key, requestHash: context.requestHash, state: 'in_flight' })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
    } catch (error) {
      if (sqlState(error) === '55P03') throw new KeyInFlightError(IN_FLIGHT_MESSAGE);
      throw error;
    }
    if (!inserted.length) {
      const stored = await this.find(context.scope, context.key, tx);
      if (!stored) throw new Error('Idempotency key vanished during claim'); // purged meanwhile: 500, retry works
      if (stored.state === 'done' || stored.requestHash !== context.requestHash) throw new KeyAlreadyUsed(stored);
      // A claim committed by an older version: taken over once it is clearly abandoned, by one retry only (the row
      // lock makes a concurrent take-over wait, then see that the row changed).
      if (Date.now() - stored.createdAt.getTime() <= LEGACY_ABANDONED_AFTER_MS) throw new KeyInFlightError(IN_FLIGHT_MESSAGE);
      const locked = await this.find(context.scope, context.key, tx, true);
      if (!locked) throw new Error('Idempotency key vanished during claim');
      if (locked.state === 'done' || locked.requestHash !== context.requestHash) throw new KeyAlreadyUsed(locked);
      if (locked.createdAt.getTime() !== stored.createdAt.getTime()) throw new KeyInFlightError(IN_FLIGHT_MESSAGE);
      await tx
        .update(idempotencyKeys)
        .set({ createdAt: new Date() })
        .where(and(eq(idempotencyKeys.scope, context.scope), eq(idempotencyKeys.key, context.key)));
    }
    if (this.config.testPauseAfterIdempotencyClaimMs) {
      this.logger.warn(`TEST HOOK: paused after claiming Idempotency-Key ${context.key}`);
      await sleep(this.config.testPauseAfterIdempotencyClaimMs);
    }
  }

  /** Stores the response in the effect's transaction (after `claim`), as the exact bytes that will be sent. */
  async complete(context: IdempotencyContext | undefined, status: number, body: unknown, tx: Tx): Promise<void> {
    if (!context) return;
    const bytes = JSON.stringify(body ?? null);
    await tx
      .update(idempotencyKeys)
      .set({ state: 'done', responseStatus: status, responseBody: bytes })
      .where(and(eq(idempotencyKeys.scope, context.scope), eq(idempotencyKeys.key, context.key)));
    context.storedBody = bytes;
  }

  /**
   * The key as a money function claims it (`cp_claim_key`): already done, with the answer it will replay (undefined: the
   * request has no key).
   */
  keyFor(context: IdempotencyContext | undefined, status: number, body: unknown): KeyClaim | undefined {
    if (!context) return undefined;
    const bytes = JSON.stringify(body ?? null);
    context.storedBody = bytes;
    return { scope: context.scope, key: context.key, requestHash: context.requestHash, status, body: bytes };
  }

  /**
   * Runs a money call that claims `idem` (`cp_claim_key`): when a concurrent duplicate took the key first (CPK01), its
   * stored answer is replayed (or a different request refused) by the interceptor; when that claim rolled back
   * meanwhile, the call runs again.
   */
  async runClaiming<T>(idem: IdempotencyContext | undefined, call: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        if (!idem || moneyRefusalOf(error)?.code !== MONEY_CODES.keyTaken || attempt >= 3) throw error;
        const taken = await this.taken(idem);
        if (taken) throw taken;
      }
    }
  }

  /**
   * A money function found the key taken (a concurrent duplicate committed first): the stored answer is replayed (or a
   * different request refused) by the interceptor. Undefined: the key is free again (its claim rolled back, or was
   * purged): run the operation again.
   */
  async taken(context: IdempotencyContext): Promise<Error | undefined> {
    const stored = await this.find(context.scope, context.key);
    if (!stored) return undefined;
    // A claim committed on its own by an older version, clearly abandoned: removed, and the call runs again.
    if (stored.state === 'in_flight' && stored.requestHash === context.requestHash && Date.now() - stored.createdAt.getTime() > LEGACY_ABANDONED_AFTER_MS) {
      await this.db
        .delete(idempotencyKeys)
        .where(
          and(
            eq(idempotencyKeys.scope, context.scope),
            eq(idempotencyKeys.key, context.key),
            eq(idempotencyKeys.state, 'in_flight'),
            lt(idempotencyKeys.createdAt, new Date(Date.now() - LEGACY_ABANDONED_AFTER_MS)),
          ),
        );
      return undefined;
    }
    return new KeyAlreadyUsed(stored);
  }

  /**
   * Test hook (TEST_PAUSE_AFTER_IDEMPOTENCY_CLAIM_MS): a money call that claims a key then waits this long before its
   * commit, its claim uncommitted (see LedgerService.run's `beforeCommit`). Undefined: no pause (production).
   */
  pauseAfterClaim(context: IdempotencyContext | undefined): (() => Promise<void>) | undefined {
    const ms = this.config.testPauseAfterIdempotencyClaimMs;
    if (!context || !ms) return undefined;
    return async () => {
      this.logger.warn(`TEST HOOK: paused after claiming Idempotency-Key ${context.key}`);
      await sleep(ms);
    };
  }

  /**
   * Stores an outcome decided outside an effect transaction (a 4xx answer, which changed nothing). Returns the record
   * that won when another request stored one first.
   */
  async storeOutcome(context: IdempotencyContext, status: number, bytes: string): Promise<StoredKey | undefined> {
    const inserted = await this.db
      .insert(idempotencyKeys)
      .values({ scope: context.scope, key: context.key, requestHash: context.requestHash, state: 'done', responseStatus: status, responseBody: bytes })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length) return undefined;
    return this.find(context.scope, context.key);
  }

  onApplicationBootstrap(): void {
    this.purgeJob.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.purgeJob.close();
  }

  /** Deletes the keys past their retention now; a failure is logged, and the next run tries again. */
  async purge(): Promise<void> {
    await this.purgeJob.run();
  }

  private async deleteExpired(): Promise<void> {
    await this.db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, sql`now() - make_interval(hours => ${IDEMPOTENCY_RETENTION_HOURS})`));
  }
}

/**
 * `Idempotency-Key` (optional) the Stripe/IETF way: same key and body → the first response replayed byte for byte
 * (header `Idempotent-Replayed: true`); same key, other body → 422. Keys are scoped per caller and route. The key is
 * claimed and the response stored in the same database transaction as the effect, so a crash or a dropped connection
 * rolls the claim back with the effect and a retry proceeds at once; a concurrent duplicate waits for the first to
 * finish, then replays (409 only if it waited longer than the lock timeout). 4xx answers are stored too; 5xx answers
 * store nothing.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly idempotency: IdempotencyService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    // Node joins a header sent twice into one value (with ", "), which the pattern refuses.
    const key = context.switchToHttp().getRequest<IdempotentRequest>().headers[IDEMPOTENCY_KEY_HEADER_NAME] as string | undefined;
    // Without a key the handler's answer passes as it is (no detour through a promise).
    if (key === undefined) return next.handle();
    return from(this.run(context, next, key));
  }

  private async run(context: ExecutionContext, next: CallHandler, key: string): Promise<unknown> {
    const request = context.switchToHttp().getRequest<IdempotentRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    if (!KEY_PATTERN.test(key)) throw new InvalidInputError('The Idempotency-Key header must be 1 to 255 visible characters.');

    const handler = context.getHandler();
    const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod;
    const status =
      (Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined) ?? (method === RequestMethod.POST ? HttpStatus.CREATED : HttpStatus.OK);
    const route = `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`;
    const scope = `${request.principal?.id ?? 'anonymous'} ${route}`;
    const requestHash = createHash('sha256')
      .update(JSON.stringify(canonical({ params: request.params ?? {}, body: request.body ?? null })))
      .digest('hex');

    const existing = await this.idempotency.find(scope, key);
    if (existing?.state === 'done' || (existing && existing.requestHash !== requestHash)) return this.replay(existing, requestHash, reply);

    const idempotency: IdempotencyContext = { scope, key, status, requestHash };
    request.idempotency = idempotency;
    try {
      const body = await lastValueFrom(next.handle(), { defaultValue: undefined });
      let bytes = idempotency.storedBody;
      if (bytes === undefined) {
        // A handler that did not store its response in its own transaction: stored now (best effort, as before).
        bytes = JSON.stringify(body ?? null);
        const winner = await this.idempotency.storeOutcome(idempotency, status, bytes);
        if (winner) return this.replay(winner, requestHash, reply);
      }
      // The stored bytes are what is sent, so a replay is byte-identical.
      reply.type(JSON_TYPE);
      return bytes;
    } catch (error) {
      if (error instanceof KeyAlreadyUsed) return this.replay(error.stored, requestHash, reply);
      if (error instanceof DomainError && error.statusCode < 500 && !(error instanceof KeyInFlightError)) {
        // The same shape and key order as the exception filter sends.
        const bytes = JSON.stringify({ statusCode: error.statusCode, error: error.message, ...(error.details ? { details: error.details } : {}) });
        const winner = await this.idempotency.storeOutcome(idempotency, error.statusCode, bytes).catch(() => undefined);
        if (winner) return this.replay(winner, requestHash, reply);
      }
      throw error;
    }
  }

  private replay(stored: StoredKey, requestHash: string, reply: FastifyReply): string {
    if (stored.requestHash !== requestHash) throw new UnprocessableError(REUSED_MESSAGE);
    if (stored.state !== 'done') throw new KeyInFlightError(IN_FLIGHT_MESSAGE);
    reply.header('Idempotent-Replayed', 'true');
    const bytes = stored.body ?? 'null';
    const status = stored.status ?? 200;
    if (status >= 400) throw new ReplayedResponseError(status, bytes);
    reply.type(JSON_TYPE);
    return bytes;
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
        'Optional, 1–255 visible characters, scoped to the caller and route, kept at least 24 h. Same key and body: the first response is replayed (header Idempotent-Replayed: true). Same key, other body: 422. A concurrent duplicate waits for the first to finish and gets its response (409 if that takes longer than the lock timeout).',
    }),
    ApiConflictResponse({
      description: 'A request with this Idempotency-Key is still in flight after the lock timeout, or the state does not allow the change.',
    }),
    ApiUnprocessableEntityResponse({ description: 'This Idempotency-Key was used with a different request.' }),
  );
}
