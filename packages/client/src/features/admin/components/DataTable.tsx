import type { ReactElement } from 'react';
import { Spinner } from '../../../components/Spinner';
import { serverMessage } from './adminToast';
import { FormError } from './Field';
import { Pager, type CursorPager } from './Pager';

/** An admin table: the column headers, then one row per item, or a single empty-state row. */
export function Table<T>({ columns, rows, empty, children }: { columns: string[]; rows: T[]; empty: string; children: (row: T) => ReactElement }) {
  return (
    <div className="table-wrap">
      <table className="admin-table">
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="empty">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map(children)
          )}
        </tbody>
      </table>
    </div>
  );
}

interface ListQuery {
  isLoading: boolean;
  isFetching: boolean;
  isError: boolean;
  error?: unknown;
}

/**
 * A list page's table with its states: the action error (or else the load error), a spinner while the first load runs,
 * the table, and the pager when the list is paged by cursor.
 */
export function DataTable<T>({
  query,
  loadError,
  error = null,
  spinnerLabel,
  pager,
  nextCursor,
  ...table
}: {
  query: ListQuery;
  loadError: string;
  error?: string | null;
  spinnerLabel?: string;
  pager?: CursorPager;
  nextCursor?: string | null;
  columns: string[];
  rows: T[];
  empty: string;
  children: (row: T) => ReactElement;
}) {
  return (
    <>
      <FormError message={error ?? (query.isError ? serverMessage(query.error, loadError) : null)} />
      {query.isLoading ? <Spinner label={spinnerLabel} /> : <Table {...table} />}
      {pager ? <Pager pager={pager} nextCursor={nextCursor ?? null} busy={query.isFetching} /> : null}
    </>
  );
}
