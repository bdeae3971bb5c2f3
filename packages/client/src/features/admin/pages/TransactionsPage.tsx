import { useState } from 'react';
import { DataTable } from '../components/DataTable';
import { ChoiceSelect } from '../components/ChoiceSelect';
import { Field } from '../components/Field';
import { FormModal } from '../components/FormModal';
import { PAGE_SIZE, useCursorPager } from '../components/Pager';
import { PageToolbar } from '../components/PageToolbar';
import { RowActions } from '../components/RowActions';
import { useIdempotencyKey } from '../components/useIdempotencyKey';
import { UserSelect } from '../components/UserSelect';
import { FAILED, useAdminAction } from '../hooks/useAdminAction';
import { useDeleteAction } from '../hooks/useDeleteAction';
import { useModalTarget } from '../hooks/useModalTarget';
import {
  type AdminTransaction,
  type TransactionStatus,
  useAdminTransactionsQuery,
  useCreateDepositMutation,
  useDeleteTransactionMutation,
  useModifyTransactionMutation,
} from '../store/adminApi';

const STATUSES = ['pending', 'approved', 'rejected'] as const;
const TYPES = ['deposit', 'withdrawal', 'swap', 'adjustment'] as const;
const AMOUNT = /^(?:0|[1-9]\d{0,17})(?:\.\d{1,18})?$/;

function StatusSelect({ value, onChange }: { value: TransactionStatus | ''; onChange: (value: TransactionStatus | '') => void }) {
  return <ChoiceSelect label="Status" none="Select a status" values={STATUSES} value={value} onChange={onChange} />;
}

function EditStatusModal({ transaction, onClose, onDone }: { transaction: AdminTransaction; onClose: () => void; onDone: () => void }) {
  const [modify, { isLoading }] = useModifyTransactionMutation();
  const [status, setStatus] = useState<TransactionStatus | ''>(transaction.status);
  const { error, setError, run } = useAdminAction();
  const submit = async () => {
    if (!status) return setError('Status is required.');
    const request = () => modify({ modifyTransactionDto: { tId: transaction._id, modification: status, expectedStatus: transaction.status } }).unwrap();
    if (await run(request, { success: 'Status updated successfully', ...FAILED })) onDone();
  };
  return (
    <FormModal title="Edit Status" onClose={onClose} onSubmit={submit} error={error} busy={isLoading} submitLabel="Update">
      <p className="muted">
        {transaction.user?.email ?? 'Unknown user'} · {transaction.type || 'null'} · {String(transaction.amount)} USD
      </p>
      <StatusSelect value={status} onChange={setStatus} />
    </FormModal>
  );
}

function CreateDepositModal({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const [createDeposit, { isLoading }] = useCreateDepositMutation();
  const keyFor = useIdempotencyKey();
  const [userId, setUserId] = useState('');
  const [amount, setAmount] = useState('');
  const [status, setStatus] = useState<TransactionStatus | ''>('');
  const [network, setNetwork] = useState('');
  const { error, setError, run } = useAdminAction();
  const submit = async () => {
    if (!userId || !amount.trim() || !status || !network.trim()) return setError('User, amount, status and network are required.');
    if (!AMOUNT.test(amount.trim())) return setError('Amount must be a number.');
    setError(null);
    const depositDto = { amount: amount.trim(), status, network: network.trim() };
    const request = () => createDeposit({ userId, 'Idempotency-Key': keyFor([userId, depositDto]), depositDto }).unwrap();
    if (await run(request, { success: 'Transaction Created Successfully', failure: 'The transaction was not created.' })) onDone();
  };
  return (
    <FormModal title="Create Deposit Transaction" onClose={onClose} onSubmit={submit} error={error} busy={isLoading} submitLabel="Create">
      <UserSelect value={userId} onChange={setUserId} />
      <Field label="Amount (USD)">
        <input value={amount} onChange={(event) => setAmount(event.target.value)} inputMode="decimal" autoComplete="off" />
      </Field>
      <StatusSelect value={status} onChange={setStatus} />
      <Field label="Network" hint="bitcoin, tether">
        <input value={network} onChange={(event) => setNetwork(event.target.value)} list="admin-networks" placeholder="bitcoin, tether" autoComplete="off" />
      </Field>
      <datalist id="admin-networks">
        <option value="bitcoin" />
        <option value="tether" />
      </datalist>
    </FormModal>
  );
}

export default function TransactionsPage() {
  const [type, setType] = useState<'' | AdminTransaction['type']>('');
  const [statusFilter, setStatusFilter] = useState<TransactionStatus | ''>('');
  const pager = useCursorPager(`${type}|${statusFilter}`);
  const transactions = useAdminTransactionsQuery(
    { limit: PAGE_SIZE, cursor: pager.cursor, type: type || undefined, status: statusFilter || undefined },
    { refetchOnMountOrArgChange: true },
  );
  const [deleteTransaction] = useDeleteTransactionMutation();
  const editing = useModalTarget<AdminTransaction>(transactions.refetch);
  const creating = useModalTarget<true>(transactions.refetch);
  const { remove, error, dialog } = useDeleteAction(transactions.refetch);

  return (
    <>
      <PageToolbar title="Transactions" actionLabel="Create Deposit" onAction={() => creating.open(true)} />
      <div className="admin-filters">
        <ChoiceSelect label="Type filter" none="All types" values={TYPES} value={type} onChange={setType} />
        <ChoiceSelect label="Status filter" none="All statuses" values={STATUSES} value={statusFilter} onChange={setStatusFilter} />
      </div>
      <DataTable
        query={transactions}
        loadError="The transactions could not be loaded."
        error={error}
        pager={pager}
        nextCursor={transactions.data?.nextCursor}
        columns={['User', 'Type', 'Network', 'Address', 'Amount', 'Status', 'Date', 'Action']}
        rows={transactions.data?.items ?? []}
        empty="No Transactions"
      >
        {(transaction) => (
          <tr key={transaction._id} data-transaction-id={transaction._id}>
            <td>
              {transaction.user?.name ?? 'null'}
              <br />
              <span className="muted">{transaction.user?.email ?? ''}</span>
            </td>
            <td>{transaction.type || 'null'}</td>
            <td>{transaction.network || 'null'}</td>
            <td className="mono">{transaction.address ?? 'null'}</td>
            <td className="nowrap">
              <span className="mono">{String(transaction.amount)}</span> USD
              {transaction.coinAmount ? (
                <>
                  <br />
                  <span className="muted mono">
                    {transaction.coinAmount} {transaction.symbol?.toUpperCase() ?? transaction.token}
                  </span>
                </>
              ) : null}
            </td>
            <td>
              <span className={`status ${transaction.status}`}>{transaction.status}</span>
            </td>
            <td>{new Date(transaction.createdAt).toLocaleString()}</td>
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
      {creating.target ? <CreateDepositModal onClose={creating.close} onDone={creating.done} /> : null}
      {dialog}
    </>
  );
}
