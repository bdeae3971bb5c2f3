import { useMemo, useState } from 'react';
import { adminToast } from '../lib/adminToast';
import { Field } from './Field';
import { FormModal } from './FormModal';
import { useIdempotencyKey } from '../hooks/useIdempotencyKey';
import { useAdminAction } from '../hooks/useAdminAction';
import { type AdminUser, useAdminTokensQuery, useCustomTokensQuery, useUpdateBalanceMutation } from '../store/adminApi';

const AMOUNT = /^(?:0|[1-9]\d{0,17})(?:\.\d{1,18})?$/;

/** Add to or set a customer's balance of one token (USD value); at or above the threshold it goes for approval. */
export function EditBalanceModal({ user, onClose, onDone }: { user: AdminUser; onClose: () => void; onDone: () => void }) {
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
