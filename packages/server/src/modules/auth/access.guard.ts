import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { TWO_FACTOR_SETUP_REQUIRED_MESSAGE } from '@coinpurse/contract';
import { ACCESS_KEY, type AccessLevel, BEFORE_TWO_FACTOR_KEY } from '../../common/access.decorator';
import { ForbiddenError, UnauthenticatedError } from '../../common/errors';
import type { AuthedRequest, Principal } from '../../common/principal';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { SessionsService } from '../security/sessions.service';
import { TokenService } from './token.service';

export const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';

/**
 * Global guard: reads the route's access level and the bearer token; the token's session must be live (checked through
 * SessionsService, cached for a few seconds and invalidated across instances on revocation).
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokenService,
    private readonly sessions: SessionsService,
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
    const session = await this.authenticateSession(token);
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
    return (await this.authenticateSession(token))?.principal;
  }

  private async authenticateSession(token: string): Promise<{ principal: Principal; twoFactorEnabled: boolean } | undefined> {
    const claims = this.tokens.verify(token);
    if (!claims) return undefined;
    const account = await this.sessions.account(claims.sid);
    if (!account || account.userId !== claims.sub || account.role !== claims.role) return undefined;
    return {
      principal: { id: account.userId, role: account.role, name: account.name, email: account.email, sessionId: account.sessionId },
      twoFactorEnabled: account.twoFactorEnabled,
    };
  }
}

export function bearerToken(request: { headers: Record<string, string | string[] | undefined> }): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1];
}
