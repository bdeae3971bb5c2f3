import { Inject, Injectable } from '@nestjs/common';
import { type ApprovalAction, type PendingApprovalDto, SENT_FOR_APPROVAL_MESSAGE } from '@coinpurse/contract';
import type { Actor } from '../../common/principal';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import type { Tx } from '../../db/database';
import { AuditService } from '../audit/audit.service';
import { type IdempotencyContext, IdempotencyService } from '../ledger/idempotency';
import { type Money, plain, toMoney } from '../ledger/money';
import { ApprovalsRepository } from './approvals.repository';

export interface GatedAction {
  action: ApprovalAction;
  userId: string | null;
  transactionId: string | null;
  /** The request body as sent; the approval applies exactly this. */
  payload: Record<string, unknown>;
  /** USD value at current prices. */
  usd: Money;
  summary: string;
  reason?: string | null;
}

export function isPendingApproval(body: unknown): body is PendingApprovalDto {
  return typeof body === 'object' && body !== null && (body as { pendingApproval?: unknown }).pendingApproval === true;
}

/**
 * Four-eyes policy for admin money actions: at or above APPROVAL_THRESHOLD_USD the action is stored as an approval
 * request (in the caller's transaction, so nothing else of it happens) and the route answers 202.
 */
@Injectable()
export class ApprovalGate {
  private readonly threshold: Money;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly approvals: ApprovalsRepository,
    private readonly audit: AuditService,
    private readonly idempotency: IdempotencyService,
  ) {
    this.threshold = toMoney(config.approvalThresholdUsd);
  }

  get enabled(): boolean {
    return this.threshold.gt(0);
  }

  /** Whether an action of this USD value needs a second admin (never while one is applying an approval). */
  requiresApproval(actor: Actor, usd: Money): boolean {
    return this.enabled && !actor.approval && usd.gte(this.threshold);
  }

  /** Undefined: go ahead. Otherwise the request is stored and its 202 body returned; the caller must stop there. */
  async hold(actor: Actor, action: GatedAction, tx: Tx, idem?: IdempotencyContext): Promise<PendingApprovalDto | undefined> {
    if (!this.requiresApproval(actor, action.usd)) return undefined;
    const row = await this.approvals.insert(
      {
        action: action.action,
        requestedBy: actor.id,
        userId: action.userId,
        transactionId: action.transactionId,
        payload: action.payload,
        usdValue: plain(action.usd.toDecimalPlaces(8)),
        summary: action.summary,
        reason: action.reason ?? null,
      },
      tx,
    );
    await this.audit.record(
      actor,
      {
        action: 'approval.request',
        targetType: 'approval',
        targetId: row.id,
        after: { action: action.action, userId: action.userId, transactionId: action.transactionId, usd: row.usdValue, payload: action.payload },
      },
      tx,
    );
    const body: PendingApprovalDto = { pendingApproval: true, approvalId: row.id, message: SENT_FOR_APPROVAL_MESSAGE };
    await this.idempotency.complete(idem, 202, body, tx);
    return body;
  }
}
