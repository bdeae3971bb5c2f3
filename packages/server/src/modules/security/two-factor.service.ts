import { Inject, Injectable } from '@nestjs/common';
import { type RecoveryCodesDto, TWO_FACTOR_REQUIRED_MESSAGE, type TwoFactorSetupDto, type TwoFactorStatusDto } from '@coinpurse/contract';
import { ThrottlerStorage } from '@nestjs/throttler';
import { generateSecret, generateURI, verify } from 'otplib';
import { createHash, randomInt } from 'node:crypto';
import { ConflictError, InvalidInputError, TooManyRequestsError, TwoFactorRequiredError } from '../../common/errors';
import type { Actor } from '../../common/principal';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { DATABASE, type Database } from '../../db/database';
import { AuditService } from '../audit/audit.service';
import { SecretBox } from './secret-box';
import { type SecurityRecipient, SecurityMailService } from './security-mail.service';
import { SessionsService } from './sessions.service';
import { TwoFactorRepository } from './two-factor.repository';
import { MONEY_CODES } from '../ledger/money-errors';

export const ISSUER = 'Coinpurse';
export const RECOVERY_CODE_COUNT = 10;
/** ±30 s: the code of the previous and of the next 30-second step are accepted too (clock drift, typing time). */
const EPOCH_TOLERANCE_SECONDS = 30;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
/** At most one "someone knows your password" alert per account in this window. */
export const PASSWORD_KNOWN_ALERT_WINDOW_MS = 24 * 3_600_000;
export const INVALID_SETUP_CODE = 'That code is not valid. Check the time on your device and try again.';

/** The account a second factor belongs to (the principal has these fields). */
export type TwoFactorAccount = SecurityRecipient & { sessionId?: string };

/**
 * TOTP (RFC 6238, otplib) with single-use recovery codes. Secrets are sealed with AES-256-GCM; a time step is accepted
 * once per account (replay protection), every attempt counts against the same per-minute limit as passwords.
 */
@Injectable()
export class TwoFactorService {
  private readonly box: SecretBox;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ThrottlerStorage) private readonly throttler: ThrottlerStorage,
    private readonly repository: TwoFactorRepository,
    private readonly sessions: SessionsService,
    private readonly audit: AuditService,
    private readonly mails: SecurityMailService,
  ) {
    this.box = new SecretBox(config.encryptionKey);
  }

  async isEnabled(userId: string): Promise<boolean> {
    return Boolean((await this.repository.find(userId))?.enabledAt);
  }

  async status(account: TwoFactorAccount): Promise<TwoFactorStatusDto> {
    const record = await this.repository.find(account.id);
    const enabled = Boolean(record?.enabledAt);
    return {
      enabled,
      recoveryCodesLeft: enabled ? await this.repository.countUnusedRecoveryCodes(account.id) : 0,
      required: account.role === 'admin' && this.config.adminRequire2fa,
    };
  }

  /** A new secret to scan; two-factor sign-in starts only once `enable` confirms a code from it. */
  async setup(account: TwoFactorAccount): Promise<TwoFactorSetupDto> {
    const secret = generateSecret();
    if (!(await this.repository.savePending(account.id, this.box.seal(secret, account.id)))) {
      throw new ConflictError('Two-factor sign-in is already on.');
    }
    return { secret, otpauthUrl: generateURI({ issuer: ISSUER, label: account.email, secret }) };
  }

  async enable(actor: Actor, account: TwoFactorAccount, code: string): Promise<RecoveryCodesDto> {
    const record = await this.repository.find(account.id);
    if (!record) throw new InvalidInputError('Start the setup first.');
    if (record.enabledAt) throw new ConflictError('Two-factor sign-in is already on.');
    await this.throttle(account.id);
    const step = await this.totpStep(account.id, record.secretEncrypted, record.lastUsedStep, code);
    if (step === undefined) throw new InvalidInputError(INVALID_SETUP_CODE);
    const recoveryCodes = newRecoveryCodes();
    await this.db.transaction(async (tx) => {
      if (!(await this.repository.useStep(account.id, step, tx))) throw new InvalidInputError(INVALID_SETUP_CODE);
      await this.repository.enable(account.id, tx);
      await this.repository.replaceRecoveryCodes(
        account.id,
        recoveryCodes.map((c) => hashRecoveryCode(account.id, c)),
        tx,
      );
      await this.audit.record(actor, { action: 'user.2fa_enable', targetType: 'user', targetId: account.id }, tx);
      await this.sessions.accountChanged(account.id, tx);
      await this.mails.twoFactorEnabled(account, tx);
    });
    return { recoveryCodes };
  }

  /** Needs a current code (or a recovery code); every other session ends. */
  async disable(actor: Actor, account: TwoFactorAccount, code: string): Promise<void> {
    await this.requireCode(account, code);
    await this.db.transaction(async (tx) => {
      await this.repository.remove(account.id, tx);
      await this.sessions.revokeAll(account.id, { except: account.sessionId }, tx);
      await this.audit.record(actor, { action: 'user.2fa_disable', targetType: 'user', targetId: account.id }, tx);
      await this.mails.twoFactorDisabled(account, tx);
    });
  }

  async regenerateRecoveryCodes(actor: Actor, account: TwoFactorAccount, code: string): Promise<RecoveryCodesDto> {
    await this.requireCode(account, code);
    const recoveryCodes = newRecoveryCodes();
    await this.db.transaction(async (tx) => {
      await this.repository.replaceRecoveryCodes(
        account.id,
        recoveryCodes.map((c) => hashRecoveryCode(account.id, c)),
        tx,
      );
      await this.audit.record(actor, { action: 'user.2fa_recovery_codes', targetType: 'user', targetId: account.id }, tx);
    });
    return { recoveryCodes };
  }

  /** The error of a money function's CPS01 refusal: two-factor sign-in is on and no code was checked (undefined: another code). */
  refusalOf(code: string): Error | undefined {
    return code === MONEY_CODES.secondFactor ? new TwoFactorRequiredError(TWO_FACTOR_REQUIRED_MESSAGE) : undefined;
  }

  /**
   * The step-up check: nothing to do when two-factor sign-in is off; otherwise the code (TOTP or recovery code) must be
   * valid and unused, else 401 `twoFactorRequired`. Used by sign-in and by every dangerous action (see StepUpService).
   */
  async requireCode(account: TwoFactorAccount, code: string | undefined): Promise<void> {
    const record = await this.repository.find(account.id);
    if (!record?.enabledAt) return;
    if (!code) throw new TwoFactorRequiredError(TWO_FACTOR_REQUIRED_MESSAGE);
    await this.throttle(account.id);
    const normalized = code.replace(/[\s-]/g, '');
    if (/^\d{6}$/.test(normalized)) {
      const step = await this.totpStep(account.id, record.secretEncrypted, record.lastUsedStep, normalized);
      // The step is claimed atomically: of two requests with one code, one wins.
      if (step !== undefined && (await this.repository.useStep(account.id, step))) return;
      throw new TwoFactorRequiredError(TWO_FACTOR_REQUIRED_MESSAGE);
    }
    // The code is spent, audited and mailed in one transaction: a crash cannot spend it without telling the customer.
    const used = await this.db.transaction(async (tx) => {
      if (!(await this.repository.useRecoveryCode(account.id, hashRecoveryCode(account.id, normalized), tx))) return false;
      await this.audit.record({ id: account.id, role: account.role }, { action: 'user.2fa_recovery_code_used', targetType: 'user', targetId: account.id }, tx);
      await this.mails.recoveryCodeUsed(account, await this.repository.countUnusedRecoveryCodes(account.id, tx), tx);
      return true;
    });
    if (used) return;
    throw new TwoFactorRequiredError(TWO_FACTOR_REQUIRED_MESSAGE);
  }

  /**
   * `requireCode` at sign-in, after the right password: a wrong code there means someone knows the password. The owner
   * is told once per window (mail, and a notification for customers) — without the guessed code or the guesser's address.
   */
  async requireSignInCode(account: TwoFactorAccount, code: string | undefined): Promise<void> {
    try {
      await this.requireCode(account, code);
    } catch (error) {
      if (code && error instanceof TwoFactorRequiredError) await this.tellPasswordKnown(account);
      throw error;
    }
  }

  private async tellPasswordKnown(account: TwoFactorAccount): Promise<void> {
    const first = await this.throttler.increment(`password-known:${account.id}`, PASSWORD_KNOWN_ALERT_WINDOW_MS, 1, 0, 'password-known');
    if (first.totalHits === 1) await this.mails.passwordKnown(account);
  }

  /** The time step the code belongs to, when it is valid and later than the last one accepted. */
  private async totpStep(userId: string, sealed: string, lastUsedStep: number, code: string): Promise<number | undefined> {
    const token = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(token)) return undefined;
    const result = await verify({
      secret: this.box.open(sealed, userId),
      token,
      epochTolerance: EPOCH_TOLERANCE_SECONDS,
      afterTimeStep: lastUsedStep,
    });
    return result.valid && 'timeStep' in result ? result.timeStep : undefined;
  }

  /** Wrong codes are limited like passwords: AUTH_RATE_LIMIT_PER_MINUTE attempts per account and minute. */
  private async throttle(userId: string): Promise<void> {
    const limit = this.config.authRateLimitPerMinute;
    const record = await this.throttler.increment(`second-factor:${userId}`, 60_000, limit, 60_000, 'second-factor');
    if (record.isBlocked || record.totalHits > limit) throw new TooManyRequestsError('Too many attempts. Please wait a minute and try again.');
  }
}

function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** Recovery codes carry ~49 bits of randomness: a salted sha256 is enough (like reset tokens), and fast to check. */
function hashRecoveryCode(userId: string, code: string): string {
  return createHash('sha256')
    .update(`${userId}:${code.replace(/[\s-]/g, '').toLowerCase()}`)
    .digest('hex');
}
