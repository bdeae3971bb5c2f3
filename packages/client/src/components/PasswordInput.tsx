import { useState, type InputHTMLAttributes } from 'react';
import './PasswordInput.css';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { id: string; label: string; hint?: string };

/** A labelled password field with a show/hide toggle. */
export function PasswordInput({ id, label, hint, ...input }: Props) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="password-wrap">
        <input id={id} type={visible ? 'text' : 'password'} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
        <button
          type="button"
          className="link-button toggle-visibility"
          onClick={() => setVisible((v) => !v)}
          aria-pressed={visible}
          aria-label={visible ? 'Hide password' : 'Show password'}
        >
          {visible ? 'Hide' : 'Show'}
        </button>
      </div>
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
    </div>
  );
}
