import { useState } from 'react';
import { ChoiceSelect } from './ChoiceSelect';
import { DepositTagLookup } from './DepositTagLookup';
import { Field } from './Field';
import { FormModal } from './FormModal';
import { useIdempotencyKey } from '../hooks/useIdempotencyKey';
import { UserSelect } from './UserSelect';
import { useAdminAction } from '../hooks/useAdminAction';
import { type TransactionStatus, useCreateDepositMutation } from '../store/adminApi';

const STATUSES = ['pending', 'approved', 'rejected'] as const;
const AMOUNT = /^(?:0|[1-9]\d{0,17})(?:\.\d{1,18})?$/;

/** A deposit for a customer (picked by search, or fixed on the per-user page); approved ones at or above the threshold go for approval. */
export function CreateDepositModal({
  onClose,
  onDone,
  user,
}: {
  onClose: () => void;
  onDone: () => void;
  user?: { _id: string; name: string; email: string };
}) {
  const [createDeposit, { isLoading }] = useCreateDepositMutation();
  const keyFor = useIdempotencyKey();
  const [userId, setUserId] = useState(user?._id ?? '');
  const [amount, setAmount] = useState('');
  const [status, setStatus] = useState<TransactionStatus | ''>('');
  const [network, setNetwork] = useState('');
  // The customer a memo network deposit's tag named (the picker then shows them).
  const [tagged, setTagged] = useState<{ _id: string; name: string; email: string } | undefined>();
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
      {user ? (
        <p className="muted">
          For {user.name} ({user.email})
        </p>
      ) : (
        <>
          <DepositTagLookup
            onFound={(owner) => {
              setTagged({ _id: owner.userId, name: owner.name, email: owner.email });
              setUserId(owner.userId);
              setNetwork(owner.network);
            }}
          />
          <UserSelect key={tagged?._id ?? 'search'} value={userId} onChange={setUserId} initialUser={tagged} />
        </>
      )}
      <Field label="Amount (USD)">
        <input value={amount} onChange={(event) => setAmount(event.target.value)} inputMode="decimal" autoComplete="off" />
      </Field>
      <ChoiceSelect label="Status" none="Select a status" values={STATUSES} value={status} onChange={setStatus} />
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
