import { useMemo, useState } from 'react';
import { adminToast } from '../components/adminToast';
import { DataTable } from '../components/DataTable';
import { Field } from '../components/Field';
import { FormModal } from '../components/FormModal';
import { PAGE_SIZE, useCursorPager } from '../components/Pager';
import { PageToolbar } from '../components/PageToolbar';
import { RowActions } from '../components/RowActions';
import { useIdempotencyKey } from '../components/useIdempotencyKey';
import { useAdminAction } from '../hooks/useAdminAction';
import { useDeleteAction } from '../hooks/useDeleteAction';
import { useModalTarget } from '../hooks/useModalTarget';
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
  const { error, setError, run } = useAdminAction();
  const choices = useMemo(() => {
    const names = new Set<string>();
    for (const row of tokens.data ?? []) names.add(row.name);
    for (const row of customTokens.data ?? []) names.add(row.id);
    for (const row of user.balances) names.add(row.tokenId ?? row.token);
    return [...names].sort();
  }, [tokens.data, customTokens.data, user.balances]);

  const submit = async () => {
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
    const updateBalanceDto = { token, type, amount: amount.trim(), ...(msg.trim() ? { msg: msg.trim() } : {}) };
    const request = () => updateBalance({ userId: user._id, 'Idempotency-Key': keyFor([user._id, updateBalanceDto]), updateBalanceDto }).unwrap();
    if (await run(request, { success: 'Balance updated successfully', failure: 'Failed to update balance.', toastFailure: true })) onDone();
  };

  return (
    <FormModal title={`Edit balance: ${user.name}`} onClose={onClose} onSubmit={submit} error={error} busy={isLoading} submitLabel="Submit">
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
    </FormModal>
  );
}

export default function UsersPage() {
  const pager = useCursorPager();
  const users = useAdminUsersQuery({ limit: PAGE_SIZE, cursor: pager.cursor }, { refetchOnMountOrArgChange: true });
  const [deleteUser] = useDeleteUserMutation();
  const editing = useModalTarget<AdminUser>(users.refetch);
  const { remove, error, dialog } = useDeleteAction(users.refetch);

  return (
    <>
      <PageToolbar title="Users" />
      <DataTable
        query={users}
        loadError="The users could not be loaded."
        error={error}
        pager={pager}
        nextCursor={users.data?.nextCursor}
        columns={['Name', 'Email', 'Balances', 'Action']}
        rows={users.data?.items ?? []}
        empty="No Users"
      >
        {(user) => (
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
              <RowActions
                editText="Edit Balance"
                editLabel={`Edit balance of ${user.email}`}
                deleteLabel={`Delete ${user.email}`}
                onEdit={() => editing.open(user)}
                onDelete={() =>
                  remove(() => deleteUser({ id: user._id }).unwrap(), { success: 'User deleted successfully', failure: 'The user was not deleted.' })
                }
              />
            </td>
          </tr>
        )}
      </DataTable>
      {editing.target ? <EditBalanceModal user={editing.target} onClose={editing.close} onDone={editing.done} /> : null}
      {dialog}
    </>
  );
}
