import { Inject, Injectable, Logger } from '@nestjs/common';
import { FORGOT_PASSWORD_MESSAGE, PASSWORD_CHANGED_MESSAGE, type SupportMessageDto } from '@coinpurse/contract';
import { createHash, randomBytes } from 'node:crypto';
import { InvalidInputError } from '../../common/errors';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { DATABASE, type Database } from '../../db/database';
import { AuditService } from '../audit/audit.service';
import { hashPassword } from '../auth/password-hasher';
import { UsersRepository } from '../auth/users.repository';
import { MailService } from '../mail/mail.service';
import { SecurityMailService } from '../security/security-mail.service';
import { SessionsService } from '../security/sessions.service';
import { PasswordResetRepository } from './password-reset.repository';

export const RESET_TTL_MS = 30 * 60 * 1000;
export const RESET_LINK_INVALID = 'This password reset link is invalid or has expired. Please request a new one.';

export function hashResetToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Password reset by mail. The token is 32 random bytes (base64url) that exist only in the mail; the database keeps
 * its sha256. A link is single use, expires after 30 minutes, and a newer link or a completed reset ends older ones.
 */
@Injectable()
export class PasswordResetService {
  private readonly logger = new Logger('PasswordReset');

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly resets: PasswordResetRepository,
    private readonly users: UsersRepository,
    private readonly audit: AuditService,
    private readonly mail: MailService,
    private readonly sessions: SessionsService,
    private readonly securityMails: SecurityMailService,
  ) {}

  /** Same answer whether or not the email belongs to an account; the mail goes out in the background. */
  async forgotPassword(email: string, requestId?: string): Promise<SupportMessageDto> {
    const user = await this.users.findByEmail(email);
    if (user && !user.deactivatedAt && user.role === 'user') {
      const token = randomBytes(32).toString('base64url');
      await this.db.transaction(async (tx) => {
        await this.resets.useAllForUser(user.id, tx);
        await this.resets.insert({ userId: user.id, tokenHash: hashResetToken(token), expiresAt: new Date(Date.now() + RESET_TTL_MS) }, tx);
        await this.audit.record(
          { id: user.id, role: 'user', requestId },
          { action: 'user.password_reset_requested', targetType: 'user', targetId: user.id },
          tx,
        );
      });
      // Not awaited: how long the SMTP server takes must not tell callers whether the account exists.
      void this.sendLink(user.email, user.name, token);
    }
    return { message: FORGOT_PASSWORD_MESSAGE };
  }

  async resetPassword(token: string | undefined, password: string, requestId?: string): Promise<SupportMessageDto> {
    if (!token || token.length > 200) throw new InvalidInputError(RESET_LINK_INVALID);
    const tokenHash = hashResetToken(token);
    const found = await this.resets.findByHash(tokenHash);
    if (!usable(found)) throw new InvalidInputError(RESET_LINK_INVALID);
    const passwordHash = await hashPassword(password);
    const user = await this.db.transaction(async (tx) => {
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
      return user;
    });
    await this.securityMails.passwordChanged(user);
    return { message: PASSWORD_CHANGED_MESSAGE };
  }

  private async sendLink(to: string, name: string, token: string): Promise<void> {
    const link = `${this.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
    try {
      await this.mail.send({
        to,
        subject: 'Reset your Coinpurse password',
        text:
          `Hello ${name},\n\nSomeone asked to reset the password of your Coinpurse account. To choose a new password, open this link ` +
          `within 30 minutes:\n\n${link}\n\nIf it was not you, ignore this mail: your password stays as it is.\n`,
        html:
          `<p>Hello ${escapeHtml(name)},</p><p>Someone asked to reset the password of your Coinpurse account. To choose a new password, ` +
          `open this link within 30 minutes:</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` +
          `<p>If it was not you, ignore this mail: your password stays as it is.</p>`,
      });
    } catch (error) {
      this.logger.error(`Could not send the password reset mail: ${(error as Error).message}`);
    }
  }
}

function usable(reset: { usedAt: Date | null; expiresAt: Date } | undefined): reset is { usedAt: null; expiresAt: Date; userId: string; id: string } {
  return Boolean(reset && !reset.usedAt && reset.expiresAt.getTime() > Date.now());
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
