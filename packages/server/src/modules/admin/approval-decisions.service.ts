import { Inject, Injectable } from '@nestjs/common';
import type {
  ApprovalDecisionDto,
  ApprovalDto,
  ApprovalsQueryDto,
  DepositDto,
  ModifyTransactionDto,
  UpdateBalanceDto,
  UpdateLevelLimitsDto,
} from '@coinpurse/contract';
import { postingTokens, toApprovalDto } from '../approvals/approval-view';
import { ConflictError, DomainError, ForbiddenError, InvalidInputError, NotFoundError } from '../../common/errors';
import { UsersRepository } from '../auth/users.repository';
import { type BoundEffect, StaleApprovalError } from '../ledger/four-eyes-policy';
import type { Actor } from '../../common/principal';
import { DATABASE, type Database, type Tx } from '../../db/database';
import { ChainDepositReversals } from '../approvals/chain-deposit-reversals';
import { DepositHoldReleases } from '../approvals/deposit-hold-releases';
import { FeeScheduleChanges } from '../approvals/fee-schedule-changes';
import { AuditService } from '../audit/audit.service';
import { AccountFreezesService } from '../compliance/account-freezes.service';
import { inTransaction } from '../../db/in-transaction';
import type { Applying } from '../approvals/applying';
import { AdminDepositsService } from './admin-deposits.service';
import { BalanceAdjustmentsService } from './balance-adjustments.service';
import { WalletTokensRepository } from '../wallet/wallet-tokens.repository';
import { AdminsRepository } from './admins.repository';
import { type ApprovalRecord, ApprovalsRepository } from '../approvals/approvals.repository';
import { UUID_TEXT } from '../../common/page-cursor';
import { TransactionStatusService } from './transaction-status.service';
import { TransactionVoidsService } from './transaction-voids.service';
import { VerificationLimitsService } from '../verification/verification-limits.service';

const APPROVAL_NOT_FOUND = 'Approval request not found.';

/** The new administrator a create-admin request binds (the password hash never leaves the server). */
interface NewAdminEffect {
  name: string;
  email: string;
  passwordHash: string;
}

/** Second-admin decisions on four-eyes requests: approve (apply exactly as requested, once) or reject. */
@Injectable()
export class ApprovalDecisionsService {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly approvals: ApprovalsRepository,
    private readonly admins: AdminsRepository,
    private readonly users: UsersRepository,
    private readonly tokens: WalletTokensRepository,
    private readonly deposits: AdminDepositsService,
    private readonly statuses: TransactionStatusService,
    private readonly voids: TransactionVoidsService,
    private readonly adjustments: BalanceAdjustmentsService,
    private readonly audit: AuditService,
    private readonly chainDeposits: ChainDepositReversals,
    private readonly verificationLimits: VerificationLimitsService,
    private readonly feeChanges: FeeScheduleChanges,
    private readonly freezes: AccountFreezesService,
    private readonly holdReleases: DepositHoldReleases,
  ) {}

  async list(query: ApprovalsQueryDto): Promise<ApprovalDto[]> {
    const rows = await this.approvals.list({ status: query.status, limit: 200 });
    const symbols = await this.tokens.coinsByIds(postingTokens(rows));
    return rows.map((row) => toApprovalDto(row, symbols));
  }

  private async view(id: string, executor: Database | Tx = this.db): Promise<ApprovalDto> {
    const [row] = await this.approvals.list({ id, limit: 1 }, executor);
    return toApprovalDto(row, await this.tokens.coinsByIds(postingTokens([row]), executor));
  }

  /** The pending request, locked; otherwise 404 (unknown) or 409 (already decided). */
  private async lockPending(id: string, tx: Tx): Promise<ApprovalRecord> {
    if (!UUID_TEXT.test(id)) throw new NotFoundError(APPROVAL_NOT_FOUND);
    const row = await this.approvals.lockPending(id, tx);
    if (row) return row;
    const [existing] = await this.approvals.list({ id, limit: 1 }, tx);
    if (!existing) throw new NotFoundError(APPROVAL_NOT_FOUND);
    throw new ConflictError(`This request was already ${existing.status}.`);
  }

  async approve(actor: Actor, id: string): Promise<ApprovalDecisionDto> {
    try {
      return await inTransaction(this.db, async (tx) => {
        const row = await this.lockPending(id, tx);
        if (row.requestedBy === actor.id) throw new ForbiddenError('You cannot approve your own request: another admin must approve it.');
        // An admin added after the request (perhaps by its requester, to approve it) is no second pair of eyes for it.
        const approver = await this.users.findById(actor.id, tx);
        if (!approver || approver.createdAt >= row.createdAt) throw new ForbiddenError('An administrator added after this request was made cannot approve it.');
        await this.apply(row, { ...actor, approval: { id: row.id, requestedBy: row.requestedBy } }, tx);
        if (!(await this.approvals.decide(row.id, 'approved', actor.id, null, tx))) throw new ConflictError('This request was already decided.');
        await this.audit.record(
          actor,
          {
            action: 'approval.approve',
            targetType: 'approval',
            targetId: row.id,
            before: { status: 'pending' },
            after: { status: 'approved', action: row.action, requestedBy: row.requestedBy, approvedBy: actor.id, usd: row.usdValue },
          },
          tx,
        );
        return { message: 'Approved and applied.', approval: await this.view(row.id, tx) };
      });
    } catch (error) {
      if (error instanceof StaleApprovalError) await this.approvals.recordFailure(id, error.message);
      throw error;
    }
  }

  async reject(actor: Actor, id: string, reason: string): Promise<ApprovalDecisionDto> {
    return inTransaction(this.db, async (tx) => {
      const row = await this.lockPending(id, tx);
      await this.approvals.decide(row.id, 'rejected', actor.id, reason, tx);
      await this.audit.record(
        actor,
        {
          action: 'approval.reject',
          targetType: 'approval',
          targetId: row.id,
          before: { status: 'pending' },
          after: { status: 'rejected', action: row.action, requestedBy: row.requestedBy, rejectedBy: actor.id, reason },
        },
        tx,
      );
      return { message: 'Request rejected: nothing was changed.', approval: await this.view(row.id, tx) };
    });
  }

  /**
   * Runs the same service method the admin route runs, in this transaction, bound to the request's effect: the same
   * ledger lines from the same balance or status, or a 409 and nothing moves.
   */
  private async apply(row: ApprovalRecord, actor: Actor, tx: Tx): Promise<void> {
    try {
      const payload = row.payload;
      const applying: Applying = { tx, effect: row.effect as unknown as BoundEffect | null };
      switch (row.action) {
        case 'deposit':
          await this.deposits.deposit(actor, row.userId!, payload as unknown as DepositDto, undefined, applying);
          return;
        case 'update-balance':
          await this.adjustments.updateBalance(actor, row.userId!, payload as unknown as UpdateBalanceDto, undefined, applying);
          return;
        case 'modify-transaction':
          await this.statuses.modify(actor, payload as unknown as ModifyTransactionDto, applying);
          return;
        case 'delete-trx': {
          const state = await this.admins.lockTransactionState(row.transactionId!, tx);
          const expected = applying.effect?.status ?? 'approved';
          if (!state || state.voided || state.status !== expected)
            throw new StaleApprovalError(`This transaction changed since the request (deleted or no longer ${expected}), so it was not applied.`);
          await this.voids.void(actor, row.transactionId!, applying);
          return;
        }
        case 'create-admin':
          await this.createAdmin(actor, row.effect as unknown as NewAdminEffect, tx);
          return;
        case 'freeze-account':
          await this.freezes.freeze(actor, row.userId!, String(payload.reason), tx);
          return;
        case 'unfreeze-account':
          await this.freezes.unfreeze(actor, row.userId!, String(payload.reason), tx);
          return;
        case 'reverse-chain-deposit':
          await this.chainDeposits.takeBack(actor, String(payload.depositId), { reason: String(payload.reason) }, applying);
          return;
        case 'release-deposit-hold':
          await this.holdReleases.release(actor, String(payload.depositId), { reason: String(payload.reason) }, applying);
          return;
        case 'update-verification-limits': {
          const { level, ...limits } = payload as unknown as UpdateLevelLimitsDto & { level: string };
          await this.verificationLimits.update(actor, level, limits, { tx });
          return;
        }
        case 'change-fees': {
          const effect = row.effect as unknown as { token: string; change: Record<string, unknown> };
          await this.feeChanges.apply(actor, effect.token, effect.change, tx);
          return;
        }
      }
    } catch (error) {
      if (error instanceof StaleApprovalError) throw error;
      if (error instanceof ForbiddenError) throw error;
      if (error instanceof ConflictError || error instanceof NotFoundError || error instanceof InvalidInputError)
        throw new StaleApprovalError(`It can no longer be applied as requested: ${(error as DomainError).message}`);
      throw error;
    }
  }

  /** The approved new administrator: created now (so it cannot approve anything requested before), audited with both admins. */
  private async createAdmin(actor: Actor, admin: NewAdminEffect, tx: Tx): Promise<void> {
    const created = await this.users.insert({ name: admin.name, email: admin.email, passwordHash: admin.passwordHash, country: '-', role: 'admin' }, tx);
    if (!created) throw new StaleApprovalError('An account with this email was created since the request, so it was not applied.');
    await this.audit.record(
      actor,
      {
        action: 'admin.create',
        targetType: 'user',
        targetId: created.id,
        // AuditService adds the approval (requested by, approved by) from the actor.
        after: { name: created.name, email: created.email, role: 'admin' },
      },
      tx,
    );
  }
}
