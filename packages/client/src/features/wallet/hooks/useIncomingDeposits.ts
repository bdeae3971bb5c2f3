import type { TransactionDto } from '../../../api/generated/walletApi.generated';
import { useAppSelector } from '../../../core/hooks';
import { useGetTransactionPageQuery } from '../store/historyApi';

/**
 * Deposits seen on the chain and still confirming (History's pending deposits that count confirmations), newest
 * first. Live: the watcher's `balance` event refetches them at each confirmation.
 */
export function useIncomingDeposits(): TransactionDto[] {
  const signedIn = useAppSelector((state) => Boolean(state.session.user?.token));
  const { data } = useGetTransactionPageQuery({ type: 'deposit', status: 'pending', limit: 20 }, { skip: !signedIn });
  return (data?.items ?? []).filter((tx) => tx.requiredConfirmations !== undefined);
}

/** "1 of 3 confirmations". */
export function confirmationsText(tx: TransactionDto): string {
  return `${tx.confirmations ?? 0} of ${tx.requiredConfirmations ?? 0} confirmations`;
}
