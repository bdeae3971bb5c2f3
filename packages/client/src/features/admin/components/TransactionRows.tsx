import { useEffect, useRef, useState } from 'react';
import { formatDateTime, formatQuantity, formatUsd } from '../../../lib/format';
import { FAILED, useAdminAction } from '../hooks/useAdminAction';
import { useDeleteAction } from './useDeleteAction';
import { useModalTarget } from '../hooks/useModalTarget';
import { useNetworkNames } from '../hooks/useNetworkNames';
import {
  type AdminTransaction,
  type TransactionStatus,
  useAdminTransactionsQuery,
  useDeleteTransactionMutation,
  useModifyTransactionMutation,
} from '../store/adminApi';
import { PAYOUT_STATE_TEXT } from '../lib/payoutStates';
import { ChoiceSelect } from './ChoiceSelect';
import { DataTable } from './DataTable';
import { ExportButton } from './ExportButton';
import { Field } from './Field';
import { FormModal } from './FormModal';
import { PAGE_SIZE, useCursorPager } from './Pager';
import { RowActions } from './RowActions';
import './TransactionRows.css';

export const STATUSES = ['pending', 'approved', 'rejected'] as const;
export const TYPES = ['deposit', 'withdrawal', 'swap', 'adjustment'] as const;
export const WAITING = ['manual-payout', 'review', 'awaiting-funds', 'cannot-sign', 'cold-signature'] as const;
export type Waiting = (typeof WAITING)[number];

/** The withdrawal queues (the dashboard's counts), named and explained for the admin who opens one. */
export const WAITING_TEXT: Record<Waiting, { label: string; explain: string }> = {
  'manual-payout': {
    label: 'To pay by hand',
    explain:
      'No signer pays these withdrawals (their network has none, or it cannot pay this token). Send each from your own wallet, then use Edit to approve it with the transaction hash, or reject it to give the amount back.',
  },
  review: {
    label: 'To review',
    explain: 'Pending withdrawals the signer pays by itself once approved: use Edit to approve or reject each.',
  },
  'awaiting-funds': {
    label: 'Waiting for funds',
    explain:
      'Approved withdrawals the hot wallet cannot pay yet; each says what it lacks. Top up the hot wallet (Reserves shows it): the payout job tries again on every run.',
  },
  'cannot-sign': {
    label: 'Not signed',
    explain:
      'Approved withdrawals the signer could not sign; each says why (its hot wallet locked, the signer or its node not answering, a fee above its ceiling). Fix that: the payout job tries again on every run.',
  },
  'cold-signature': {
    label: 'Awaiting a cold signature',
    explain: 'Approved withdrawals above the hot limits: sign each in Cold signatures above (download, sign offline, upload).',
  },
};
const WAITING_LABELS = Object.fromEntries(WAITING.map((queue) => [queue, WAITING_TEXT[queue].label])) as Record<Waiting, string>;

/** A withdrawal's payment on the chain in words, with why it waits when it waits for funds (admins only). */
function PayoutLine({ transaction }: { transaction: AdminTransaction }) {
  if (!transaction.payoutState) return null;
  const confirming =
    transaction.payoutState === 'confirming' && transaction.requiredConfirmations
      ? ` ${transaction.confirmations ?? 0} of ${transaction.requiredConfirmations}`
      : '';
  return (
    <div className="payout-line" data-testid="payout-state">
      <span className="muted">Payout: </span>
      {PAYOUT_STATE_TEXT[transaction.payoutState]}
      {confirming}
      {transaction.payoutReason ? (
        <div className="payout-reason" data-testid="payout-reason">
          {transaction.payoutReason}
        </div>
      ) : null}
    </div>
  );
}

function EditStatusModal({ transaction, onClose, onDone }: { transaction: AdminTransaction; onClose: () => void; onDone: () => void }) {
  const [modify, { isLoading }] = useModifyTransactionMutation();
  const [status, setStatus] = useState<TransactionStatus | ''>(transaction.status);
  const [txHash, setTxHash] = useState('');
  const { error, setError, run } = useAdminAction();
  const settling = transaction.type === 'withdrawal' && status === 'approved' && transaction.status !== 'approved';
  const submit = async () => {
    if (!status) return setError('Status is required.');
    const modifyTransactionDto = {
      tId: transaction._id,
      modification: status,
      expectedStatus: transaction.status,
      ...(settling && txHash.trim() ? { txHash: txHash.trim() } : {}),
    };
    if (await run(() => modify({ modifyTransactionDto }).unwrap(), { success: 'Status updated successfully', ...FAILED })) onDone();
  };
  return (
    <FormModal title="Edit Status" onClose={onClose} onSubmit={submit} error={error} busy={isLoading} submitLabel="Update">
      <p className="muted">
        {transaction.user?.email ?? 'Unknown user'} · {transaction.type || 'null'} · {formatUsd(transaction.amount)}
      </p>
      <ChoiceSelect label="Status" none="Select a status" values={STATUSES} value={status} onChange={setStatus} />
      {settling ? (
        <Field label="Transaction hash (optional)" hint={`The chain transaction id on ${transaction.network ?? transaction.token}; shown to the customer.`}>
          <input value={txHash} onChange={(event) => setTxHash(event.target.value)} autoComplete="off" spellCheck={false} />
        </Field>
      ) : null}
    </FormModal>
  );
}

/**
 * The admin transactions table with its filters applied by the server, paged by cursor, with Edit status and Delete per
 * row: used by the Transactions screen and the per-user page (`userId`).
 */
export function TransactionsTable({
  userId,
  search,
  reloadKey = 0,
  onChanged,
  waiting = '',
  onWaitingChange,
}: {
  userId?: string;
  search?: string;
  reloadKey?: number;
  onChanged?: () => void;
  /** A withdrawal queue (the Transactions screen keeps it in the address: the dashboard links to each). */
  waiting?: Waiting | '';
  onWaitingChange?: (waiting: Waiting | '') => void;
}) {
  const [type, setType] = useState<'' | AdminTransaction['type']>('');
  const [status, setStatus] = useState<TransactionStatus | ''>('');
  const pager = useCursorPager(`${type}|${status}|${waiting}|${search ?? ''}|${userId ?? ''}|${reloadKey}`);
  const transactions = useAdminTransactionsQuery(
    {
      limit: PAGE_SIZE,
      cursor: pager.cursor,
      type: type || undefined,
      status: status || undefined,
      waiting: waiting || undefined,
      search: search || undefined,
      userId,
    },
    { refetchOnMountOrArgChange: true },
  );
  // A change made outside the table (a new deposit, an approval) bumps reloadKey: fetch again.
  const firstKey = useRef(reloadKey);
  useEffect(() => {
    if (reloadKey !== firstKey.current) void transactions.refetch();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reloadKey]);
  const reload = () => {
    void transactions.refetch();
    onChanged?.();
  };
  const [deleteTransaction] = useDeleteTransactionMutation();
  const editing = useModalTarget<AdminTransaction>(reload);
  const { remove, error, dialog } = useDeleteAction(reload);
  const networkName = useNetworkNames();

  return (
    <>
      <div className="admin-filters">
        <ChoiceSelect label="Type filter" none="All types" values={TYPES} value={type} onChange={setType} />
        <ChoiceSelect label="Status filter" none="All statuses" values={STATUSES} value={status} onChange={setStatus} />
        {onWaitingChange ? (
          <ChoiceSelect label="Waiting for" none="Anything or nothing" values={WAITING} labels={WAITING_LABELS} value={waiting} onChange={onWaitingChange} />
        ) : null}
        <ExportButton path="/api/admin/export/transactions" params={{ type, status, waiting, search, userId }} label="Export CSV (these filters)" />
      </div>
      {waiting ? (
        <p className="muted waiting-explained" data-testid="waiting-explained">
          {WAITING_TEXT[waiting].explain}
        </p>
      ) : null}
      <DataTable
        query={transactions}
        loadError="The transactions could not be loaded."
        loadingLabel="Loading transactions"
        error={error}
        pager={pager}
        nextCursor={transactions.data?.nextCursor}
        label="Transactions"
        columns={[...(userId ? [] : ['User']), 'Type', 'Network', 'Address', 'Amount', 'Status', 'Date', 'Action']}
        rows={transactions.data?.items ?? []}
        empty="No Transactions"
      >
        {(transaction) => (
          <tr key={transaction._id} data-transaction-id={transaction._id}>
            {/* On the per-user page every row is that customer's: no User column there. */}
            {userId ? null : (
              <td>
                {transaction.user?.name ?? 'null'}
                <br />
                <span className="muted break-anywhere">{transaction.user?.email ?? ''}</span>
              </td>
            )}
            <td>{transaction.type || 'null'}</td>
            <td>{transaction.network ? networkName(transaction.network, transaction.token) : '—'}</td>
            <td className="mono">
              {/* A deposit (or an admin adjustment) has no address. */}
              {transaction.address ?? '—'}
              {transaction.txHash ? (
                <>
                  <br />
                  <span className="muted">tx {transaction.txHash}</span>
                </>
              ) : null}
            </td>
            <td className="nowrap">
              <span className="mono">{formatUsd(transaction.amount)}</span>
              {transaction.coinAmount ? (
                <>
                  <br />
                  <span className="muted mono">
                    {formatQuantity(transaction.coinAmount)} {transaction.symbol?.toUpperCase() ?? transaction.token}
                  </span>
                </>
              ) : null}
            </td>
            <td>
              <span className={`status ${transaction.status}`}>{transaction.status}</span>
              <PayoutLine transaction={transaction} />
            </td>
            <td className="nowrap">{formatDateTime(transaction.createdAt)}</td>
            <td>
              <RowActions
                editLabel={`Edit status of transaction ${transaction._id}`}
                deleteLabel={`Delete transaction ${transaction._id}`}
                onEdit={() => editing.open(transaction)}
                onDelete={() =>
                  remove(() => deleteTransaction({ id: transaction._id }).unwrap(), {
                    success: 'Transaction deleted successfully',
                    failure: 'The transaction was not deleted.',
                    reloadOnFailure: true,
                  })
                }
              />
            </td>
          </tr>
        )}
      </DataTable>
      {editing.target ? <EditStatusModal transaction={editing.target} onClose={editing.close} onDone={editing.done} /> : null}
      {dialog}
    </>
  );
}
