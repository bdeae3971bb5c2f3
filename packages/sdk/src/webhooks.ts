import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { components } from '../generated/openapi.generated';

type Schemas = components['schemas'];

/** The `data` of each event: the resource as the REST API answers it. */
export interface WebhookEventData {
  'deposit.pending': Schemas['TransactionDto'];
  'deposit.confirmed': Schemas['TransactionDto'];
  'deposit.credited': Schemas['TransactionDto'];
  'withdrawal.created': Schemas['TransactionDto'];
  'withdrawal.approved': Schemas['TransactionDto'];
  'withdrawal.broadcast': Schemas['TransactionDto'];
  'withdrawal.completed': Schemas['TransactionDto'];
  'withdrawal.failed': Schemas['TransactionDto'];
  'swap.completed': Schemas['TransactionDto'];
  'balance.adjusted': Schemas['TransactionDto'];
  'notification.created': Schemas['NotificationDto'];
  'approval.requested': Schemas['ApprovalDto'];
  'approval.decided': Schemas['ApprovalDto'];
  'deposit.review_required': Schemas['ChainDepositDto'];
  'payout.awaiting_funds': Schemas['TransactionDto'];
  'payout.awaiting_cold_signature': Schemas['TransactionDto'];
  'webhook.test': { endpointId: string; message: string };
}

export type WebhookEventType = keyof WebhookEventData;

/** A delivered event: its type, its id (the `webhook-id` header, the same on every retry), when it happened, its data. */
export type WebhookEvent = { [T in WebhookEventType]: { type: T; id: string; createdAt: string; data: WebhookEventData[T] } }[WebhookEventType];

/** The request headers of a delivery, as Node (`req.headers`) or the Fetch API (`Headers`) gives them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export { WebhookVerificationError };

/**
 * Checks a delivery's signature (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`) with the
 * endpoint's secret (`whsec_…`) and returns the event. Throws WebhookVerificationError when the signature does not
 * match or the timestamp is more than five minutes off: answer 400 and ignore the body. Pass the body exactly as
 * received (the raw text, not re-serialised JSON). Events may come twice: drop an `id` you have handled already.
 */
export function verifyWebhook(payload: string | Buffer, headers: WebhookHeaders, secret: string): WebhookEvent {
  const header = (name: string): string => {
    const value = headers instanceof Headers ? headers.get(name) : headers[name];
    return Array.isArray(value) ? value.join(',') : (value ?? '');
  };
  return new Webhook(secret).verify(payload, {
    'webhook-id': header('webhook-id'),
    'webhook-timestamp': header('webhook-timestamp'),
    'webhook-signature': header('webhook-signature'),
  }) as WebhookEvent;
}
