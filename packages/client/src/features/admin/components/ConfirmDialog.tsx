import { useCallback, useId, useRef, useState } from 'react';
import { useDialogFocus } from './Modal';

function ConfirmBox({ onAccept, onReject, busy }: { onAccept: () => void; onReject: () => void; busy: boolean }) {
  const textId = useId();
  const ref = useDialogFocus(onReject);
  return (
    <div className="admin-overlay">
      <div ref={ref} className="admin-modal confirm" role="alertdialog" aria-modal="true" aria-labelledby={textId}>
        <p id={textId} className="confirm-text">
          Are you sure you want to delete?
        </p>
        <div className="admin-actions">
          <button type="button" className="button danger" onClick={onAccept} disabled={busy}>
            Accept
          </button>
          <button type="button" className="button" data-autofocus onClick={onReject}>
            Reject
          </button>
        </div>
      </div>
    </div>
  );
}

/** Every admin delete goes through 'Are you sure you want to delete?' with Accept / Reject. */
export function useConfirmDelete() {
  const [pending, setPending] = useState<(() => Promise<void>) | null>(null);
  const [busy, setBusy] = useState(false);
  const action = useRef<(() => Promise<void>) | null>(null);
  const ask = useCallback((run: () => Promise<void>) => {
    action.current = run;
    setPending(() => run);
  }, []);
  const reject = useCallback(() => setPending(null), []);
  const accept = useCallback(async () => {
    const run = action.current;
    setBusy(true);
    try {
      await run?.();
    } finally {
      setBusy(false);
      setPending(null);
    }
  }, []);
  const dialog = pending ? <ConfirmBox onAccept={accept} onReject={reject} busy={busy} /> : null;
  return { ask, dialog };
}
