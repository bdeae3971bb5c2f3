import { useMemo, useState, type FormEvent } from 'react';
import { Spinner } from '../../../components/Spinner';
import { adminToast, serverMessage } from '../components/adminToast';
import { useConfirmDelete } from '../components/ConfirmDialog';
import { Field, FormError } from '../components/Field';
import { Modal } from '../components/Modal';
import { useIdempotencyKey } from '../components/useIdempotencyKey';
import { PAGE_SIZE, Pager, useCursorPager } from '../components/Pager';
import {
  type AdminUser,
  useAdminTokensQuery,
  useAdminUsersQuery,
  useCustomTokensQuery,
  useDeleteUserMutation,
  useUpdateBalanceMutation,
} from '../store/adminApi';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const AMOUNT = /^(?:0|[1-9]\d{0,17})(?:\.\d{1,18})?$/;

function EditBalanceModal({ user, onClose, onDone }: { user: AdminUser; onClose: () => void; onDone: () => void }) {
  const tokens = useAdminTokensQuery();
  const customTokens = useCustomTokensQuery();
  const [updateBalance, { isLoading }] = useUpdateBalanceMutation();
  const keyFor = useIdempotencyKey();
  const [token, setToken] = useState('');
  const [type, setType] = useState<'' | 'yes' | 'no'>('');
  const [amount, setAmount] = useState('');
  const [msg, setMsg] = useState('');
  const [error, setError] = useState<string | null>(null);
  const choices = useMemo(() => {
    const names = new Set<string>();
    for (const row of tokens.data ?? []) names.add(row.name);
    for (const row of customTokens.data ?? []) names.add(row.id);
    for (const row of user.balances) names.add(row.tokenId ?? row.token);
    return [...names].sort();
  }, [tokens.data, customTokens.data, user.balances]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!token || !type || !amount.trim()) {
      setError('All fields are required.');
      adminToast.error('All fields are required.');
      return;
    }
    if (!AMOUNT.test(amount.trim())) {
      setError('Amount must be a number.');
      return;
    }
    setError(null);
    try {
      const updateBalanceDto = { token, type, amount: amount.trim(), ...(msg.trim() ? { msg: msg.trim() } : {}) };
      await updateBalance({ userId: user._id, 'Idempotency-Key': keyFor([user._id, updateBalanceDto]), updateBalanceDto }).unwrap();
      adminToast.success('Balance updated successfully');
      onDone();
    } catch (failure) {
      console.error(failure);
      setError(serverMessage(failure, 'Failed to update balance.'));
      adminToast.error('Failed to update balance.');
    }
  };

  return (
    <Modal title={`Edit balance: ${user.name}`} onClose={onClose}>
      <form className="admin-form" onSubmit={submit} noValidate>
        <Field label="Token">
          <select value={token} onChange={(event) => setToken(event.target.value)}>
            <option value="">Select a token</option>
            {choices.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Deposit Action">
          <select value={type} onChange={(event) => setType(event.target.value as '' | 'yes' | 'no')}>
            <option value="">Select an action</option>
            <option value="yes">Add Balance</option>
            <option value="no">Change Balance</option>
          </select>
        </Field>
        <Field label="Amount (USD)" hint={type === 'no' ? 'The new balance, in USD.' : type === 'yes' ? 'Added to the balance, in USD.' : undefined}>
          <input type="text" inputMode="decimal" value={amount} onChange={(event) => setAmount(event.target.value)} autoComplete="off" />
        </Field>
        <Field label="Message">
          <textarea rows={3} value={msg} onChange={(event) => setMsg(event.target.value)} />
        </Field>
        <FormError message={error} />
        <div className="admin-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={isLoading}>
            {isLoading ? 'Processing...' : 'Submit'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

export default function UsersPage() {
  const pager = useCursorPager();
  const users = useAdminUsersQuery({ limit: PAGE_SIZE, cursor: pager.cursor }, { refetchOnMountOrArgChange: true });
  const [deleteUser] = useDeleteUserMutation();
  const [editing, setEditing] = useState<AdminUser | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const { ask, dialog } = useConfirmDelete();
  const rows = users.data?.items ?? [];

  const remove = (user: AdminUser) =>
    ask(async () => {
      try {
        await deleteUser({ id: user._id }).unwrap();
        adminToast.success('User deleted successfully');
        setDeleteError(null);
        users.refetch();
      } catch (failure) {
        console.error(failure);
        setDeleteError(serverMessage(failure, 'The user was not deleted.'));
      }
    });

  return (
    <>
      <div className="admin-toolbar">
        <h1>Users</h1>
      </div>
      <FormError message={deleteError ?? (users.isError ? serverMessage(users.error, 'The users could not be loaded.') : null)} />
      {users.isLoading ? (
        <Spinner />
      ) : (
        <div className="table-wrap">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Balances</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={4} className="empty">
                    No Users
                  </td>
                </tr>
              ) : (
                rows.map((user) => (
                  <tr key={user._id}>
                    <td>{user.name}</td>
                    <td>{user.email}</td>
                    <td>
                      {user.balances.every((row) => Number(row.balance) === 0 && Number(row.coinAmount ?? 0) === 0) ? (
                        <span className="muted">None</span>
                      ) : (
                        <ul className="balances">
                          {user.balances
                            .filter((row) => Number(row.balance) !== 0 || Number(row.coinAmount ?? 0) !== 0)
                            .map((row) => (
                              <li key={row.tokenId ?? row.token}>
                                {row.token}: <span className="mono">{row.coinAmount ?? ''}</span> {row.symbol?.toUpperCase() ?? ''}{' '}
                                <span className="muted">({usd.format(Number(row.balance))})</span>
                              </li>
                            ))}
                        </ul>
                      )}
                    </td>
                    <td>
                      <div className="row-actions">
                        <button type="button" className="button small" onClick={() => setEditing(user)} aria-label={`Edit balance of ${user.email}`}>
                          Edit Balance
                        </button>
                        <button type="button" className="button small danger" onClick={() => remove(user)} aria-label={`Delete ${user.email}`}>
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
      <Pager page={pager.page} nextCursor={users.data?.nextCursor ?? null} onNext={pager.next} onPrevious={pager.previous} busy={users.isFetching} />
      {editing ? (
        <EditBalanceModal
          user={editing}
          onClose={() => setEditing(null)}
          onDone={() => {
            setEditing(null);
            users.refetch();
          }}
        />
      ) : null}
      {dialog}
    </>
  );
}
