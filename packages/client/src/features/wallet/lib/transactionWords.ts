import type { TransactionDto } from '../../../api/generated/walletApi.generated';

/** What a customer reads about a transaction: what happened, where it stands, a withdrawal's steps. */

export function isIncoming(tx: Pick<TransactionDto, 'direction' | 'type'>): boolean {
  if (tx.direction) return tx.direction === 'in';
  return tx.type === 'deposit';
}

/** "Received Litecoin", "Sent Litecoin", "Swapped Bitcoin for Ethereum", "Balance credited"; `nameOf` names a token id. */
export function transactionTitle(tx: TransactionDto, nameOf: (tokenId: string) => string): string {
  switch (tx.type) {
    case 'deposit':
      return `Received ${nameOf(tx.token)}`;
    case 'withdrawal':
      return `Sent ${nameOf(tx.token)}`;
    case 'swap':
      return tx.swap ? `Swapped ${nameOf(tx.token)} for ${nameOf(tx.swap.toToken)}` : `Swapped ${nameOf(tx.token)}`;
    default:
      return isIncoming(tx) ? 'Balance credited' : 'Balance debited';
  }
}

export type StateTone = 'pending' | 'approved' | 'rejected';

/** Where a transaction stands, in a few words, and the colour it is shown in. */
export function transactionState(tx: TransactionDto): { text: string; tone: StateTone } {
  if (tx.status === 'rejected') {
    if (tx.type === 'deposit' && tx.requiredConfirmations !== undefined) {
      // A deposit dropped before it confirmed says why in its note's first sentence ("Replaced before it confirmed;
      // nothing was credited.").
      const why = tx.note?.split('. ')[0].replace(/\.$/, '');
      return { text: why && /nothing was credited$/.test(why) ? why : 'Not credited', tone: 'rejected' };
    }
    if (tx.type === 'deposit') return { text: 'Rejected', tone: 'rejected' };
    if (tx.type === 'withdrawal') return { text: 'Rejected · amount returned', tone: 'rejected' };
    return { text: 'Rejected', tone: 'rejected' };
  }
  if (tx.type === 'deposit' && tx.status === 'pending' && tx.hold) {
    return { text: tx.hold === 'limit' ? 'Held · verify to release' : 'Held · under review', tone: 'pending' };
  }
  if (tx.type === 'deposit' && tx.status === 'pending' && tx.requiredConfirmations !== undefined) {
    return { text: `Confirming · ${tx.confirmations ?? 0} of ${tx.requiredConfirmations}`, tone: 'pending' };
  }
  if (tx.type === 'withdrawal') {
    const step = currentWithdrawalStep(tx);
    if (step.failed) return { text: 'Failed · amount returned', tone: 'rejected' };
    if (step.index >= WITHDRAWAL_STEPS.length - 1) return { text: 'Completed', tone: 'approved' };
    return { text: step.short, tone: 'pending' };
  }
  if (tx.status === 'pending') return { text: 'Pending', tone: 'pending' };
  return { text: tx.type === 'deposit' ? 'Received' : 'Completed', tone: 'approved' };
}

/** The steps every withdrawal goes through, in order. */
export const WITHDRAWAL_STEPS = ['Waiting for review', 'Signing', 'Sent', 'Confirmations', 'Completed'] as const;

interface StepAt {
  /** The step it is at (WITHDRAWAL_STEPS). */
  index: number;
  /** The short state shown on its History row. */
  short: string;
  /** What is happening at that step, in a sentence. */
  detail: string;
  failed?: boolean;
}

/** Where a withdrawal stands among WITHDRAWAL_STEPS (a payout on chain by its payoutState, a manual one by status). */
export function currentWithdrawalStep(tx: TransactionDto): StepAt {
  const confirmations = tx.requiredConfirmations !== undefined ? `${tx.confirmations ?? 0} of ${tx.requiredConfirmations} confirmations` : 'confirming';
  switch (tx.payoutState) {
    case 'approved':
      return { index: 1, short: 'Approved · signing', detail: 'Approved. The payment is being signed.' };
    case 'awaiting_funds':
      return { index: 1, short: 'Approved · waiting', detail: 'Approved. The payment waits for Coinpurse to top up its wallet; nothing is needed from you.' };
    case 'awaiting_cold_signature':
      return { index: 1, short: 'Approved · signing', detail: 'Approved. The payment waits for its signature from cold storage.' };
    case 'signed':
      return { index: 2, short: 'Signed · sending', detail: 'Signed. The payment is being sent to the network.' };
    case 'broadcast':
      return { index: 3, short: `Sent · ${confirmations}`, detail: `Sent to the network, waiting for the first confirmation (${confirmations}).` };
    case 'confirming':
      return { index: 3, short: `Sent · ${confirmations}`, detail: `Sent. The network is confirming it: ${confirmations}.` };
    case 'completed':
      return { index: 4, short: 'Completed', detail: 'Completed. The recipient has the coins.' };
    case 'failed':
      return { index: 1, short: 'Failed', detail: 'The payment failed. The whole amount was returned to your balance.', failed: true };
  }
  if (tx.status === 'rejected') return { index: 0, short: 'Rejected', detail: 'Rejected. The whole amount was returned to your balance.', failed: true };
  if (tx.status === 'pending') return { index: 0, short: 'Waiting for review', detail: 'Waiting for review by Coinpurse before it is paid.' };
  // Approved without a payout on chain: paid by Coinpurse's staff, the transaction hash given when it was sent.
  if (tx.txHash) return { index: 4, short: 'Completed', detail: 'Completed. The payment was sent.' };
  return { index: 1, short: 'Approved · being paid', detail: 'Approved. The payment is being prepared.' };
}

/** Whether the transaction still moves on its own (History then refreshes itself). */
export function inProgress(tx: TransactionDto): boolean {
  if (tx.status !== 'pending' && tx.type !== 'withdrawal') return false;
  // A held deposit waits for a raised limit or an admin: the wallet's live events refetch it when it is released.
  if (tx.type === 'deposit') return tx.requiredConfirmations !== undefined && !tx.hold;
  if (tx.type === 'withdrawal') {
    const step = currentWithdrawalStep(tx);
    return !step.failed && step.index > 0 && step.index < WITHDRAWAL_STEPS.length - 1;
  }
  return false;
}
