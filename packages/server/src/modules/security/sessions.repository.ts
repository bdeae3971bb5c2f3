import { Inject, Injectable } from '@nestjs/common';
import { and, desc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { sessions, twoFactor, users } from '../../db/schema';

/** What the access guard needs to accept a token: the session, its account, and whether 2FA is on. */
export interface SessionAccount {
  sessionId: string;
  userId: string;
  revoked: boolean;
  lastSeenAt: Date;
  role: 'user' | 'admin';
  name: string;
  email: string;
  deactivated: boolean;
  twoFactorEnabled: boolean;
}

export interface SessionRow {
  id: string;
  createdAt: Date;
  lastSeenAt: Date;
  ip: string | null;
  userAgent: string | null;
}

const sessionRowColumns = { id: sessions.id, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, ip: sessions.ip, userAgent: sessions.userAgent };

@Injectable()
export class SessionsRepository {
  /** Read on every authenticated request whose check is not cached: one prepared statement. */
  private readonly accountBySession;

  constructor(@Inject(DATABASE) private readonly db: Database) {
    this.accountBySession = db
      .select({
        sessionId: sessions.id,
        userId: sessions.userId,
        revoked: sql<boolean>`${sessions.revokedAt} is not null`,
        lastSeenAt: sessions.lastSeenAt,
        role: users.role,
        name: users.name,
        email: users.email,
        deactivated: sql<boolean>`${users.deactivatedAt} is not null`,
        twoFactorEnabled: sql<boolean>`${twoFactor.enabledAt} is not null`,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .leftJoin(twoFactor, eq(twoFactor.userId, sessions.userId))
      .where(eq(sessions.id, sql.placeholder('id')))
      .prepare('sessions_account_by_id');
  }

  async findAccount(sessionId: string): Promise<SessionAccount | undefined> {
    const [row] = await this.accountBySession.execute({ id: sessionId });
    return row;
  }

  async insert(input: { userId: string; ip: string | null; userAgent: string | null }, executor: Executor = this.db): Promise<SessionRow> {
    const [row] = await executor.insert(sessions).values(input).returning(sessionRowColumns);
    return row;
  }

  /** Whether the account signed in before from this address with this browser (any session, ended or not). */
  async seenBefore(userId: string, ip: string | null, userAgent: string | null, executor: Executor = this.db): Promise<{ any: boolean; same: boolean }> {
    const [row] = await executor
      .select({
        any: sql<boolean>`count(*) > 0`,
        same: sql<boolean>`coalesce(bool_or(${sessions.ip} is not distinct from ${ip} and ${sessions.userAgent} is not distinct from ${userAgent}), false)`,
      })
      .from(sessions)
      .where(eq(sessions.userId, userId));
    return row;
  }

  /** Live sessions, most recently used first. */
  listLive(userId: string, issuedAfter: Date, executor: Executor = this.db): Promise<SessionRow[]> {
    return executor
      .select(sessionRowColumns)
      .from(sessions)
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.createdAt, issuedAfter)))
      .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
  }

  /** Ends one session of the user; false when there is no such live session. */
  async revoke(userId: string, sessionId: string, executor: Executor = this.db): Promise<boolean> {
    const rows = await executor
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    return rows.length > 0;
  }

  /** Ends every live session of the user, but `exceptSessionId` when given. */
  async revokeAll(userId: string, exceptSessionId: string | undefined, executor: Executor = this.db): Promise<number> {
    const rows = await executor
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), exceptSessionId ? ne(sessions.id, exceptSessionId) : undefined))
      .returning({ id: sessions.id });
    return rows.length;
  }

  /** Records use at most once a minute per session (the condition makes concurrent instances write once). */
  async touch(sessionId: string, executor: Executor = this.db): Promise<void> {
    await executor
      .update(sessions)
      .set({ lastSeenAt: new Date() })
      .where(and(eq(sessions.id, sessionId), lt(sessions.lastSeenAt, sql`now() - interval '1 minute'`)));
  }

  /**
   * Deletes sessions that ended (revoked, or past the token lifetime) before `endedBefore`, at most `batch` rows per
   * call so a large backlog never holds a long transaction.
   */
  async purgeEnded(endedBefore: Date, ttlSeconds: number, batch: number, executor: Executor = this.db): Promise<number> {
    const rows = await executor
      .delete(sessions)
      .where(
        sql`${sessions.id} in (select id from sessions
              where revoked_at < ${endedBefore} or created_at < ${endedBefore}::timestamptz - make_interval(secs => ${ttlSeconds})
              limit ${batch})`,
      )
      .returning({ id: sessions.id });
    return rows.length;
  }
}
