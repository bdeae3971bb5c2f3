import { Inject, Injectable } from '@nestjs/common';
import type { AccountFreezeChangedDto, AccountFreezeDto, PendingApprovalDto } from '@coinpurse/contract';
import { ConflictError, NotFoundError } from '../../common/errors';
import { UUID_TEXT } from '../../common/page-cursor';
import type { Actor } from '../../common/principal';
import { DATABASE, type Database, type Tx } from '../../db/database';
import { inTransaction } from '../../db/in-transaction';
import { ApprovalGate } from '../approvals/approval-gate.service';
import { AuditService } from '../audit/audit.service';
import { NotificationsService } from '../notifications/notifications.service';
import { type AccountFreezeRecord, AccountFreezesRepository } from './account-freezes.repository';

const CUSTOMER_NOT_FOUND = 'Customer not found.';

export function toFreezeDto(row: AccountFreezeRecord | undefined): AccountFreezeDto | null {
  return row ? { reason: row.reason, frozenAt: row.frozenAt.toISOString(), frozenBy: row.frozenBy } : null;
}

/**
 * Frozen accounts: an admin freezes or unfreezes a customer with a reason (audited; with four-eyes on, a request a second
 * admin approves), or sanctions screening freezes one (`freezeBySystem`). What a freeze refuses is written in SQL
 * (`cp_require_unfrozen` in cp_send / cp_swap) and in the API key check; deposits and sign-in go on.
 */
@Injectable()
export class AccountFreezesService {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly freezes: AccountFreezesRepository,
    private readonly gate: ApprovalGate,
    private readonly audit: AuditService,
    private readonly notifications: NotificationsService,
  ) {}

  async current(userId: string): Promise<AccountFreezeDto | null> {
    return toFreezeDto(await this.freezes.find(userId));
  }

  /** Freezes the customer now, or (four-eyes on) asks a second admin to. `applying`: the second admin applies the request. */
  freeze(actor: Actor, userId: string, reason: string, applying?: Tx): Promise<AccountFreezeChangedDto | PendingApprovalDto> {
    return this.change(actor, userId, reason, true, applying);
  }

  unfreeze(actor: Actor, userId: string, reason: string, applying?: Tx): Promise<AccountFreezeChangedDto | PendingApprovalDto> {
    return this.change(actor, userId, reason, false, applying);
  }

  private change(actor: Actor, id: string, reason: string, frozen: boolean, applying?: Tx): Promise<AccountFreezeChangedDto | PendingApprovalDto> {
    if (!UUID_TEXT.test(id)) throw new NotFoundError(CUSTOMER_NOT_FOUND);
    const userId = id.toLowerCase();
    const run = async (tx: Tx): Promise<AccountFreezeChangedDto | PendingApprovalDto> => {
      const customer = await this.freezes.lockCustomer(userId, tx);
      if (!customer) throw new NotFoundError(CUSTOMER_NOT_FOUND);
      const before = await this.freezes.find(userId, tx);
      if (frozen && before) throw new ConflictError('This account is already frozen.');
      if (!frozen && !before) throw new ConflictError('This account is not frozen.');
      if (this.gate.decides(actor)) {
        return this.gate.requestAdminChange(
          actor,
          {
            action: frozen ? 'freeze-account' : 'unfreeze-account',
            userId,
            transactionId: null,
            payload: { reason },
            effect: { frozen },
            summary: `${frozen ? 'Freeze' : 'Unfreeze'} the account of ${customer.name} <${customer.email}>`,
            reason,
          },
          tx,
          ['account-freeze'],
        );
      }
      const after = frozen ? await this.freezes.insert(userId, reason, actor.id, tx) : await this.freezes.delete(userId, tx);
      await this.audit.record(
        actor,
        {
          action: frozen ? 'account.freeze' : 'account.unfreeze',
          targetType: 'user',
          targetId: userId,
          before: { frozen: !frozen, ...(before ? { reason: before.reason } : {}) },
          after: { frozen, reason },
        },
        tx,
      );
      await this.notifications.notify(
        {
          userId,
          title: frozen ? 'Account frozen' : 'Account unfrozen',
          message: frozen
            ? 'Your account was frozen: you can sign in and see it, and deposits still arrive, but nothing can be sent, swapped or withdrawn. Please contact support.'
            : 'Your account was unfrozen: sending, swapping and withdrawing work again.',
          status: frozen ? 'rejected' : 'approved',
        },
        tx,
      );
      return { message: frozen ? 'Account frozen' : 'Account unfrozen', userId, freeze: frozen ? toFreezeDto(after) : null };
    };
    return applying ? run(applying) : inTransaction(this.db, run);
  }

  /**
   * Sanctions screening's freeze (no admin: the audit row's actor is the system), in the caller's transaction. False when the
   * account was frozen already (its first reason stays).
   */
  async freezeBySystem(userId: string, reason: string, tx: Tx): Promise<boolean> {
    await this.freezes.lockCustomer(userId, tx);
    const row = await this.freezes.insert(userId, reason, null, tx);
    if (!row) return false;
    await this.audit.record(
      null,
      { action: 'account.freeze', targetType: 'user', targetId: userId, before: { frozen: false }, after: { frozen: true, reason, by: 'sanctions screening' } },
      tx,
    );
    return true;
  }
}
