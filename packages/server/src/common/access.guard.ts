import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { TWO_FACTOR_SETUP_REQUIRED_MESSAGE } from '@coinpurse/contract';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { ACCESS_KEY, type AccessLevel, BEFORE_TWO_FACTOR_KEY } from './access.decorator';
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
 * Global guard: reads the route's access level and the bearer token; the token's session must be live (checked through
 * the SessionAuthenticator: cached for a few seconds and invalidated across instances on revocation).
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionAuthenticator,
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
    const session = await this.sessions.authenticateSession(token);
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
    return (await this.sessions.authenticateSession(token))?.principal;
  }
}

export function bearerToken(request: { headers: Record<string, string | string[] | undefined> }): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1];
}
