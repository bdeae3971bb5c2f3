import { useState } from 'react';
import { useFreezeAccountMutation, useUnfreezeAccountMutation } from '../store/adminApi';
import { useAdminAction } from '../hooks/useAdminAction';
import { Field } from './Field';
import { FormModal } from './FormModal';

/**
 * Freeze or unfreeze a customer, with the reason the audit log keeps (required). While frozen the customer signs in and
 * reads, deposits still credit, and nothing leaves. With four-eyes on, the request waits for a second admin.
 */
export function FreezeAccountModal({
  user,
  frozen,
  onClose,
  onDone,
}: {
  user: { _id: string; name: string };
  frozen: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const [freeze, freezing] = useFreezeAccountMutation();
  const [unfreeze, unfreezing] = useUnfreezeAccountMutation();
  const [reason, setReason] = useState('');
  const { error, setError, run } = useAdminAction();
  const submit = async () => {
    if (!reason.trim()) return setError('A reason is required.');
    const body = { id: user._id, accountFreezeRequestDto: { reason: reason.trim() } };
    const request = () => (frozen ? unfreeze(body).unwrap() : freeze(body).unwrap());
    const done = await run(request, {
      success: frozen ? 'Account unfrozen' : 'Account frozen',
      failure: frozen ? 'The account was not unfrozen.' : 'The account was not frozen.',
      toastFailure: true,
    });
    if (done) onDone();
  };
  return (
    <FormModal
      title={`${frozen ? 'Unfreeze' : 'Freeze'} ${user.name}`}
      onClose={onClose}
      onSubmit={submit}
      error={error}
      busy={freezing.isLoading || unfreezing.isLoading}
      submitLabel={frozen ? 'Unfreeze' : 'Freeze'}
    >
      <p>
        {frozen
          ? 'Sending, swapping and withdrawing work again once the account is unfrozen.'
          : 'The customer can still sign in and see the account, and deposits still credit, but nothing can be sent, swapped or withdrawn.'}
      </p>
      <Field label="Reason (kept in the audit log)">
        <textarea rows={3} maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} />
      </Field>
    </FormModal>
  );
}
