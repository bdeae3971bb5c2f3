import { Inject, Injectable } from '@nestjs/common';
import { ADMIN_KEY_SCOPES, type ApiKeyDto, type ApiKeyScope, type CreateApiKeyDto, type CreatedApiKeyDto, CUSTOMER_KEY_SCOPES } from '@coinpurse/contract';
import { UUID_TEXT } from '../../common/page-cursor';
import { ConflictError, InvalidInputError, NotFoundError } from '../../common/errors';
import type { Actor, Principal } from '../../common/principal';
import { DATABASE, type Database } from '../../db/database';
import { AuditService } from '../audit/audit.service';
import { SecurityMailService } from '../security/security-mail.service';
import { StepUpService } from '../security/step-up.service';
import { newApiKey, normalizeAllowedIp } from './api-key-format';
import { type ApiKeyListRow, ApiKeysRepository } from './api-keys.repository';

/** Live keys one account may hold at once. */
export const MAX_LIVE_KEYS = 20;

/**
 * API keys of the signed-in owner (customer or administrator). The key is shown once, at creation; only its hash is
 * kept. A key that can move money out (`withdraw`) or change the back office (`operate`) is a step-up action (the
 * second factor when the owner has one); `withdraw` also needs the address allowlist on and mails the owner.
 */
@Injectable()
export class ApiKeysService {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly keys: ApiKeysRepository,
    private readonly stepUp: StepUpService,
    private readonly audit: AuditService,
    private readonly securityMails: SecurityMailService,
  ) {}

  async list(owner: Principal): Promise<ApiKeyDto[]> {
    return (await this.keys.list(owner.id)).map(toApiKeyDto);
  }

  async create(owner: Principal, actor: Actor, body: CreateApiKeyDto): Promise<CreatedApiKeyDto> {
    const scopes = this.checkScopes(owner, body.scopes);
    const allowedIps = checkAllowedIps(body.allowedIps ?? []);
    const expiresAt = checkExpiry(body.expiresAt);
    if (scopes.includes('withdraw') && !(await this.keys.allowlistEnabled(owner.id))) {
      throw new ConflictError('Turn on your address allowlist first: a key with the "withdraw" scope may send only to saved addresses.');
    }
    if (scopes.includes('withdraw') || scopes.includes('operate')) await this.stepUp.verify(owner, body.code);
    if ((await this.keys.countLive(owner.id)) >= MAX_LIVE_KEYS) {
      throw new ConflictError(`You have ${MAX_LIVE_KEYS} live API keys, the most an account may hold. Revoke one first.`);
    }
    return this.db.transaction(async (tx) => {
      for (;;) {
        const fresh = newApiKey();
        const row = await this.keys.insert(
          { userId: owner.id, name: body.name, prefix: fresh.prefix, secretHash: fresh.hash, scopes, allowedIps, expiresAt },
          tx,
        );
        // A prefix already taken (one chance in 2^54): draw again.
        if (!row) continue;
        const described = { name: row.name, prefix: row.prefix, scopes, allowedIps, expiresAt: expiresAt?.toISOString() ?? null };
        await this.audit.record(actor, { action: 'api_key.create', targetType: 'api_key', targetId: row.id, after: described }, tx);
        if (scopes.includes('withdraw')) await this.securityMails.apiKeyCreated(owner, described, tx);
        return { ...toApiKeyDto(row), key: fresh.key };
      }
    });
  }

  async revoke(owner: Principal, actor: Actor, id: string): Promise<ApiKeyDto> {
    if (!UUID_TEXT.test(id)) throw new NotFoundError('API key not found.');
    return this.db.transaction(async (tx) => {
      const row = await this.keys.revoke(owner.id, id, tx);
      if (!row) throw new NotFoundError('API key not found, or revoked already.');
      await this.audit.record(actor, { action: 'api_key.revoke', targetType: 'api_key', targetId: row.id, before: { prefix: row.prefix } }, tx);
      return toApiKeyDto(row);
    });
  }

  private checkScopes(owner: Principal, asked: ApiKeyScope[]): ApiKeyScope[] {
    const allowed: readonly ApiKeyScope[] = owner.role === 'admin' ? ADMIN_KEY_SCOPES : CUSTOMER_KEY_SCOPES;
    const wrong = asked.filter((scope) => !allowed.includes(scope));
    if (wrong.length) {
      throw new InvalidInputError(
        owner.role === 'admin'
          ? 'Administrators\u2019 keys take the scopes read and operate.'
          : 'Customers\u2019 keys take the scopes read, trade and withdraw.',
      );
    }
    // Stored in the canonical order, whatever order they came in.
    return allowed.filter((scope) => asked.includes(scope));
  }
}

function checkAllowedIps(entries: string[]): string[] {
  const normalized: string[] = [];
  for (const entry of entries) {
    const value = normalizeAllowedIp(entry);
    if (!value) throw new InvalidInputError(`"${entry.slice(0, 64)}" is not an IP address or a CIDR range such as 203.0.113.0/24.`);
    if (!normalized.includes(value)) normalized.push(value);
  }
  return normalized;
}

function checkExpiry(raw: string | undefined): Date | null {
  if (raw === undefined) return null;
  const at = new Date(raw);
  if (Number.isNaN(at.getTime())) throw new InvalidInputError('The expiry must be a date and time such as 2027-01-31T00:00:00Z.');
  if (at.getTime() <= Date.now()) throw new InvalidInputError('The expiry must be in the future.');
  return at;
}

export function toApiKeyDto(row: ApiKeyListRow): ApiKeyDto {
  const expired = Boolean(row.expiresAt && row.expiresAt.getTime() <= Date.now());
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes as ApiKeyScope[],
    allowedIps: row.allowedIps,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    lastUsedIp: row.lastUsedIp,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    status: row.revokedAt ? 'revoked' : expired ? 'expired' : 'active',
  };
}
