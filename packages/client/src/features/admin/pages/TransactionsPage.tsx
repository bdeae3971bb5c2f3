import { useState, type FormEvent } from 'react';
import { Spinner } from '../../../components/Spinner';
import { adminToast, serverMessage } from '../components/adminToast';
import { useConfirmDelete } from '../components/ConfirmDialog';
import { Field, FormError } from '../components/Field';
import { Modal } from '../components/Modal';
import { useIdempotencyKey } from '../components/useIdempotencyKey';
import { PAGE_SIZE, Pager, useCursorPager } from '../components/Pager';
import { UserSelect } from '../components/UserSelect';
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

function StatusSelect({
  value,
  onChange,
  label = 'Status',
}: {
  value: TransactionStatus | '';
  onChange: (value: TransactionStatus | '') => void;
  label?: string;
}) {
  return (
    <Field label={label}>
      <select value={value} onChange={(event) => onChange(event.target.value as TransactionStatus | '')}>
        <option value="">Select a status</option>
        {STATUSES.map((status) => (
          <option key={status} value={status}>
            {status}
          </option>
        ))}
      </select>
    </Field>
  );
}

function EditStatusModal({ transaction, onClose, onDone }: { transaction: AdminTransaction; onClose: () => void; onDone: () => void }) {
  const [modify, { isLoading }] = useModifyTransactionMutation();
  const [status, setStatus] = useState<TransactionStatus | ''>(transaction.status);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!status) return setError('Status is required.');
    try {
      await modify({ modifyTransactionDto: { tId: transaction._id, modification: status, expectedStatus: transaction.status } }).unwrap();
      adminToast.success('Status updated successfully');
      onDone();
    } catch (failure) {
      console.error(failure);
      setError(serverMessage(failure, 'Failed'));
      adminToast.error('Failed');
    }
  };
  return (
    <Modal title="Edit Status" onClose={onClose}>
      <form className="admin-form" onSubmit={submit} noValidate>
        <p className="muted">
          {transaction.user?.email ?? 'Unknown user'} · {transaction.type || 'null'} · {String(transaction.amount)} USD
        </p>
        <StatusSelect value={status} onChange={setStatus} />
        <FormError message={error} />
        <div className="admin-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={isLoading}>
            {isLoading ? 'Processing...' : 'Update'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

function CreateDepositModal({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const [createDeposit, { isLoading }] = useCreateDepositMutation();
  const keyFor = useIdempotencyKey();
  const [userId, setUserId] = useState('');
  const [amount, setAmount] = useState('');
  const [status, setStatus] = useState<TransactionStatus | ''>('');
  const [network, setNetwork] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!userId || !amount.trim() || !status || !network.trim()) return setError('User, amount, status and network are required.');
    if (!AMOUNT.test(amount.trim())) return setError('Amount must be a number.');
    setError(null);
    try {
      const depositDto = { amount: amount.trim(), status, network: network.trim() };
      await createDeposit({ userId, 'Idempotency-Key': keyFor([userId, depositDto]), depositDto }).unwrap();
      adminToast.success('Transaction Created Successfully');
      onDone();
    } catch (failure) {
      console.error(failure);
      setError(serverMessage(failure, 'The transaction was not created.'));
    }
  };
  return (
    <Modal title="Create Deposit Transaction" onClose={onClose}>
      <form className="admin-form" onSubmit={submit} noValidate>
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
        <FormError message={error} />
        <div className="admin-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={isLoading}>
            {isLoading ? 'Processing...' : 'Create'}
          </button>
        </div>
      </form>
    </Modal>
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
  const [editing, setEditing] = useState<AdminTransaction | null>(null);
  const [creating, setCreating] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const { ask, dialog } = useConfirmDelete();
  const rows = transactions.data?.items ?? [];

  const remove = (transaction: AdminTransaction) =>
    ask(async () => {
      try {
        await deleteTransaction({ id: transaction._id }).unwrap();
        adminToast.success('Transaction deleted successfully');
        setDeleteError(null);
      } catch (failure) {
        console.error(failure);
        setDeleteError(serverMessage(failure, 'The transaction was not deleted.'));
      }
      transactions.refetch();
    });

  return (
    <>
      <div className="admin-toolbar">
        <h1>Transactions</h1>
        <button type="button" className="button primary" onClick={() => setCreating(true)}>
          Create Deposit
        </button>
      </div>
      <div className="admin-filters">
        <Field label="Type filter">
          <select value={type} onChange={(event) => setType(event.target.value as '' | AdminTransaction['type'])}>
            <option value="">All types</option>
            {TYPES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Status filter">
          <select value={statusFilter} onChange={(event) => setStatusFilter(event.target.value as TransactionStatus | '')}>
            <option value="">All statuses</option>
            {STATUSES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <FormError message={deleteError ?? (transactions.isError ? serverMessage(transactions.error, 'The transactions could not be loaded.') : null)} />
      {transactions.isLoading ? (
        <Spinner />
      ) : (
        <div className="table-wrap">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Type</th>
                <th scope="col">Network</th>
                <th scope="col">Address</th>
                <th scope="col">Amount</th>
                <th scope="col">Status</th>
                <th scope="col">Date</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={8} className="empty">
                    No Transactions
                  </td>
                </tr>
              ) : (
                rows.map((transaction) => (
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
                      <div className="row-actions">
                        <button
                          type="button"
                          className="button small"
                          onClick={() => setEditing(transaction)}
                          aria-label={`Edit status of transaction ${transaction._id}`}
                        >
                          Edit
                        </button>
                        <button
                          type="button"
                          className="button small danger"
                          onClick={() => remove(transaction)}
                          aria-label={`Delete transaction ${transaction._id}`}
                        >
                          Delete
                        </button>
                      </div>
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        page={pager.page}
        nextCursor={transactions.data?.nextCursor ?? null}
        onNext={pager.next}
        onPrevious={pager.previous}
        busy={transactions.isFetching}
      />
      {editing ? (
        <EditStatusModal
          transaction={editing}
          onClose={() => setEditing(null)}
          onDone={() => {
            setEditing(null);
            transactions.refetch();
          }}
        />
      ) : null}
      {creating ? (
        <CreateDepositModal
          onClose={() => setCreating(false)}
          onDone={() => {
            setCreating(false);
            transactions.refetch();
          }}
        />
      ) : null}
      {dialog}
    </>
  );
}
