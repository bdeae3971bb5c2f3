import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { SessionInfoDto } from '@coinpurse/contract';
import { sql } from 'drizzle-orm';
import { NotFoundError } from '../../common/errors';
import type { Actor } from '../../common/principal';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { DATABASE, type Database, type DatabaseHandle, type Executor } from '../../db/database';
import { DATABASE_HANDLE } from '../../db/database.module';
import { AuditService } from '../audit/audit.service';
import { type SessionAccount, SessionsRepository } from './sessions.repository';

/** The PostgreSQL channel on which instances tell each other that sessions ended or accounts changed. */
export const SESSIONS_CHANNEL = 'coinpurse_sessions';
/** How long an instance trusts its cached session check: the bound on revocation reaching every instance. */
export const SESSION_CACHE_MS = 5_000;
const LAST_SEEN_EVERY_MS = 60_000;
const MAX_CACHED = 50_000;

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

interface CacheEntry {
  account: SessionAccount | undefined;
  expiresAt: number;
}

/** `{s}`: one session ended; `{u}`: something about the account changed (all its sessions re-checked). */
interface Invalidation {
  s?: string;
  u?: string;
}

/**
 * One session per sign-in. The access guard asks `account(sid)` on every request: the answer is cached in memory for
 * at most SESSION_CACHE_MS, and dropped earlier when any instance revokes a session or changes an account — the
 * change is announced with `pg_notify` in the same transaction and every instance LISTENs (PGlite: in-process).
 */
@Injectable()
export class SessionsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Sessions');
  private readonly cache = new Map<string, CacheEntry>();
  private unlisten: (() => Promise<void>) | undefined;
  /** How long a session check is trusted (tests lengthen it to prove that NOTIFY, not expiry, ends a session). */
  cacheMs = SESSION_CACHE_MS;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(DATABASE_HANDLE) private readonly handle: DatabaseHandle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: SessionsRepository,
    private readonly audit: AuditService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (typeof this.handle?.listen !== 'function') return;
    this.unlisten = await this.handle.listen(SESSIONS_CHANNEL, (payload) => this.onInvalidation(payload));
  }

  async onModuleDestroy(): Promise<void> {
    await this.unlisten?.().catch(() => undefined);
    this.cache.clear();
  }

  /** Starts a session; `newDevice` when the account had signed in before, but never from this address and browser. */
  async start(userId: string, client: ClientInfo, executor: Executor = this.db): Promise<{ sessionId: string; newDevice: boolean }> {
    const seen = await this.sessions.seenBefore(userId, client.ip, client.userAgent, executor);
    const row = await this.sessions.insert({ userId, ip: client.ip, userAgent: client.userAgent }, executor);
    return { sessionId: row.id, newDevice: seen.any && !seen.same };
  }

  /** The live session's account, or undefined when the session is unknown, ended, expired or its account closed. */
  async account(sessionId: string): Promise<SessionAccount | undefined> {
    const now = Date.now();
    const cached = this.cache.get(sessionId);
    let account: SessionAccount | undefined;
    if (cached && cached.expiresAt > now) {
      account = cached.account;
    } else {
      account = await this.sessions.findAccount(sessionId);
      this.remember(sessionId, account, now);
    }
    if (!account || account.revoked || account.deactivated) return undefined;
    if (now - account.lastSeenAt.getTime() > LAST_SEEN_EVERY_MS) {
      account.lastSeenAt = new Date(now);
      this.sessions.touch(sessionId).catch((error: Error) => this.logger.warn(`Could not record session use: ${error.message}`));
    }
    return account;
  }

  async list(userId: string, currentSessionId: string): Promise<SessionInfoDto[]> {
    const rows = await this.sessions.listLive(userId, new Date(Date.now() - this.config.jwtTtlSeconds * 1000));
    return rows.map((row) => ({
      id: row.id,
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: row.lastSeenAt.toISOString(),
      ip: row.ip,
      userAgent: row.userAgent,
      current: row.id === currentSessionId,
    }));
  }

  /** Ends one session of the user (404 when it is not theirs or already ended). */
  async revoke(userId: string, sessionId: string, executor: Executor = this.db): Promise<void> {
    if (!(await this.sessions.revoke(userId, sessionId, executor))) throw new NotFoundError('Session not found.');
    await this.announce({ s: sessionId }, executor);
  }

  /** Sign out everywhere: ends every session of the caller's account, this one included, and audits it. */
  async signOutEverywhere(actor: Actor): Promise<void> {
    await this.revokeAll(actor.id);
    await this.audit.record(actor, { action: 'user.logout_all', targetType: 'user', targetId: actor.id });
  }

  /** Ends every session of the user but `exceptSessionId`; announced on commit when given a transaction. */
  async revokeAll(userId: string, options: { except?: string } = {}, executor: Executor = this.db): Promise<void> {
    await this.sessions.revokeAll(userId, options.except, executor);
    await this.announce({ u: userId }, executor);
  }

  /** The account changed (profile, two-factor, role): every instance re-reads it on the next request. */
  async accountChanged(userId: string, executor: Executor = this.db): Promise<void> {
    await this.announce({ u: userId }, executor);
  }

  private async announce(invalidation: Invalidation, executor: Executor): Promise<void> {
    // Dropped here at once (this instance), and everywhere once the transaction commits (NOTIFY is sent on commit).
    this.drop(invalidation);
    await executor.execute(sql`select pg_notify(${SESSIONS_CHANNEL}, ${JSON.stringify(invalidation)})`);
  }

  private onInvalidation(payload: string): void {
    try {
      this.drop(JSON.parse(payload) as Invalidation);
    } catch {
      // Unknown payload: drop everything rather than trust a stale answer.
      this.cache.clear();
    }
  }

  private drop(invalidation: Invalidation): void {
    if (invalidation.s) this.cache.delete(invalidation.s);
    if (invalidation.u) {
      for (const [sessionId, entry] of this.cache) if (!entry.account || entry.account.userId === invalidation.u) this.cache.delete(sessionId);
    }
  }

  private remember(sessionId: string, account: SessionAccount | undefined, now: number): void {
    if (this.cache.size >= MAX_CACHED) {
      for (const [key, entry] of this.cache) if (entry.expiresAt <= now) this.cache.delete(key);
      if (this.cache.size >= MAX_CACHED) this.cache.clear();
    }
    this.cache.set(sessionId, { account, expiresAt: now + this.cacheMs });
  }
}
