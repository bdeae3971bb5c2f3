import { Inject, Injectable } from '@nestjs/common';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { rowsOf } from '../../db/rows';
import { apiKeys } from '../../db/schema';

export type ApiKeyRecord = typeof apiKeys.$inferSelect;

/** A key with what a request needs of its owner, read in one trip on every request that sends it. */
export interface ApiKeyOwnerView {
  id: string;
  userId: string;
  prefix: string;
  secretHash: string;
  scopes: string[];
  allowedIps: string[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  lastUsedIp: string | null;
  role: 'user' | 'admin';
  name: string;
  email: string;
  deactivated: boolean;
  twoFactorEnabled: boolean;
  allowlistEnabled: boolean;
  /** The owner's account is frozen (account_freezes): keys with trade / withdraw are refused on those routes. */
  frozen: boolean;
}

const LIST_COLUMNS = {
  id: apiKeys.id,
  userId: apiKeys.userId,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  scopes: apiKeys.scopes,
  allowedIps: apiKeys.allowedIps,
  expiresAt: apiKeys.expiresAt,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  lastUsedIp: apiKeys.lastUsedIp,
  revokedAt: apiKeys.revokedAt,
};
export type ApiKeyListRow = { [K in keyof typeof LIST_COLUMNS]: ApiKeyRecord[K] };

/** All SQL of API keys. */
@Injectable()
export class ApiKeysRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async insert(
    key: { userId: string; name: string; prefix: string; secretHash: string; scopes: string[]; allowedIps: string[]; expiresAt: Date | null },
    executor: Executor = this.db,
  ): Promise<ApiKeyListRow | undefined> {
    const [row] = await executor.insert(apiKeys).values(key).onConflictDoNothing({ target: apiKeys.prefix }).returning(LIST_COLUMNS);
    return row;
  }

  /** The owner's keys, newest first (revoked ones included, for the record). */
  list(userId: string, executor: Executor = this.db): Promise<ApiKeyListRow[]> {
    return executor.select(LIST_COLUMNS).from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.createdAt)).limit(200);
  }

  async countLive(userId: string, executor: Executor = this.db): Promise<number> {
    const result = await executor.execute(
      sql`select count(*)::int as n from api_keys where user_id = ${userId} and revoked_at is null and (expires_at is null or expires_at > now())`,
    );
    return Number((rowsOf(result)[0] as { n: number }).n);
  }

  /** Revokes the owner's live key; undefined when it is not theirs or was revoked already. */
  async revoke(userId: string, id: string, executor: Executor = this.db): Promise<ApiKeyListRow | undefined> {
    const [row] = await executor
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
      .returning(LIST_COLUMNS);
    return row;
  }

  /** The key by its prefix with its owner's state (account, second factor, allowlist), or undefined. */
  async findWithOwner(prefix: string, executor: Executor = this.db): Promise<ApiKeyOwnerView | undefined> {
    const result = await executor.execute(sql`
      select k.id, k.user_id as "userId", k.prefix, k.secret_hash as "secretHash", k.scopes, k.allowed_ips as "allowedIps",
        k.expires_at as "expiresAt", k.revoked_at as "revokedAt", k.last_used_at as "lastUsedAt", k.last_used_ip as "lastUsedIp",
        u.role, u.name, u.email, u.deactivated_at is not null as deactivated,
        exists (select 1 from two_factor f where f.user_id = u.id and f.enabled_at is not null) as "twoFactorEnabled",
        coalesce((select w.allowlist_enabled from withdrawal_settings w where w.user_id = u.id), false) as "allowlistEnabled",
        exists (select 1 from account_freezes z where z.user_id = u.id) as frozen
      from api_keys k join users u on u.id = k.user_id
      where k.prefix = ${prefix}`);
    const row = rowsOf(result)[0] as (Omit<ApiKeyOwnerView, 'expiresAt' | 'revokedAt' | 'lastUsedAt'> & Record<string, unknown>) | undefined;
    if (!row) return undefined;
    const date = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));
    return {
      ...(row as unknown as ApiKeyOwnerView),
      scopes: parseTextArray(row.scopes),
      allowedIps: parseTextArray(row.allowedIps),
      expiresAt: date(row.expiresAt),
      revokedAt: date(row.revokedAt),
      lastUsedAt: date(row.lastUsedAt),
    };
  }

  async allowlistEnabled(userId: string, executor: Executor = this.db): Promise<boolean> {
    const result = await executor.execute(sql`select allowlist_enabled as on from withdrawal_settings where user_id = ${userId}`);
    return Boolean((rowsOf(result)[0] as { on?: boolean } | undefined)?.on);
  }

  async touch(id: string, ip: string | null, executor: Executor = this.db): Promise<void> {
    await executor.update(apiKeys).set({ lastUsedAt: new Date(), lastUsedIp: ip }).where(eq(apiKeys.id, id));
  }
}

/** A text[] as both drivers may return it from a raw query: an array, or PostgreSQL's `{a,b}` text. */
function parseTextArray(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value !== 'string' || value === '{}') return [];
  return value
    .slice(1, -1)
    .split(',')
    .map((part) => part.replace(/^"|"$/g, ''));
}
