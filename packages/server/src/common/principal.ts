import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { UnauthenticatedError } from './errors';

/** The signed-in account behind a request, set by the access guard. */
export interface Principal {
  id: string;
  role: 'user' | 'admin';
  name: string;
  email: string;
  /** The session (one per sign-in) the bearer token belongs to; '' when the caller is an API key. */
  sessionId: string;
  /** Set when the caller is an API key (`Bearer cp_…`) rather than a person's session. */
  apiKey?: { id: string; prefix: string; scopes: readonly string[] };
}

export type AuthedRequest = FastifyRequest & {
  principal?: Principal;
  requestId?: string;
  /** The public prefix of the API key the request sent, once read (for its log line, refused or not). */
  apiKeyPrefix?: string;
};

/** `@CurrentPrincipal()`: the caller; on an `optional` route it may be undefined. */
export const CurrentPrincipal = createParamDecorator((required: boolean | undefined, context: ExecutionContext): Principal | undefined => {
  const request = context.switchToHttp().getRequest<AuthedRequest>();
  if (!request.principal && required !== false) throw new UnauthenticatedError('Please sign in to continue.');
  return request.principal;
});

/** Who did it and under which request id: what the audit log needs. */
export interface Actor {
  id: string;
  role: 'user' | 'admin';
  requestId?: string;
  /** Set while a second admin applies a four-eyes approval: the action is theirs, requested by `requestedBy`. */
  approval?: { id: string; requestedBy: string };
  /** The API key the owner acted through (the audit log names it; its prefix is read from api_keys). */
  apiKeyId?: string;
}

/** The actor of what `principal` does in request `requestId` (the API key it used, if any, included). */
export function actorOf(principal: Principal, requestId: string | undefined): Actor {
  return { id: principal.id, role: principal.role, requestId, ...(principal.apiKey ? { apiKeyId: principal.apiKey.id } : {}) };
}

export const CurrentActor = createParamDecorator((_: unknown, context: ExecutionContext): Actor => {
  const request = context.switchToHttp().getRequest<AuthedRequest>();
  if (!request.principal) throw new UnauthenticatedError('Please sign in to continue.');
  return actorOf(request.principal, request.requestId);
});

/** Where a request comes from, as recorded on a session: the client address (TRUST_PROXY applies) and browser. */
export const CurrentClient = createParamDecorator((_: unknown, context: ExecutionContext): { ip: string | null; userAgent: string | null } => {
  const request = context.switchToHttp().getRequest<AuthedRequest>();
  const userAgent = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: typeof userAgent === 'string' && userAgent ? userAgent.slice(0, 500) : null };
});
