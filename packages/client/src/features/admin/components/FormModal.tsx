import type { FormEvent, ReactNode } from 'react';
import { FormError } from './Field';
import { Modal } from './Modal';

/** Cancel, then the submit button, which reads 'Processing...' while the request runs. */
export function FormActions({
  onCancel,
  busy,
  submitLabel,
  disabled = false,
  className = 'admin-actions',
}: {
  onCancel: () => void;
  busy: boolean;
  submitLabel: string;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <div className={className}>
      <button type="button" className="button" onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" className="button primary" disabled={busy || disabled}>
        {busy ? 'Processing...' : submitLabel}
      </button>
    </div>
  );
}

/** A dialog holding one form: the fields, the form's error, Cancel and submit. The submit event is handled here. */
export function FormModal({
  title,
  onClose,
  onSubmit,
  error,
  busy,
  submitLabel,
  submitDisabled,
  children,
}: {
  title: string;
  onClose: () => void;
  onSubmit: () => unknown;
  error: string | null;
  busy: boolean;
  submitLabel: string;
  submitDisabled?: boolean;
  children: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void onSubmit();
  };
  return (
    <Modal title={title} onClose={onClose}>
      <form className="admin-form" onSubmit={submit} noValidate>
        {children}
        <FormError message={error} />
        <FormActions onCancel={onClose} busy={busy} submitLabel={submitLabel} disabled={submitDisabled} />
      </form>
    </Modal>
  );
}
