import type { Owner, WebhookEvent } from '../hooks/useIntegrationsApi';

/** The scopes an owner's key may take, each with what it allows (docs/integrate/api-keys.md). */
export const SCOPES: Record<Owner, Array<{ scope: 'read' | 'trade' | 'withdraw' | 'operate'; label: string; hint: string }>> = {
  user: [
    { scope: 'read', label: 'Read', hint: 'Balances, history, notifications, the own webhooks' },
    { scope: 'trade', label: 'Trade', hint: 'Swaps' },
    { scope: 'withdraw', label: 'Withdraw', hint: 'Sends to addresses saved in your address book (allowlist on)' },
  ],
  admin: [
    { scope: 'read', label: 'Read', hint: 'Every back-office list and export' },
    { scope: 'operate', label: 'Operate', hint: 'Back-office changes (never approving or rejecting a four-eyes request)' },
  ],
};

const CUSTOMER_EVENTS: Array<{ event: WebhookEvent; label: string }> = [
  { event: 'deposit.pending', label: 'Deposit pending' },
  { event: 'deposit.confirmed', label: 'Deposit confirmation' },
  { event: 'deposit.credited', label: 'Deposit credited' },
  { event: 'deposit.dropped', label: 'Deposit dropped (never credited)' },
  { event: 'withdrawal.created', label: 'Withdrawal requested' },
  { event: 'withdrawal.approved', label: 'Withdrawal approved' },
  { event: 'withdrawal.broadcast', label: 'Withdrawal broadcast' },
  { event: 'withdrawal.completed', label: 'Withdrawal completed' },
  { event: 'withdrawal.failed', label: 'Withdrawal failed' },
  { event: 'swap.completed', label: 'Swap completed' },
  { event: 'balance.adjusted', label: 'Balance adjusted' },
  { event: 'notification.created', label: 'Notification' },
];

const ADMIN_EVENTS: Array<{ event: WebhookEvent; label: string }> = [
  { event: 'approval.requested', label: 'Approval requested' },
  { event: 'approval.decided', label: 'Approval decided' },
  { event: 'deposit.review_required', label: 'Deposit to review' },
  { event: 'payout.awaiting_funds', label: 'Payout awaiting funds' },
  { event: 'payout.awaiting_cold_signature', label: 'Payout awaiting cold signature' },
  { event: 'house.exposure', label: 'House position too low' },
  { event: 'house.recovered', label: 'House position recovered' },
];

/** The events an owner's endpoint may take: an administrator's get every customer's too. */
export function eventsOf(owner: Owner): Array<{ event: WebhookEvent; label: string }> {
  return owner === 'admin' ? [...CUSTOMER_EVENTS, ...ADMIN_EVENTS] : CUSTOMER_EVENTS;
}

/** Addresses typed one per line or separated by commas or spaces, without blanks. */
export function splitAddresses(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** A `datetime-local` value (the reader's local time) as an ISO instant, or undefined when empty. */
export function localDateTimeToIso(value: string): string | undefined {
  if (!value) return undefined;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}
