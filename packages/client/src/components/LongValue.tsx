import type { ReactNode } from 'react';
import toast from 'react-hot-toast';
import './LongValue.css';

/** "rltc1q6rz2…9puuzgkg": a long value shortened in the middle (whole when short enough). */
export function shortenMiddle(value: string, keep = 10): string {
  return value.length <= keep * 2 + 1 ? value : `${value.slice(0, keep)}…${value.slice(-keep)}`;
}

/**
 * A long value (an address, a transaction hash) on a full-width line of its own: its label above, the value shortened in
 * the middle (whole in its title and for screen readers), a copy button, and a link when it has one.
 */
export function LongValue({ label, value, href, testId }: { label: string; value: string; href?: string; testId?: string }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      toast.success(`${label} copied`);
    } catch {
      toast.error(`The ${label.toLowerCase()} could not be copied.`);
    }
  }
  const shown: ReactNode = (
    <>
      <span aria-hidden="true">{shortenMiddle(value)}</span>
      <span className="visually-hidden">{value}</span>
    </>
  );
  return (
    <div className="long-value" data-testid={testId}>
      <dt>{label}</dt>
      <dd>
        {href ? (
          <a href={href} target="_blank" rel="noreferrer noopener" title={value} className="long-value-text">
            {shown}
          </a>
        ) : (
          <span title={value} className="long-value-text">
            {shown}
          </span>
        )}
        <button type="button" className="link-button long-value-copy" onClick={copy} aria-label={`Copy the ${label.toLowerCase()}`}>
          Copy
        </button>
      </dd>
    </div>
  );
}
