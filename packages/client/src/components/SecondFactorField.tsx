import { useState } from 'react';

/** The code asked after the password, and before dangerous actions, when two-factor sign-in is on. */
export function SecondFactorField({
  id,
  value,
  onChange,
  autoFocus = false,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  autoFocus?: boolean;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>Authenticator code</label>
      <input
        id={id}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        autoFocus={autoFocus}
        maxLength={64}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={`${id}-hint`}
      />
      <small id={`${id}-hint`} className="hint">
        Enter the 6-digit code from your authenticator app (or one of your recovery codes).
      </small>
    </div>
  );
}

/** State of a second-factor step: whether the server asked for it, and the code typed. */
export function useSecondFactor(initiallyNeeded = false) {
  const [asked, setAsked] = useState(false);
  const [code, setCode] = useState('');
  const needed = initiallyNeeded || asked;
  return {
    needed,
    code,
    setCode,
    /** The code to send: undefined until one is asked for or typed. */
    value: needed && code.trim() ? code.trim() : undefined,
    ask: () => setAsked(true),
    reset: () => setCode(''),
  };
}
