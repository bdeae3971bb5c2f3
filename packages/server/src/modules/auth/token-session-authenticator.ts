import { Injectable } from '@nestjs/common';
import type { AuthenticatedSession, SessionAuthenticator } from '../../common/access.guard';
import { SessionsService } from '../security/sessions.service';
import { TokenService } from './token.service';

/** A bearer token is a signed JWT whose session (`sid`) is live and still belongs to the same account and role. */
@Injectable()
export class TokenSessionAuthenticator implements SessionAuthenticator {
  constructor(
    private readonly tokens: TokenService,
    private readonly sessions: SessionsService,
  ) {}

  async authenticateSession(token: string): Promise<AuthenticatedSession | undefined> {
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
