import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ACCESS_KEY, type AccessLevel } from '../../common/access.decorator';
import { ForbiddenError, UnauthenticatedError } from '../../common/errors';
import type { AuthedRequest, Principal } from '../../common/principal';
import { TokenService } from './token.service';
import { UsersRepository } from './users.repository';

export const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';

/** Global guard: reads the route's access level and the bearer token; checks revocation against the database. */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokenService,
    private readonly users: UsersRepository,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const level = this.reflector.getAllAndOverride<AccessLevel | undefined>(ACCESS_KEY, [context.getHandler(), context.getClass()]);
    // A route without a declared access level is a programming error: refuse rather than expose it.
    if (!level) throw new ForbiddenError('This route is not available.');
    if (level === 'public') return true;

    const request = context.switchToHttp().getRequest<AuthedRequest>();
    const token = bearerToken(request);
    if (!token) {
      if (level === 'optional') return true;
      throw new UnauthenticatedError('Please sign in to continue.');
    }
    const principal = await this.authenticate(token);
    if (!principal) {
      if (level === 'optional') return true;
      throw new UnauthenticatedError(SESSION_EXPIRED);
    }
    request.principal = principal;
    if (level === 'admin' && principal.role !== 'admin') throw new ForbiddenError('Administrators only.');
    if (level === 'user' && principal.role !== 'user') throw new ForbiddenError('This is for customer accounts.');
    return true;
  }

  async authenticate(token: string): Promise<Principal | undefined> {
    const claims = this.tokens.verify(token);
    if (!claims) return undefined;
    const user = await this.users.findById(claims.sub);
    if (!user || user.deactivatedAt || user.tokenVersion !== claims.ver || user.role !== claims.role) return undefined;
    return { id: user.id, role: user.role, name: user.name, email: user.email, tokenVersion: user.tokenVersion };
  }
}

export function bearerToken(request: { headers: Record<string, string | string[] | undefined> }): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1];
}
