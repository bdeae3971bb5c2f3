import { useId, type ReactElement, type ReactNode, cloneElement } from 'react';

type FieldControl = ReactElement<{ id?: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }>;

/** A labelled control: the label is tied to the input by id; a hint and an error (marking the input invalid) sit under it. */
export function Field({ label, hint, error, children }: { label: string; hint?: ReactNode; error?: string | null; children: FieldControl }) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="admin-field">
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, { id, 'aria-describedby': describedBy, ...(error ? { 'aria-invalid': true } : {}) })}
      {error ? (
        <small id={errorId} className="field-error" role="alert">
          {error}
        </small>
      ) : null}
      {hint ? (
        <small id={hintId} className="hint">
          {hint}
        </small>
      ) : null}
    </div>
  );
}

export function FormError({ message }: { message: string | null }) {
  return message ? (
    <p className="form-error" role="alert">
      {message}
    </p>
  ) : null;
}
