import './Skeleton.css';
/**
 * Loading placeholders shaped like the rows they stand for, so a list does not jump when its data arrives. The
 * shapes are hidden from assistive technology; one status line says what is loading.
 */

/** One placeholder list row: an icon, a line and a short figure. For lists that render their own `<ul>`. */
export function SkeletonListItems({ count }: { count: number }) {
  return (
    <>
      {Array.from({ length: count }, (_, i) => (
        <li key={i} className="skeleton-row" aria-hidden="true" data-testid="skeleton-row">
          <span className="skeleton circle" />
          <span className="skeleton line" />
          <span className="skeleton short" />
        </li>
      ))}
    </>
  );
}

/** A list's placeholder: `count` rows and the status text `label`. */
export function SkeletonList({ count, label, className = '' }: { count: number; label: string; className?: string }) {
  return (
    <div role="status" className="skeleton-status">
      <span className="visually-hidden">{label}</span>
      <ul className={`skeleton-list ${className}`.trim()} aria-hidden="true">
        <SkeletonListItems count={count} />
      </ul>
    </div>
  );
}

/** A table's placeholder: the real column headers over `count` rows of bars, and the status text `label`. */
export function SkeletonTable({ columns, count, label, className }: { columns: string[]; count: number; label: string; className: string }) {
  return (
    <div role="status" className="skeleton-status">
      <span className="visually-hidden">{label}</span>
      <table className={`${className} skeleton-table`} aria-hidden="true">
        <thead>
          <tr>
            {columns.map((column, i) => (
              <th key={i} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {Array.from({ length: count }, (_, row) => (
            <tr key={row} data-testid="skeleton-row">
              {columns.map((_, i) => (
                <td key={i}>
                  <span className="skeleton line" />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
