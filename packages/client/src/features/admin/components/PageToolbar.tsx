/** A list page's heading, with its one primary action (Add / Create) when it has one. */
export function PageToolbar({ title, actionLabel, onAction }: { title: string; actionLabel?: string; onAction?: () => void }) {
  return (
    <div className="admin-toolbar">
      <h1>{title}</h1>
      {actionLabel ? (
        <button type="button" className="button primary" onClick={onAction}>
          {actionLabel}
        </button>
      ) : null}
    </div>
  );
}
