import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ChangePasswordDto, CreateUserDto, LoginDto, ProfileDto, SessionDto, UpdateProfileDto } from '@coinpurse/contract';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { ConflictError, InvalidInputError, NotFoundError, UnauthenticatedError } from '../../common/errors';
import type { Actor, Principal } from '../../common/principal';
import { AuditService } from '../audit/audit.service';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from './password-hasher';
import { TokenService } from './token.service';
import { type UserRecord, UsersRepository } from './users.repository';

export const INVALID_CREDENTIALS = 'Invalid email or password.';

@Injectable()
export class AuthService {
  private readonly logger = new Logger('Auth');

  constructor(
    private readonly users: UsersRepository,
    private readonly tokens: TokenService,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async createUser(input: CreateUserDto): Promise<SessionDto> {
    const user = await this.users.insert({ ...input, passwordHash: await hashPassword(input.password), role: 'user' });
    if (!user) throw new ConflictError('An account with this email already exists.');
    await this.audit.record(
      { id: user.id, role: 'user' },
      { action: 'user.sign_up', targetType: 'user', targetId: user.id, after: { email: user.email, country: user.country } },
    );
    return this.session(user);
  }

  async loginUser(input: LoginDto): Promise<SessionDto> {
    return this.session(await this.checkCredentials(input, 'user'));
  }

  async loginAdmin(input: LoginDto): Promise<SessionDto> {
    return this.session(await this.checkCredentials(input, 'admin'));
  }

  async logout(principal: Principal): Promise<void> {
    await this.users.bumpTokenVersion(principal.id);
  }

  async profile(principal: Principal): Promise<ProfileDto> {
    const user = await this.users.findById(principal.id);
    if (!user) throw new NotFoundError('Account not found.');
    return toProfile(user);
  }

  async updateProfile(actor: Actor, input: UpdateProfileDto): Promise<ProfileDto> {
    if (input.name === undefined && input.country === undefined) throw new InvalidInputError('Nothing to change.');
    const before = await this.users.findById(actor.id);
    const user = await this.users.updateProfile(actor.id, { name: input.name, country: input.country });
    if (!user || !before) throw new NotFoundError('Account not found.');
    await this.audit.record(actor, {
      action: 'user.update_profile',
      targetType: 'user',
      targetId: user.id,
      before: { name: before.name, country: before.country },
      after: { name: user.name, country: user.country },
    });
    return toProfile(user);
  }

  /** Changes the password and ends every other session; returns a fresh session for this one. */
  async changePassword(actor: Actor, input: ChangePasswordDto): Promise<SessionDto> {
    const user = await this.users.findById(actor.id);
    if (!user) throw new NotFoundError('Account not found.');
    if (!(await verifyPassword(input.currentPassword, user.passwordHash))) throw new InvalidInputError('Current password is incorrect.');
    await this.users.updatePassword(user.id, await hashPassword(input.newPassword));
    await this.audit.record(actor, { action: 'user.change_password', targetType: 'user', targetId: user.id });
    const updated = await this.users.findById(user.id);
    return this.session(updated!);
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

  private session(user: UserRecord): SessionDto {
    return { token: this.tokens.issue(user), _id: user.id, name: user.name, email: user.email, country: user.country, role: user.role };
  }
}

function toProfile(user: UserRecord): ProfileDto {
  return { _id: user.id, name: user.name, email: user.email, country: user.country, role: user.role, createdAt: user.createdAt.toISOString() };
}
