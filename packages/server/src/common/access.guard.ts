import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { API_KEY_PREFIX, TWO_FACTOR_SETUP_REQUIRED_MESSAGE } from '@coinpurse/contract';
import type { FastifyReply } from 'fastify';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { ACCESS_KEY, type AccessLevel, BEFORE_TWO_FACTOR_KEY, type RouteScope, SCOPE_KEY } from './access.decorator';
import { ForbiddenError, UnauthenticatedError } from './errors';
import type { AuthedRequest, Principal } from './principal';

export const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';

/** A bearer token's live session: who it is, and whether their account has two-factor sign-in. */
export interface AuthenticatedSession {
  principal: Principal;
  twoFactorEnabled: boolean;
}

/**
 * Turns a bearer token into its live session, or undefined (bad or expired token, revoked session, changed account).
 * The port the guard asks through; the auth module binds it (tokens and sessions). A Nest injection token as well.
 */
export abstract class SessionAuthenticator {
  abstract authenticateSession(token: string): Promise<AuthenticatedSession | undefined>;
}

/**
 * Turns an API key (`Bearer cp_…`) into its owner's session for a route needing `scope`, or throws: 401 (unknown,
 * expired or revoked key), 403 (an address it does not allow, a scope it lacks, a route keys may not call), 429 (its
 * rate limit; the RateLimit headers are set on `reply` either way). The api-keys module binds it.
 */
export abstract class ApiKeyAuthenticator {
  abstract authenticateKey(key: string, scope: RouteScope, request: AuthedRequest, reply: FastifyReply): Promise<AuthenticatedSession>;
  /** The key's owner while the key is live (no scope, address or rate check): for streams that outlive a request. */
  abstract liveKeyOwner(key: string): Promise<Principal | undefined>;
}

/**
 * Global guard: reads the route's access level and the bearer token; the token's session must be live (checked through
 * the SessionAuthenticator: cached for a few seconds and invalidated across instances on revocation). An API key is
 * checked by the ApiKeyAuthenticator against the route's declared scope.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionAuthenticator,
    private readonly keys: ApiKeyAuthenticator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    const level = this.reflector.getAllAndOverride<AccessLevel | undefined>(ACCESS_KEY, targets);
    // A route without a declared access level is a programming error: refuse rather than expose it.
    if (!level) throw new ForbiddenError('This route is not available.');
    if (level === 'public') return true;

    const request = context.switchToHttp().getRequest<AuthedRequest>();
    const token = bearerToken(request);
    if (!token) {
      if (level === 'optional') return true;
      throw new UnauthenticatedError('Please sign in to continue.');
    }
    const session = token.startsWith(API_KEY_PREFIX)
      ? await this.keys.authenticateKey(
          token,
          this.reflector.getAllAndOverride<RouteScope | undefined>(SCOPE_KEY, targets) ?? 'session-only',
          request,
          context.switchToHttp().getResponse<FastifyReply>(),
        )
      : await this.sessions.authenticateSession(token);
    if (!session) {
      if (level === 'optional') return true;
      throw new UnauthenticatedError(SESSION_EXPIRED);
    }
    const { principal, twoFactorEnabled } = session;
    request.principal = principal;
    if (level === 'admin' && principal.role !== 'admin') throw new ForbiddenError('Administrators only.');
    if (level === 'user' && principal.role !== 'user') throw new ForbiddenError('This is for customer accounts.');
    if (
      level === 'admin' &&
      this.config.adminRequire2fa &&
      !twoFactorEnabled &&
      !this.reflector.getAllAndOverride<boolean | undefined>(BEFORE_TWO_FACTOR_KEY, targets)
    ) {
      throw new ForbiddenError(TWO_FACTOR_SETUP_REQUIRED_MESSAGE);
    }
    return true;
  }

  async authenticate(token: string): Promise<Principal | undefined> {
    if (token.startsWith(API_KEY_PREFIX)) return this.keys.liveKeyOwner(token);
    return (await this.sessions.authenticateSession(token))?.principal;
  }
}

export function bearerToken(request: { headers: Record<string, string | string[] | undefined> }): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1];
}
