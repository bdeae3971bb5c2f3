import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { FORGOT_PASSWORD_MESSAGE, PASSWORD_CHANGED_MESSAGE, type SupportMessageDto } from '@coinpurse/contract';
import { createHash, randomBytes } from 'node:crypto';
import { InvalidInputError } from '../../common/errors';
import { escapeHtml } from '../../common/html';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { DATABASE, type Database, type DatabaseHandle } from '../../db/database';
import { DATABASE_HANDLE } from '../../db/database.module';
import { ScheduledJob } from '../../jobs/scheduled-job';
import { AuditService } from '../audit/audit.service';
import { hashPassword } from '../auth/password-hasher';
import { UsersRepository } from '../auth/users.repository';
import { MailService, type OutgoingMail } from '../mail/mail.service';
import { SecurityMailService } from '../security/security-mail.service';
import { SessionsService } from '../security/sessions.service';
import { PasswordResetRepository, RESET_REQUEST_CHANNEL } from './password-reset.repository';

export const RESET_TTL_MS = 30 * 60 * 1000;
/** The worker also wakes on its own, for requests whose notification was missed. */
const REQUEST_POLL_MS = 10_000;
const WORK_DELAY_MS = 25;
export const RESET_LINK_INVALID = 'This password reset link is invalid or has expired. Please request a new one.';

export function hashResetToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Password reset by mail. The token is 32 random bytes (base64url) that exist only in the mail; the database keeps
 * its sha256. A link is single use, expires after 30 minutes, and a newer link or a completed reset ends older ones.
 */
@Injectable()
export class PasswordResetService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('PasswordReset');
  /** Works off the queued requests: every REQUEST_POLL_MS, and soon after each request's notification. */
  private readonly worker = new ScheduledJob<void>({
    name: 'Password reset requests',
    logger: this.logger,
    everyMs: REQUEST_POLL_MS,
    firstRunMs: 0,
    work: () => this.workOffRequests(),
  });
  private stopped = false;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(DATABASE_HANDLE) private readonly handle: DatabaseHandle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly resets: PasswordResetRepository,
    private readonly users: UsersRepository,
    private readonly audit: AuditService,
    private readonly mail: MailService,
    private readonly sessions: SessionsService,
    private readonly securityMails: SecurityMailService,
  ) {}

  /**
   * Same answer, and the same work, whether or not the email belongs to an account: the request is queued (one
   * insert) and a worker looks the email up, creates the link and queues the mail afterwards. How long this takes
   * tells a caller nothing about which emails have accounts.
   */
  async forgotPassword(email: string, requestId?: string): Promise<SupportMessageDto> {
    await this.resets.enqueueRequest(email, requestId);
    // The same line for every email (it names none): operators see the request, an attacker learns nothing.
    this.logger.log('Password reset requested; queued for the reset worker.');
    return { message: FORGOT_PASSWORD_MESSAGE };
  }

  async onApplicationBootstrap(): Promise<void> {
    // A request's notification can arrive before its answer has left (PGlite runs in this thread): the work starts a
    // moment later, so a known email's extra work never delays the answer that queued it.
    if (typeof this.handle?.listen === 'function') this.unlisten = await this.handle.listen(RESET_REQUEST_CHANNEL, () => this.worker.kick(WORK_DELAY_MS));
    this.worker.start();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.worker.stop();
    await this.unlisten?.().catch(() => undefined);
    await this.worker.close();
  }

  /** Works off the queued forgot-password requests (now, or again right after the current run). Never throws. */
  kick(): void {
    this.worker.kick();
  }

  /**
   * One transaction per request: take it from the queue, and for an active customer end older links, store the new
   * link's hash, audit it and queue the mail — all or nothing (a crash leaves the request queued).
   */
  private async workOffRequests(): Promise<void> {
    while (!this.stopped) {
      const taken = await this.db.transaction(async (tx) => {
        const request = await this.resets.takeRequest(tx);
        if (!request) return false;
        const user = await this.users.findByEmail(request.email, tx);
        if (user && !user.deactivatedAt && user.role === 'user') {
          const token = randomBytes(32).toString('base64url');
          await this.resets.useAllForUser(user.id, tx);
          await this.resets.insert({ userId: user.id, tokenHash: hashResetToken(token), expiresAt: new Date(Date.now() + RESET_TTL_MS) }, tx);
          await this.audit.record(
            { id: user.id, role: 'user', requestId: request.requestId ?? undefined },
            { action: 'user.password_reset_requested', targetType: 'user', targetId: user.id },
            tx,
          );
          await this.mail.send(this.linkMail(user.email, user.name, token), tx);
        }
        return true;
      });
      if (!taken) return;
    }
  }

  async resetPassword(token: string | undefined, password: string, requestId?: string): Promise<SupportMessageDto> {
    if (!token || token.length > 200) throw new InvalidInputError(RESET_LINK_INVALID);
    const tokenHash = hashResetToken(token);
    const found = await this.resets.findByHash(tokenHash);
    if (!usable(found)) throw new InvalidInputError(RESET_LINK_INVALID);
    const passwordHash = await hashPassword(password);
    await this.db.transaction(async (tx) => {
      // Re-read under a row lock: of two concurrent uses of one link, the second sees it used.
      const reset = await this.resets.findByHash(tokenHash, { lock: true }, tx);
      if (!usable(reset)) throw new InvalidInputError(RESET_LINK_INVALID);
      const user = await this.users.findById(reset.userId, tx);
      if (!user || user.deactivatedAt) throw new InvalidInputError(RESET_LINK_INVALID);
      await this.resets.useAllForUser(user.id, tx);
      await this.users.updatePassword(user.id, passwordHash, tx);
      // Every session issued before the reset ends.
      await this.sessions.revokeAll(user.id, {}, tx);
      await this.audit.record({ id: user.id, role: 'user', requestId }, { action: 'user.password_reset', targetType: 'user', targetId: user.id }, tx);
      await this.securityMails.passwordChanged(user, tx);
    });
    return { message: PASSWORD_CHANGED_MESSAGE };
  }

  private linkMail(to: string, name: string, token: string): OutgoingMail {
    const link = `${this.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
    return {
      to,
      subject: 'Reset your Coinpurse password',
      text:
        `Hello ${name},\n\nSomeone asked to reset the password of your Coinpurse account. To choose a new password, open this link ` +
        `within 30 minutes:\n\n${link}\n\nIf it was not you, ignore this mail: your password stays as it is.\n`,
      html:
        `<p>Hello ${escapeHtml(name)},</p><p>Someone asked to reset the password of your Coinpurse account. To choose a new password, ` +
        `open this link within 30 minutes:</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` +
        `<p>If it was not you, ignore this mail: your password stays as it is.</p>`,
    };
  }
}

function usable(reset: { usedAt: Date | null; expiresAt: Date } | undefined): reset is { usedAt: null; expiresAt: Date; userId: string; id: string } {
  return Boolean(reset && !reset.usedAt && reset.expiresAt.getTime() > Date.now());
}
