import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { LRUCache } from 'lru-cache';
import { createSecretKey, type KeyObject } from 'node:crypto';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config';
import { UUID_TEXT } from '../../common/page-cursor';

export interface TokenClaims {
  sub: string;
  role: 'user' | 'admin';
  /** The session id: the token is accepted while that session is live. */
  sid: string;
  iat: number;
  exp: number;
}

/** Tokens remembered as verified (about 1 KB each at most). */
const VERIFIED_TOKENS = 10_000;

/** Issues and checks session JWTs: HS256 only, so `alg: none` and RS/HS confusion are refused. */
@Injectable()
export class TokenService {
  /** The secret as a KeyObject made once: given a string, jsonwebtoken re-parses it (createPublicKey, then createSecretKey) on every verify. */
  private readonly verifyKey: KeyObject;
  /**
   * Tokens already verified, by their whole text (signature included): the HMAC and the JSON parsing are done once per
   * token, not once per request. A remembered token is still refused from its expiry on; whether its session is live
   * is the access guard's question, asked on every request.
   */
  private readonly verified = new LRUCache<string, TokenClaims>({ max: VERIFIED_TOKENS });

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
    const known = this.verified.get(token);
    // jsonwebtoken's own rule: expired from the second `exp` names on.
    if (known) return Math.floor(Date.now() / 1000) < known.exp ? known : undefined;
    try {
      const claims = this.jwt.verify<TokenClaims>(token, { algorithms: ['HS256'], secret: this.verifyKey as unknown as Buffer });
      if (
        typeof claims.sub !== 'string' ||
        (claims.role !== 'user' && claims.role !== 'admin') ||
        typeof claims.sid !== 'string' ||
        !UUID_TEXT.test(claims.sid)
      )
        return undefined;
      if (typeof claims.exp === 'number') this.verified.set(token, claims);
      return claims;
    } catch {
      return undefined;
    }
  }
}
