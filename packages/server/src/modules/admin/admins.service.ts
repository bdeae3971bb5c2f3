import { Inject, Injectable } from '@nestjs/common';
import type { AdminAccountDto, AdminChangedDto, CreateAdminDto, PendingApprovalDto, UserDetailDto } from '@coinpurse/contract';
import { countryName } from '../../common/countries';
import { ConflictError, NotFoundError } from '../../common/errors';
import type { Actor } from '../../common/principal';
import { DATABASE, type Database } from '../../db/database';
import { AuditService } from '../audit/audit.service';
import { SessionsService } from '../security/sessions.service';
import { hashPassword } from '../auth/password-hasher';
import { UsersRepository } from '../auth/users.repository';
import { toMoney, usdNumber } from '../ledger/money';
import { WalletService } from '../wallet/wallet.service';
import { type AdminAccountRow, AdminsRepository } from './admins.repository';
import { AdminRepository } from './admin.repository';
import { ApprovalGate } from '../approvals/approval-gate.service';
import { ApprovalsRepository } from '../approvals/approvals.repository';
import { postingTokens, toApprovalDto } from '../approvals/approval-view';
import { WalletTokensRepository } from '../wallet/wallet-tokens.repository';
import { UUID_TEXT } from '../../common/page-cursor';
import { AccountFreezesService } from '../compliance/account-freezes.service';

const ADMIN_NOT_FOUND = 'Administrator not found.';

function toAdminDto(row: AdminAccountRow): AdminAccountDto {
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    active: row.deactivatedAt === null,
    createdAt: row.createdAt.toISOString(),
    deactivatedAt: row.deactivatedAt?.toISOString() ?? null,
  };
}

/** Several admins (add, list, deactivate; never the last one, never oneself) and the per-user page. */
@Injectable()
export class AdminsService {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly admins: AdminsRepository,
    private readonly accounts: AdminRepository,
    private readonly users: UsersRepository,
    private readonly approvals: ApprovalsRepository,
    private readonly wallet: WalletService,
    private readonly audit: AuditService,
    private readonly sessions: SessionsService,
    private readonly gate: ApprovalGate,
    private readonly tokens: WalletTokensRepository,
    private readonly freezes: AccountFreezesService,
  ) {}

  async list(): Promise<AdminAccountDto[]> {
    return (await this.admins.listAdmins()).map(toAdminDto);
  }

  /**
   * A new admin signs in at /login-admin; the account-security rules (2FA enrolment) apply to it like to any admin.
   * While four-eyes is on, adding an admin is itself a request another active admin approves (else one admin could make
   * the second pair of eyes); with one active admin, the second is added on the server (`pnpm admin:add`, ADMIN_EMAIL).
   */
  async create(actor: Actor, input: CreateAdminDto): Promise<AdminChangedDto | PendingApprovalDto> {
    const passwordHash = await hashPassword(input.password);
    if (this.gate.enabled) return this.requestCreate(actor, input, passwordHash);
    return this.db.transaction(async (tx) => {
      const created = await this.users.insert({ name: input.name, email: input.email, passwordHash, country: '-', role: 'admin' }, tx);
      if (!created) throw new ConflictError('An account with this email already exists.');
      await this.audit.record(
        actor,
        { action: 'admin.create', targetType: 'user', targetId: created.id, after: { name: created.name, email: created.email, role: 'admin' } },
        tx,
      );
      return {
        ok: true,
        message: 'Administrator added',
        admin: toAdminDto({ id: created.id, name: created.name, email: created.email, createdAt: created.createdAt, deactivatedAt: null }),
      };
    });
  }

  private requestCreate(actor: Actor, input: CreateAdminDto, passwordHash: string): Promise<PendingApprovalDto> {
    return this.db.transaction(async (tx) => {
      const active = await this.admins.lockActiveAdmins(tx);
      if (active.length <= 1)
        throw new ConflictError(
          'No other active administrator can approve this. Add the second administrator on the server: pnpm admin:add (or ADMIN_EMAIL and ADMIN_PASSWORD).',
        );
      if (await this.users.findByEmail(input.email, tx)) throw new ConflictError('An account with this email already exists.');
      const email = input.email.trim();
      return this.gate.requestAdminChange(
        actor,
        {
          action: 'create-admin',
          userId: null,
          transactionId: null,
          payload: { name: input.name, email },
          effect: { name: input.name, email, passwordHash },
          summary: `Add the administrator ${input.name} <${email}>`,
        },
        tx,
      );
    });
  }

  async deactivate(actor: Actor, id: string): Promise<AdminChangedDto> {
    if (!UUID_TEXT.test(id)) throw new NotFoundError(ADMIN_NOT_FOUND);
    if (id.toLowerCase() === actor.id.toLowerCase()) throw new ConflictError('You cannot deactivate your own account.');
    return this.db.transaction(async (tx) => {
      const active = await this.admins.lockActiveAdmins(tx);
      const target = active.find((admin) => admin.id === id.toLowerCase());
      if (!target) throw new NotFoundError(ADMIN_NOT_FOUND);
      if (active.length <= 1) throw new ConflictError('The last active administrator cannot be deactivated.');
      const at = await this.accounts.deactivate(target.id, actor.id, tx);
      // Every session of the deactivated admin ends now, on every instance.
      await this.sessions.revokeAll(target.id, {}, tx);
      await this.audit.record(
        actor,
        {
          action: 'admin.deactivate',
          targetType: 'user',
          targetId: target.id,
          before: { email: target.email, deactivatedAt: null },
          after: { deactivatedAt: at.toISOString() },
        },
        tx,
      );
      return { ok: true, message: 'Administrator deactivated', admin: toAdminDto({ ...target, deactivatedAt: at }) };
    });
  }

  async userDetail(id: string): Promise<UserDetailDto> {
    const profile = UUID_TEXT.test(id) ? await this.admins.profile(id) : undefined;
    if (!profile || profile.role !== 'user') throw new NotFoundError('User not found.');
    const [balances, notifications, tickets, audit, approvals, sessions, freeze] = await Promise.all([
      this.wallet.balancesOf([profile.id]),
      this.admins.notificationsOf(profile.id, 20),
      this.admins.ticketsOf(profile.id, 20),
      this.admins.auditAbout(profile.id, 50),
      this.approvals.list({ userId: profile.id, limit: 20 }),
      this.sessions.list(profile.id, ''),
      this.freezes.current(profile.id),
    ]);
    const symbols = await this.tokens.coinsByIds(postingTokens(approvals));
    const list = (balances.get(profile.id) ?? []).sort((a, b) => b.balance - a.balance);
    const total = list.reduce((sum, b) => sum.add(toMoney(b.coinAmountExact).mul(b.price)), toMoney(0));
    return {
      profile: {
        _id: profile.id,
        name: profile.name,
        email: profile.email,
        country: countryName(profile.country),
        role: profile.role,
        createdAt: profile.createdAt.toISOString(),
        deactivatedAt: profile.deactivatedAt?.toISOString() ?? null,
        erasedAt: profile.erasedAt?.toISOString() ?? null,
        freeze,
      },
      balances: list.map((b) => ({ tokenId: b.token, symbol: b.symbol, name: b.name, coinAmount: b.coinAmount, balance: b.balance })),
      totalBalance: usdNumber(total),
      notifications: notifications.map((n) => ({ _id: n.id, title: n.title, message: n.message, read: n.read, createdAt: n.createdAt.toISOString() })),
      tickets: tickets.map((t) => ({ _id: t.id, subject: t.subject, status: t.status, createdAt: t.createdAt.toISOString() })),
      audit: audit.map((a) => ({
        _id: String(a.id),
        action: a.action,
        actorEmail: a.actorEmail,
        after: a.after ?? null,
        createdAt: a.createdAt.toISOString(),
      })),
      approvals: approvals.map((row) => toApprovalDto(row, symbols)),
      sessions,
    };
  }
}
