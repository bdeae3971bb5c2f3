import { type INestApplication, RequestMethod } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, GUARDS_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, getSchemaPath, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ErrorResponseDto } from '@coinpurse/contract';
import { OPERATION_SUMMARIES } from './openapi-summaries';

/** The OpenAPI document of the whole API; operation ids are the handler names, so they must be unique. */
export function buildOpenApiDocument(app: INestApplication, options: { strict?: boolean } = {}): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Coinpurse API')
    .setDescription(
      'Custodial wallet and exchange API. Every error is `{ statusCode, error }` where `error` is a message for people. ' +
        'Send the session token, or an API key (`cp_…`), as `Authorization: Bearer <token>`; the scope a key needs for an ' +
        'operation is its `x-api-key-scope` (`session-only`: no key). Money amounts are exact decimals. ' +
        'The integration guide — authentication and the second factor, API keys and scopes, idempotency keys, errors, pagination, ' +
        'rate limits, live events, signed webhooks and the typed SDK — is `docs/integrate/` in the Coinpurse repository.',
    )
    .setVersion('1.0.0')
    .addServer('/')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT session token or cp_ API key' })
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controllerKey, methodKey) => methodKey,
    extraModels: [ErrorResponseDto],
  });
  const handlers = handlersByOperationId(app);
  completeDocument(document, handlers);
  checkDocument(document, handlers, options.strict ?? false);
  return document;
}

type Operation = {
  operationId?: string;
  summary?: string;
  'x-access'?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: unknown;
  responses: Record<string, { description?: string; content?: unknown; headers?: Record<string, Record<string, unknown>> }>;
};

interface Handler {
  method: number;
  httpCode: number | undefined;
  throttled: boolean;
}

const ERROR_CONTENT = { 'application/json': { schema: { $ref: getSchemaPath(ErrorResponseDto) } } };

function* operations(document: OpenAPIObject): Generator<[string, Operation]> {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
      if (operation && typeof operation === 'object' && 'responses' in operation) yield [`${method.toUpperCase()} ${path}`, operation];
    }
  }
}

/**
 * What every operation gets centrally, so controllers stay thin and routes added later are covered too:
 * - its summary from OPERATION_SUMMARIES;
 * - `security: []` when public, bearer-or-nothing when the session is optional;
 * - the validation 400 when it takes a body, query parameters or headers; 429 when a throttler guards it;
 * - `ErrorResponseDto` as the body of every error response;
 * - response headers without the `name`/`in` fields that only parameters may have.
 */
function completeDocument(document: OpenAPIObject, handlers: Map<string, Handler>): void {
  for (const [, operation] of operations(document)) {
    const id = operation.operationId ?? '';
    if (!operation.summary && OPERATION_SUMMARIES[id]) operation.summary = OPERATION_SUMMARIES[id];
    if (operation['x-access'] === 'public' && !operation.security) operation.security = [];
    if (operation['x-access'] === 'optional') operation.security = [{ bearer: [] }, {}];

    const takesInput = Boolean(operation.requestBody) || (operation.parameters ?? []).some((p) => p.in === 'query' || p.in === 'header');
    if (takesInput && !operation.responses['400']) {
      operation.responses['400'] = { description: 'The input is not valid; `error` says what to fix (and `details` per field).' };
    }
    if (handlers.get(id)?.throttled && !operation.responses['429']) {
      operation.responses['429'] = { description: 'Too many attempts from this address or for this account; wait as long as the Retry-After header says.' };
    }
    for (const [status, response] of Object.entries(operation.responses)) {
      if (/^[45]\d\d$/.test(status) && !response.content) {
        response.content = ERROR_CONTENT;
      }
      for (const header of Object.values(response.headers ?? {})) {
        delete header.name;
        delete header.in;
      }
    }
  }
}

/** Nest's metadata of every route handler, by operation id (= handler name): its real status and guards. */
function handlersByOperationId(app: INestApplication): Map<string, Handler> {
  const handlers = new Map<string, Handler>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const prototype = (wrapper.metatype as { prototype?: Record<string, unknown> } | null)?.prototype;
      if (!prototype) continue;
      const classGuards: unknown[] = Reflect.getMetadata(GUARDS_METADATA, wrapper.metatype as object) ?? [];
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as number | undefined;
        if (method === undefined) continue;
        const guards: unknown[] = [...classGuards, ...(Reflect.getMetadata(GUARDS_METADATA, handler) ?? [])];
        handlers.set(name, {
          method,
          httpCode: Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined,
          throttled: guards.some((guard) => typeof guard === 'function' && /Throttler|RateLimit/.test(guard.name)),
        });
      }
    }
  }
  return handlers;
}

/**
 * Every operation declares its access level, and operation ids are unique (they become client hook names).
 * Strict (contract generation): every operation has a summary and documents the success status it really answers.
 */
function checkDocument(document: OpenAPIObject, handlers: Map<string, Handler>, strict: boolean): void {
  const seen = new Map<string, string>();
  const problems: string[] = [];
  for (const [where, operation] of operations(document)) {
    if (!operation['x-access']) problems.push(`${where} declares no access level (use PublicAccess/UserAccess/AdminAccess...)`);
    const id = operation.operationId ?? '';
    if (seen.has(id)) problems.push(`${where} and ${seen.get(id)} share the operation id "${id}" (rename a handler)`);
    seen.set(id, where);
    if (!strict) continue;
    if (!operation.summary) problems.push(`${where} (${id}) has no summary: add one to OPERATION_SUMMARIES in src/openapi-summaries.ts`);
    const handler = handlers.get(id);
    if (handler) {
      const status = String(handler.httpCode ?? (handler.method === RequestMethod.POST ? 201 : 200));
      const documented = Object.keys(operation.responses).filter((s) => /^2\d\d$/.test(s));
      if (!documented.includes(status)) {
        problems.push(`${where} (${id}) answers ${status} but documents ${documented.join(', ') || 'no success'} (fix @HttpCode or the Api*Response)`);
      }
    }
  }
  if (problems.length) throw new Error(`OpenAPI document problems:\n${problems.join('\n')}`);
}
