/** A round wallet action (Send, Receive, Swap, History) with its icon. */
export function ActionButton({ icon, label, onClick }: { icon: string; label: string; onClick: () => void }) {
  return (
    <button type="button" className="action" onClick={onClick}>
      <span className="action-icon" aria-hidden="true">
        {icon}
      </span>
      {label}
    </button>
  );
}
