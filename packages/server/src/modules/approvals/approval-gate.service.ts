import { Inject, Injectable } from '@nestjs/common';
import { type ApprovalAction, type PendingApprovalDto, SENT_FOR_APPROVAL_MESSAGE } from '@coinpurse/contract';
import type { Actor } from '../../common/principal';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import type { Tx } from '../../db/database';
import { AuditService } from '../audit/audit.service';
import { type BoundEffect, boundLines, type GateReason, isGated, refundsSettledWithdrawal } from '../ledger/four-eyes-policy';
import type { Leg } from '../ledger/ledger.service';
import { type IdempotencyContext, IdempotencyService } from '../ledger/idempotency';
import { type Money, plain, toMoney } from '../ledger/money';
import { ApprovalsRepository } from './approvals.repository';

export interface GatedAction {
  action: ApprovalAction;
  userId: string | null;
  transactionId: string | null;
  /** The request body as sent (for people). */
  payload: Record<string, unknown>;
  /** What an approval applies, exactly (see BoundEffect). */
  effect: BoundEffect;
  /** USD value at current prices. */
  usd: Money;
  summary: string;
  reason?: string | null;
  /** What kind of movement it is, besides its value (e.g. a refund of a settled withdrawal), for the approver. */
  kinds?: GateReason[];
}

/** An admin money action as the gate is asked about it: what it moves is given as its ledger legs (see `holdIfGated`). */
export interface GateRequest extends Omit<GatedAction, 'effect' | 'kinds'> {
  /** The basis the legs were decided from (the price; a balance; a status), bound with their lines. */
  basis?: Omit<BoundEffect, 'lines'>;
}

export function isPendingApproval(body: unknown): body is PendingApprovalDto {
  return typeof body === 'object' && body !== null && (body as { pendingApproval?: unknown }).pendingApproval === true;
}

/** A four-eyes hold answers 202 Accepted instead of the route's usual status. */
export async function answer<T>(reply: { status(code: number): unknown }, result: Promise<T>): Promise<T> {
  const body = await result;
  if (isPendingApproval(body)) reply.status(202);
  return body;
}

/**
 * Four-eyes policy for admin money actions (which movements: see four-eyes-policy.ts). A direct action waits for a
 * second admin when its USD value reaches APPROVAL_THRESHOLD_USD, or when it would take the sum of direct actions over
 * the last APPROVAL_WINDOW_HOURS — this admin's, or any admin's on this customer — to the threshold (no structuring into
 * smaller actions). A held action is stored with its bound effect in the caller's transaction (so nothing else of it
 * happens) and the route answers 202; an action that goes ahead is counted in the window in the same transaction.
 */
@Injectable()
export class ApprovalGate {
  private readonly threshold: Money;
  private readonly windowMs: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly approvals: ApprovalsRepository,
    private readonly audit: AuditService,
    private readonly idempotency: IdempotencyService,
  ) {
    this.threshold = toMoney(config.approvalThresholdUsd);
    this.windowMs = config.approvalWindowHours * 3_600_000;
  }

  get enabled(): boolean {
    return this.threshold.gt(0);
  }

  /**
   * Whether this actor's gated actions are decided by the gate (under its locks, in a transaction): every direct admin
   * action while four-eyes is on, since the window's sums decide too. Never while a second admin applies an approval.
   */
  decides(actor: Actor): boolean {
    return this.enabled && !actor.approval;
  }

  /**
   * The four-eyes hold, written once for every admin money action (plan → legs → gated? → hold): a movement that crosses
   * what is owed to customers (`isGated`) goes to `hold` with these legs bound as its lines (and the approver told when
   * it pays a settled withdrawal back). Undefined: go ahead. Otherwise its 202 body; the caller must stop there.
   */
  holdIfGated(actor: Actor, legs: Leg[], request: GateRequest, tx: Tx, idem?: IdempotencyContext): Promise<PendingApprovalDto | undefined> {
    if (!isGated(legs)) return Promise.resolve(undefined);
    const { basis, ...action } = request;
    const effect: BoundEffect = { lines: boundLines(legs), ...basis };
    return this.hold(actor, { ...action, effect, kinds: refundsSettledWithdrawal(legs) ? ['settled-refund'] : [] }, tx, idem);
  }

  /** Undefined: go ahead (counted in the window). Otherwise the request is stored and its 202 body returned; the caller must stop there. */
  private async hold(actor: Actor, action: GatedAction, tx: Tx, idem?: IdempotencyContext): Promise<PendingApprovalDto | undefined> {
    if (!this.decides(actor)) return undefined;
    const reasons = await this.reasonsToHold(actor.id, action.userId, action.usd, tx);
    if (!reasons.length) {
      await this.approvals.recordDirect(actor.id, action.userId, plain(action.usd.toDecimalPlaces(8)), tx);
      return undefined;
    }
    return this.store(actor, { ...action, kinds: [...reasons, ...(action.kinds ?? [])] }, tx, idem);
  }

  /** An administrator change (or a fee schedule change): always a request another active admin approves (not a money action, no value). */
  requestAdminChange(
    actor: Actor,
    action: Omit<GatedAction, 'usd' | 'effect' | 'kinds'> & { effect: Record<string, unknown> },
    tx: Tx,
    kinds: GateReason[] = ['admin-change'],
  ): Promise<PendingApprovalDto> {
    return this.store(actor, { ...action, effect: action.effect as unknown as BoundEffect, usd: toMoney(0), kinds }, tx);
  }

  private async reasonsToHold(adminId: string, userId: string | null, usd: Money, tx: Tx): Promise<GateReason[]> {
    if (usd.gte(this.threshold)) return ['threshold'];
    await this.approvals.lockVelocity(adminId, userId, tx);
    const sums = await this.approvals.directSums(adminId, userId, new Date(Date.now() - this.windowMs), tx);
    return usd.add(sums.admin).gte(this.threshold) || usd.add(sums.customer).gte(this.threshold) ? ['velocity'] : [];
  }

  private async store(actor: Actor, action: GatedAction, tx: Tx, idem?: IdempotencyContext): Promise<PendingApprovalDto> {
    const row = await this.approvals.insert(
      {
        action: action.action,
        requestedBy: actor.id,
        userId: action.userId,
        transactionId: action.transactionId,
        payload: action.payload,
        effect: action.effect as unknown as Record<string, unknown>,
        gateReasons: action.kinds ?? [],
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
        after: {
          action: action.action,
          userId: action.userId,
          transactionId: action.transactionId,
          usd: row.usdValue,
          payload: action.payload,
          gatedBecause: row.gateReasons,
        },
      },
      tx,
    );
    const body: PendingApprovalDto = { pendingApproval: true, approvalId: row.id, message: SENT_FOR_APPROVAL_MESSAGE };
    await this.idempotency.complete(idem, 202, body, tx);
    return body;
  }
}
