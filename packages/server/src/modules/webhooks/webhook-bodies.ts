import { Injectable } from '@nestjs/common';
import { postingTokens, toApprovalDto } from '../approvals/approval-view';
import { ApprovalsRepository } from '../approvals/approvals.repository';
import { toChainDepositDto } from '../chain/chain-status.service';
import { toNotificationDto } from '../notifications/notifications.service';
import { plain } from '../ledger/money';
import { toTransactionDto } from '../wallet/wallet-common';
import { type ClaimedDelivery, WebhooksRepository } from './webhooks.repository';

/** The event id as receivers see it (`webhook-id` and the body's `id`): `evt_` and the 32 hex digits of the uuid. */
export function wireEventId(eventId: string): string {
  return `evt_${eventId.replace(/-/g, '')}`;
}

type Row = Record<string, unknown>;
const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
const date = (value: unknown): Date => new Date(String(value));

/**
 * The body of a delivery: `{ type, id, createdAt, data }`, `data` being the resource as the REST API answers it,
 * built by the same functions from the row the trigger kept as it was at the change (so each confirmation of a
 * deposit carries its own count). Rendered once, at the first try; every later try sends the stored bytes.
 */
@Injectable()
export class WebhookBodies {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly approvals: ApprovalsRepository,
  ) {}

  async render(
    delivery: Pick<ClaimedDelivery, 'eventId' | 'eventType' | 'sourceKind' | 'source' | 'createdAt'> & { ownerRole?: 'user' | 'admin' },
  ): Promise<string> {
    const data = await this.data(delivery.sourceKind, delivery.source, delivery.ownerRole === 'admin' ? 'admin' : 'customer');
    return JSON.stringify({ type: delivery.eventType, id: wireEventId(delivery.eventId), createdAt: delivery.createdAt.toISOString(), data });
  }

  /** `audience`: an administrator's endpoint gets what the admin API answers (a waiting payout's reason, say). */
  private async data(kind: string, source: Row, audience: 'customer' | 'admin'): Promise<unknown> {
    switch (kind) {
      case 'transaction':
        return this.transaction(source, audience);
      case 'notification':
        return toNotificationDto({
          id: String(source.id),
          userId: String(source.user_id),
          title: String(source.title),
          message: String(source.message),
          status: (source.status ?? null) as 'pending' | 'approved' | 'rejected' | null,
          read: Boolean(source.read),
          createdAt: date(source.created_at),
          transactionId: source.transaction_id ? String(source.transaction_id) : null,
        });
      case 'approval':
        return this.approval(source);
      case 'chain_deposit': {
        const coin = await this.webhooks.coinNames(String(source.token));
        return toChainDepositDto({
          id: String(source.id),
          network: String(source.network),
          txid: String(source.txid),
          outputIndex: Number(source.output_index),
          userId: String(source.user_id),
          token: String(source.token),
          symbol: coin?.symbol ?? null,
          tokenName: coin?.name ?? null,
          address: String(source.address),
          amount: String(source.amount),
          state: source.state as Parameters<typeof toChainDepositDto>[0]['state'],
          confirmations: Number(source.confirmations),
          requiredConfirmations: Number(source.required_confirmations),
          blockHeight: source.block_height === null || source.block_height === undefined ? null : Number(source.block_height),
          review: (source.review ?? null) as Parameters<typeof toChainDepositDto>[0]['review'],
          reviewResolution: (source.review_resolution ?? null) as Parameters<typeof toChainDepositDto>[0]['reviewResolution'],
          transactionId: text(source.transaction_id),
          createdAt: date(source.created_at),
        });
      }
      case 'house': {
        // The house exposure alert of a token opened (house.exposure) or closed (house.recovered).
        const coin = await this.webhooks.coinNames(String(source.token));
        return {
          token: String(source.token),
          symbol: coin?.symbol ?? null,
          name: coin?.name ?? null,
          position: source.position === null || source.position === undefined ? null : plain(String(source.position)),
          minPositionUsd: plain(String(source.min_position_usd ?? '0')),
          alertedAt: date(source.alerted_at).toISOString(),
          recoveredAt: source.recovered_at ? date(source.recovered_at).toISOString() : null,
        };
      }
      default:
        return source;
    }
  }

  private async transaction(source: Row, audience: 'customer' | 'admin'): Promise<unknown> {
    const userId = String(source.user_id);
    const token = String(source.token);
    const context = await this.webhooks.transactionContext(userId, token);
    return toTransactionDto(
      {
        id: String(source.id),
        userId,
        type: source.type as 'deposit',
        token,
        network: text(source.network),
        address: text(source.address),
        coinAmount: String(source.coin_amount),
        usdAmount: String(source.usd_amount),
        price: text(source.price),
        status: source.status as 'pending',
        direction: source.direction as 'in',
        note: text(source.note),
        details: (source.details ?? null) as Record<string, unknown> | null,
        createdAt: date(source.created_at),
        voidedAt: null,
        ...context,
      },
      audience,
    );
  }

  /** The request as the approvals list shows it, its status and decision as they were at the event. */
  private async approval(source: Row): Promise<unknown> {
    const [row] = await this.approvals.list({ id: String(source.id), limit: 1 });
    if (!row) return { _id: source.id, status: source.status };
    const decided = source.status !== 'pending';
    const symbols = await this.webhooks.symbolsOf(postingTokens([row]));
    return toApprovalDto(
      {
        ...row,
        status: source.status as typeof row.status,
        decidedBy: decided ? (text(source.decided_by) ?? row.decidedBy) : null,
        decidedAt: decided && source.decided_at ? date(source.decided_at) : decided ? row.decidedAt : null,
        decisionReason: decided ? (text(source.decision_reason) ?? row.decisionReason) : null,
        deciderName: decided ? row.deciderName : null,
        deciderEmail: decided ? row.deciderEmail : null,
      },
      symbols,
    );
  }
}
