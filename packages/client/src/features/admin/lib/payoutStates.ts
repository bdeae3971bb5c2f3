import type { TransactionDto } from '../../../api/generated/adminTransactionsApi.generated';

type PayoutState = NonNullable<TransactionDto['payoutState']>;

/** Where a withdrawal's payment on the chain stands, in words for the back office. */
export const PAYOUT_STATE_TEXT: Record<PayoutState, string> = {
  approved: 'Queued for the signer',
  awaiting_funds: 'Waiting for funds in the hot wallet',
  awaiting_cold_signature: 'Awaiting cold signature',
  signed: 'Signed, being sent',
  broadcast: 'Sent, waiting for a block',
  confirming: 'Confirming',
  completed: 'Paid on the chain',
  failed: 'Payout failed, amount returned',
};
