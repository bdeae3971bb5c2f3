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
import { ChoiceSelect } from './ChoiceSelect';
import { DataTable } from './DataTable';
import { ExportButton } from './ExportButton';
import { Field } from './Field';
import { FormModal } from './FormModal';
import { PAGE_SIZE, useCursorPager } from './Pager';
import { RowActions } from './RowActions';

export const STATUSES = ['pending', 'approved', 'rejected'] as const;
export const TYPES = ['deposit', 'withdrawal', 'swap', 'adjustment'] as const;

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
}: {
  userId?: string;
  search?: string;
  reloadKey?: number;
  onChanged?: () => void;
}) {
  const [type, setType] = useState<'' | AdminTransaction['type']>('');
  const [status, setStatus] = useState<TransactionStatus | ''>('');
  const pager = useCursorPager(`${type}|${status}|${search ?? ''}|${userId ?? ''}|${reloadKey}`);
  const transactions = useAdminTransactionsQuery(
    { limit: PAGE_SIZE, cursor: pager.cursor, type: type || undefined, status: status || undefined, search: search || undefined, userId },
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
        <ExportButton path="/api/admin/export/transactions" params={{ type, status, search, userId }} label="Export CSV (these filters)" />
      </div>
      <DataTable
        query={transactions}
        loadError="The transactions could not be loaded."
        loadingLabel="Loading transactions"
        error={error}
        pager={pager}
        nextCursor={transactions.data?.nextCursor}
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
            <td>{transaction.network ? networkName(transaction.network) : '—'}</td>
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
