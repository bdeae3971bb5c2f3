import { type ReactElement, type ReactNode, type RefObject, useLayoutEffect, useRef, useState } from 'react';
import { SkeletonTable } from '../../../components/Skeleton';
import { serverMessage } from '../lib/adminToast';
import { FormError } from './Field';
import { Pager, type CursorPager } from './Pager';
import './DataTable.css';

/** Whether the element is wider inside than it shows (it scrolls sideways), kept up to date as it or its content resizes. */
function useScrollsSideways(ref: RefObject<HTMLElement | null>): boolean {
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const check = () => setScrolls(element.scrollWidth > element.clientWidth + 1);
    check();
    const observer = new ResizeObserver(check);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, [ref]);
  return scrolls;
}

/**
 * An admin table in its card, scrolling sideways inside it when wider: the column headers, then one row per item. With
 * no item, the empty state is a paragraph under the headers, as wide as the card (a row spanning a table wider than a
 * phone would be cut off). While it scrolls, the card is a named region a keyboard can focus and scroll.
 */
export function Table<T>({
  columns,
  rows,
  empty,
  children,
  label,
}: {
  columns: string[];
  rows: T[];
  empty: ReactNode;
  children: (row: T) => ReactElement;
  /** What the table lists, naming the region it scrolls in (default: its columns). */
  label?: string;
}) {
  const wrap = useRef<HTMLDivElement>(null);
  const scrolls = useScrollsSideways(wrap);
  const region = scrolls ? { tabIndex: 0, role: 'region', 'aria-label': `${label ?? columns.join(', ')} (scrolls sideways)` } : {};
  return (
    <div className="table-wrap" ref={wrap} {...region}>
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
        {rows.length ? <tbody>{rows.map(children)}</tbody> : null}
      </table>
      {rows.length ? null : <p className="table-empty">{empty}</p>}
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
  label?: string;
  columns: string[];
  rows: T[];
  empty: ReactNode;
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
