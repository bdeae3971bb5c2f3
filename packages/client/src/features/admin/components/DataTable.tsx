import type { ReactElement } from 'react';
import { SkeletonTable } from '../../../components/Skeleton';
import { serverMessage } from '../lib/adminToast';
import { FormError } from './Field';
import { Pager, type CursorPager } from './Pager';
import './DataTable.css';

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
 * A list page's table with its states: the action error (or else the load error), skeleton rows under the real
 * headers while the first load runs (the spec's loading indicator), the table, and the pager when the list is paged by cursor.
 */
export function DataTable<T>({
  query,
  loadError,
  error = null,
  loadingLabel = 'Loading',
  pager,
  nextCursor,
  ...table
}: {
  query: ListQuery;
  loadError: string;
  error?: string | null;
  loadingLabel?: string;
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
      {query.isLoading ? (
        <div className="table-wrap">
          <SkeletonTable columns={table.columns} count={5} label={loadingLabel} className="admin-table" />
        </div>
      ) : (
        <Table {...table} />
      )}
      {pager ? <Pager pager={pager} nextCursor={nextCursor ?? null} busy={query.isFetching} /> : null}
    </>
  );
}
