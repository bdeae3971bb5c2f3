import { Inject, Injectable, Logger } from '@nestjs/common';
import { ACCOUNT_FROZEN_MESSAGE, ADMIN_KEY_SCOPES, CUSTOMER_KEY_SCOPES } from '@coinpurse/contract';
import type { FastifyReply } from 'fastify';
import type { RouteScope } from '../../common/access.decorator';
import type { ApiKeyAuthenticator, AuthenticatedSession } from '../../common/access.guard';
import { ForbiddenError, TooManyRequestsError, UnauthenticatedError } from '../../common/errors';
import type { AuthedRequest, Principal } from '../../common/principal';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { DatabaseThrottlerStorage } from '../rate-limit/rate-limit.storage';
import { addressAllowed, apiKeyMatches, apiKeyPrefix } from './api-key-format';
import { type ApiKeyOwnerView, ApiKeysRepository } from './api-keys.repository';

export const KEY_NOT_VALID = 'This API key is not valid.';
export const KEY_EXPIRED = 'This API key has expired.';
export const KEY_REVOKED = 'This API key was revoked.';
const KEY_RATE_WINDOW_MS = 60_000;
/** Last use is written when the address changes, else at most this often. */
const LAST_USE_EVERY_MS = 60_000;

class ApiKeyRateLimitedError extends TooManyRequestsError {
  constructor(override readonly retryAfterSeconds: number) {
    super('Too many requests with this API key. Please wait and try again.');
  }
}

/**
 * API keys on every request, read from the database each time (one indexed read with the owner's state): a revoked or
 * expired key is refused at once on every instance, with no cache to invalidate. In this order: the key (401), the
 * client address (403), its rate limit (429, counted per key on every instance, `RateLimit` headers), the route's
 * scope (403 naming it), a frozen owner for `trade` and `withdraw` (403), and for `withdraw` the owner's address allowlist (403).
 */
@Injectable()
export class DatabaseApiKeyAuthenticator implements ApiKeyAuthenticator {
  private readonly logger = new Logger('ApiKeys');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keys: ApiKeysRepository,
    private readonly counters: DatabaseThrottlerStorage,
  ) {}

  async authenticateKey(key: string, scope: RouteScope, request: AuthedRequest, reply: FastifyReply): Promise<AuthenticatedSession> {
    // The request line names the key by its prefix even when the key is refused.
    request.apiKeyPrefix = apiKeyPrefix(key);
    const found = await this.find(key);
    if (!addressAllowed(request.ip, found.allowedIps)) {
      throw new ForbiddenError('This API key may not be used from your address.');
    }
    await this.countRequest(found, reply);
    checkScope(found, scope);
    this.recordUse(found, request.ip ?? null);
    return { principal: principalOf(found), twoFactorEnabled: found.twoFactorEnabled };
  }

  async liveKeyOwner(key: string): Promise<Principal | undefined> {
    try {
      return principalOf(await this.find(key));
    } catch {
      return undefined;
    }
  }

  /** The live key of a live account, or 401. */
  private async find(key: string): Promise<ApiKeyOwnerView> {
    const prefix = apiKeyPrefix(key);
    const found = prefix ? await this.keys.findWithOwner(prefix) : undefined;
    if (!found || !apiKeyMatches(key, found.secretHash) || found.deactivated) throw new UnauthenticatedError(KEY_NOT_VALID);
    if (found.revokedAt) throw new UnauthenticatedError(KEY_REVOKED);
    if (found.expiresAt && found.expiresAt.getTime() <= Date.now()) throw new UnauthenticatedError(KEY_EXPIRED);
    return found;
  }

  private async countRequest(found: ApiKeyOwnerView, reply: FastifyReply): Promise<void> {
    const limit = this.config.integrations.apiKeyRateLimitPerMinute;
    const record = await this.counters.increment(found.id, KEY_RATE_WINDOW_MS, limit, KEY_RATE_WINDOW_MS, 'api-key');
    reply.header('RateLimit-Policy', `"api-key";q=${limit};w=${KEY_RATE_WINDOW_MS / 1000}`);
    if (record.isBlocked) {
      reply.header('RateLimit', `"api-key";r=0;t=${record.timeToBlockExpire}`);
      throw new ApiKeyRateLimitedError(record.timeToBlockExpire);
    }
    reply.header('RateLimit', `"api-key";r=${Math.max(0, limit - record.totalHits)};t=${record.timeToExpire}`);
  }

  private recordUse(found: ApiKeyOwnerView, ip: string | null): void {
    const recent = found.lastUsedAt && Date.now() - found.lastUsedAt.getTime() < LAST_USE_EVERY_MS;
    if (recent && found.lastUsedIp === ip) return;
    this.keys.touch(found.id, ip).catch((error: Error) => this.logger.warn(`Could not record the use of API key ${found.prefix}: ${error.message}`));
  }
}

/** 403 unless the key has the route's scope; a scope of the other role is left to the guard's role check. */
function checkScope(found: ApiKeyOwnerView, scope: RouteScope): void {
  if (scope === 'session-only') throw new ForbiddenError('API keys cannot be used here: sign in to the app to do this.');
  const ownScopes: readonly string[] = found.role === 'admin' ? ADMIN_KEY_SCOPES : CUSTOMER_KEY_SCOPES;
  if (!ownScopes.includes(scope)) return;
  if (!found.scopes.includes(scope)) throw new ForbiddenError(`This API key does not have the "${scope}" scope.`);
  // A frozen account: nothing leaves it, so no route needing trade or withdraw (the money functions refuse too).
  if ((scope === 'trade' || scope === 'withdraw') && found.frozen) throw new ForbiddenError(ACCOUNT_FROZEN_MESSAGE);
  if (scope === 'withdraw' && !found.allowlistEnabled) {
    throw new ForbiddenError('Keys with the "withdraw" scope send only while your address allowlist is on. Turn it on in the app.');
  }
}

function principalOf(found: ApiKeyOwnerView): Principal {
  return {
    id: found.userId,
    role: found.role,
    name: found.name,
    email: found.email,
    sessionId: '',
    apiKey: { id: found.id, prefix: found.prefix, scopes: found.scopes },
  };
}
