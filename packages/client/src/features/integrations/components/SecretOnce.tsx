import { useState } from 'react';
import toast from 'react-hot-toast';

/** A secret shown once (an API key, a webhook signing secret): read-only, with a copy button, until dismissed. */
export function SecretOnce({ label, secret, onDone }: { label: string; secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const id = `secret-${label.toLowerCase().replace(/[^a-z]+/g, '-')}`;

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
      toast.success('Copied');
    } catch {
      toast.error('Could not copy: select the text and copy it.');
    }
  }

  return (
    <div className="secret-once" role="alert">
      <label htmlFor={id}>{label}</label>
      <p className="hint">This is shown only now. Copy it and keep it somewhere safe: it cannot be shown again.</p>
      <div className="secret-once-row">
        <input id={id} className="mono" readOnly value={secret} onFocus={(event) => event.currentTarget.select()} data-testid="secret-value" />
        <button type="button" className="button secondary" onClick={copy}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <button type="button" className="button" onClick={onDone}>
        I saved it
      </button>
    </div>
  );
}
