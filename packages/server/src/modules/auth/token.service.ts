import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { createSecretKey, type KeyObject } from 'node:crypto';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config';

export interface TokenClaims {
  sub: string;
  role: 'user' | 'admin';
  /** The session id: the token is accepted while that session is live. */
  sid: string;
  iat: number;
  exp: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Issues and checks session JWTs: HS256 only, so `alg: none` and RS/HS confusion are refused. */
@Injectable()
export class TokenService {
  /** The secret as a KeyObject made once: given a string, jsonwebtoken re-parses it (createPublicKey, then createSecretKey) on every verify. */
  private readonly verifyKey: KeyObject;

  constructor(
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.verifyKey = createSecretKey(Buffer.from(config.jwtSecret, 'utf8'));
  }

  issue(user: { id: string; role: 'user' | 'admin' }, sessionId: string): string {
    return this.jwt.sign(
      { role: user.role, sid: sessionId },
      { subject: user.id, algorithm: 'HS256', expiresIn: this.config.jwtTtlSeconds, secret: this.config.jwtSecret },
    );
  }

  /** Undefined for anything that is not a valid, unexpired HS256 token of ours. */
  verify(token: string): TokenClaims | undefined {
    try {
      const claims = this.jwt.verify<TokenClaims>(token, { algorithms: ['HS256'], secret: this.verifyKey as unknown as Buffer });
      if (typeof claims.sub !== 'string' || (claims.role !== 'user' && claims.role !== 'admin') || typeof claims.sid !== 'string' || !UUID.test(claims.sid))
        return undefined;
      return claims;
    } catch {
      return undefined;
    }
  }
}
