import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ChangePasswordDto, CreateUserDto, LoginDto, ProfileDto, SessionDto, UpdateProfileDto } from '@coinpurse/contract';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { countryName, requireCountryCode } from '../../common/countries';
import { ConflictError, InvalidInputError, NotFoundError, UnauthenticatedError } from '../../common/errors';
import type { Actor, Principal } from '../../common/principal';
import { AuditService } from '../audit/audit.service';
import { SecurityMailService } from '../security/security-mail.service';
import { type ClientInfo, SessionsService } from '../security/sessions.service';
import { StepUpService } from '../security/step-up.service';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from './password-hasher';
import { TokenService } from './token.service';
import { normalizeEmail, type UserRecord, UsersRepository } from './users.repository';

export const INVALID_CREDENTIALS = 'Invalid email or password.';

@Injectable()
export class AuthService {
  private readonly logger = new Logger('Auth');

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly users: UsersRepository,
    private readonly tokens: TokenService,
    private readonly audit: AuditService,
    private readonly sessions: SessionsService,
    private readonly stepUp: StepUpService,
    private readonly securityMails: SecurityMailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async createUser(input: CreateUserDto, client: ClientInfo): Promise<SessionDto> {
    const country = requireCountryCode(input.country);
    const user = await this.users.insert({ ...input, country, passwordHash: await hashPassword(input.password), role: 'user' });
    if (!user) throw new ConflictError('An account with this email already exists.');
    await this.audit.record(
      { id: user.id, role: 'user' },
      { action: 'user.sign_up', targetType: 'user', targetId: user.id, after: { email: user.email, country: user.country } },
    );
    return (await this.startSession(user, client)).session;
  }

  async loginUser(input: LoginDto, client: ClientInfo): Promise<SessionDto> {
    return this.login(input, 'user', client);
  }

  async loginAdmin(input: LoginDto, client: ClientInfo): Promise<SessionDto> {
    return this.login(input, 'admin', client);
  }

  /** Ends this device's session only. */
  async logout(principal: Principal): Promise<void> {
    await this.sessions.revoke(principal.id, principal.sessionId).catch((error) => {
      // Already ended (e.g. from another device): signing out is done either way.
      if (!(error instanceof NotFoundError)) throw error;
    });
  }

  async profile(principal: Principal): Promise<ProfileDto> {
    const user = await this.users.findById(principal.id);
    if (!user) throw new NotFoundError('Account not found.');
    return toProfile(user);
  }

  /** A new email is a step-up action: it needs the two-factor code when two-factor sign-in is on. */
  async updateProfile(principal: Principal, actor: Actor, input: UpdateProfileDto): Promise<ProfileDto> {
    if (input.name === undefined && input.country === undefined && input.email === undefined) throw new InvalidInputError('Nothing to change.');
    const country = input.country === undefined ? undefined : requireCountryCode(input.country);
    const before = await this.users.findById(actor.id);
    if (!before) throw new NotFoundError('Account not found.');
    const emailChanges = input.email !== undefined && normalizeEmail(input.email) !== normalizeEmail(before.email);
    if (emailChanges) await this.stepUp.verify(principal, input.code);
    // One transaction: the change, its audit row, the sessions' re-check and (for a new email) the security mails.
    const user = await this.db.transaction(async (tx) => {
      const updated = await this.users
        .updateProfile(actor.id, { name: input.name, country, email: emailChanges ? input.email : undefined }, tx)
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw new ConflictError('An account with this email already exists.');
          throw error;
        });
      if (!updated) throw new NotFoundError('Account not found.');
      await this.audit.record(
        actor,
        {
          action: 'user.update_profile',
          targetType: 'user',
          targetId: updated.id,
          before: { name: before.name, country: before.country, ...(emailChanges ? { email: before.email } : {}) },
          after: { name: updated.name, country: updated.country, ...(emailChanges ? { email: updated.email } : {}) },
        },
        tx,
      );
      // Every instance re-reads the name and email behind this account's sessions.
      await this.sessions.accountChanged(updated.id, tx);
      if (emailChanges) {
        await this.securityMails.emailChanged({ id: updated.id, name: updated.name, email: updated.email, role: principal.role }, before.email, tx);
      }
      return updated;
    });
    return toProfile(user);
  }

  /**
   * Changes the password (a step-up action) and ends every session; this device continues with the fresh session
   * returned (it replaces the stored one).
   */
  async changePassword(principal: Principal, actor: Actor, input: ChangePasswordDto, client: ClientInfo): Promise<SessionDto> {
    const user = await this.users.findById(actor.id);
    if (!user) throw new NotFoundError('Account not found.');
    if (!(await verifyPassword(input.currentPassword, user.passwordHash))) throw new InvalidInputError('Current password is incorrect.');
    await this.stepUp.verify(principal, input.code);
    const passwordHash = await hashPassword(input.newPassword);
    const session = await this.db.transaction(async (tx) => {
      await this.users.updatePassword(user.id, passwordHash, tx);
      await this.sessions.revokeAll(user.id, {}, tx);
      await this.audit.record(actor, { action: 'user.change_password', targetType: 'user', targetId: user.id }, tx);
      const { sessionId } = await this.sessions.start(user.id, client, tx);
      await this.securityMails.passwordChanged(user, tx);
      return this.session(user, sessionId);
    });
    return session;
  }

  /**
   * At every start: the configured admin exists with the configured password; or, on an empty database, a generated
   * one, written to a 0600 file in DATA_DIR. Production never prints a generated password.
   */
  async ensureAdmin(): Promise<void> {
    if (this.config.adminEmail && this.config.adminPassword) {
      await this.users.upsertAdmin(this.config.adminEmail, await hashPassword(this.config.adminPassword));
      return;
    }
    if ((await this.users.countAdmins()) > 0) return;
    // In production a generated password never reaches the log (log shippers keep lines for years): it needs a file.
    if (this.config.nodeEnv === 'production' && this.config.dataDir === ':memory:') {
      throw new Error('Set ADMIN_EMAIL and ADMIN_PASSWORD: with DATA_DIR=:memory: there is nowhere to keep a generated admin password.');
    }
    const email = 'admin@coinpurse.local';
    const password = randomBytes(12).toString('base64url');
    await this.users.upsertAdmin(email, await hashPassword(password));
    if (this.config.dataDir === ':memory:') {
      this.logger.warn(`Admin account created: ${email} / ${password}`);
      return;
    }
    mkdirSync(this.config.dataDir, { recursive: true });
    const file = join(this.config.dataDir, 'admin-credentials.txt');
    writeFileSync(file, `email: ${email}\npassword: ${password}\n`, { mode: 0o600 });
    chmodSync(file, 0o600); // an older file keeps its mode through writeFileSync
    if (this.config.nodeEnv === 'production') {
      this.logger.warn(
        `Admin account created: ${email}; its generated password is in ${file} (readable by this user only). Set ADMIN_EMAIL and ADMIN_PASSWORD to choose them.`,
      );
    } else {
      this.logger.warn(`Admin account created: ${email} / ${password} (also written to ${file})`);
    }
  }

  private async checkCredentials(input: LoginDto, role: 'user' | 'admin'): Promise<UserRecord> {
    const user = await this.users.findByEmail(input.email);
    // Always run the hash so unknown emails and wrong passwords cost the same time.
    const valid = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
    if (!user || !valid || user.deactivatedAt || user.role !== role) throw new UnauthenticatedError(INVALID_CREDENTIALS);
    return user;
  }

  /** Password first (same answer as before for a wrong one), then the second factor, then a new session. */
  private async login(input: LoginDto, role: 'user' | 'admin', client: ClientInfo): Promise<SessionDto> {
    const user = await this.checkCredentials(input, role);
    await this.stepUp.verifySignIn(user, input.code);
    // The session and its new-device mail commit together: a crash cannot leave a sign-in the customer was not told of.
    return this.db.transaction(async (tx) => {
      const { session, newDevice } = await this.startSession(user, client, tx);
      if (newDevice) await this.securityMails.newSignIn(user, client, tx);
      return session;
    });
  }

  private async startSession(user: UserRecord, client: ClientInfo, executor?: Executor): Promise<{ session: SessionDto; newDevice: boolean }> {
    const { sessionId, newDevice } = await this.sessions.start(user.id, client, executor);
    return { session: this.session(user, sessionId), newDevice };
  }

  private session(user: UserRecord, sessionId: string): SessionDto {
    return { token: this.tokens.issue(user, sessionId), _id: user.id, name: user.name, email: user.email, country: countryName(user.country), role: user.role };
  }
}

function toProfile(user: UserRecord): ProfileDto {
  return { _id: user.id, name: user.name, email: user.email, country: countryName(user.country), role: user.role, createdAt: user.createdAt.toISOString() };
}

function isUniqueViolation(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; current = (current as { cause?: unknown }).cause, depth++) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
