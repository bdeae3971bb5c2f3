/** A row's Edit and Delete buttons; the accessible names say which row they act on. */
export function RowActions({
  editText = 'Edit',
  editLabel,
  deleteLabel,
  onEdit,
  onDelete,
}: {
  editText?: string;
  editLabel: string;
  deleteLabel: string;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <div className="row-actions">
      <button type="button" className="button small" onClick={onEdit} aria-label={editLabel}>
        {editText}
      </button>
      <button type="button" className="button small danger" onClick={onDelete} aria-label={deleteLabel}>
        Delete
      </button>
    </div>
  );
}
