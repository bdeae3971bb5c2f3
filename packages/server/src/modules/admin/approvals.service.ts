import { Inject, Injectable } from '@nestjs/common';
import type { ApprovalDecisionDto, ApprovalDto, ApprovalsQueryDto, DepositDto, ModifyTransactionDto, UpdateBalanceDto } from '@coinpurse/contract';
import { ConflictError, DomainError, ForbiddenError, InvalidInputError, NotFoundError } from '../../common/errors';
import type { Actor } from '../../common/principal';
import { DATABASE, type Database, type Tx } from '../../db/database';
import { AuditService } from '../audit/audit.service';
import { inTransaction } from '../ledger/db-transaction';
import { plain } from '../ledger/money';
import { AdminTransactionsService } from '../wallet/admin-transactions.service';
import { AdminsRepository } from './admins.repository';
import { type ApprovalRecord, type ApprovalView, ApprovalsRepository } from './approvals.repository';
import { UUID_TEXT } from './page-cursor';

const APPROVAL_NOT_FOUND = 'Approval request not found.';

/** The action could not be applied as requested any more: 409, and the request stays pending with the reason. */
class StaleApprovalError extends ConflictError {}

export function toApprovalDto(row: ApprovalView): ApprovalDto {
  return {
    _id: row.id,
    action: row.action,
    status: row.status,
    summary: row.summary,
    reason: row.reason,
    usdValue: plain(row.usdValue),
    payload: row.payload,
    userId: row.userId,
    userEmail: row.userEmail,
    transactionId: row.transactionId,
    requestedBy: { _id: row.requestedBy, name: row.requesterName, email: row.requesterEmail },
    createdAt: row.createdAt.toISOString(),
    decidedBy: row.decidedBy ? { _id: row.decidedBy, name: row.deciderName ?? '', email: row.deciderEmail ?? '' } : null,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    decisionReason: row.decisionReason,
    lastError: row.lastError,
  };
}

/** Second-admin decisions on four-eyes requests: approve (apply exactly as requested, once) or reject. */
@Injectable()
export class ApprovalsService {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly approvals: ApprovalsRepository,
    private readonly admins: AdminsRepository,
    private readonly transactions: AdminTransactionsService,
    private readonly audit: AuditService,
  ) {}

  async list(query: ApprovalsQueryDto): Promise<ApprovalDto[]> {
    return (await this.approvals.list({ status: query.status, limit: 200 })).map(toApprovalDto);
  }

  private async view(id: string, executor: Database | Tx = this.db): Promise<ApprovalDto> {
    const [row] = await this.approvals.list({ id, limit: 1 }, executor);
    return toApprovalDto(row);
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

  /** Runs the same service method the admin route runs, in this transaction; what no longer holds becomes a 409. */
  private async apply(row: ApprovalRecord, actor: Actor, tx: Tx): Promise<void> {
    try {
      const payload = row.payload;
      switch (row.action) {
        case 'deposit':
          await this.transactions.deposit(actor, row.userId!, payload as unknown as DepositDto, undefined, tx);
          return;
        case 'update-balance':
          await this.transactions.updateBalance(actor, row.userId!, payload as unknown as UpdateBalanceDto, undefined, tx);
          return;
        case 'modify-transaction':
          await this.transactions.modify(actor, payload as unknown as ModifyTransactionDto, tx);
          return;
        case 'delete-trx': {
          const state = await this.admins.lockTransactionState(row.transactionId!, tx);
          if (!state || state.voided || state.status !== 'approved')
            throw new StaleApprovalError('This transaction changed since the request (deleted or no longer approved), so it was not applied.');
          await this.transactions.void(actor, row.transactionId!, tx);
          return;
        }
      }
    } catch (error) {
      if (error instanceof StaleApprovalError) throw error;
      if (error instanceof ConflictError || error instanceof NotFoundError || error instanceof InvalidInputError)
        throw new StaleApprovalError(`It can no longer be applied as requested: ${(error as DomainError).message}`);
      throw error;
    }
  }
}
