import { useState } from 'react';
import './Pager.css';

export const PAGE_SIZE = 50;

export type CursorPager = ReturnType<typeof useCursorPager>;

/** Server-side paging by cursor: remembers the cursors seen so Previous works without refetching from the start. */
export function useCursorPager(resetKey = '') {
  const [state, setState] = useState<{ key: string; cursors: (string | undefined)[] }>({ key: resetKey, cursors: [undefined] });
  const cursors = state.key === resetKey ? state.cursors : [undefined];
  const page = cursors.length - 1;
  const next = (cursor: string) => setState({ key: resetKey, cursors: [...cursors, cursor] });
  const previous = () => setState({ key: resetKey, cursors: cursors.slice(0, -1) });
  return { cursor: cursors[page], page, next, previous };
}

export function Pager({ pager: { page, next, previous }, nextCursor, busy }: { pager: CursorPager; nextCursor: string | null; busy?: boolean }) {
  if (page === 0 && !nextCursor) return null;
  return (
    <nav className="admin-pager" aria-label="Pages">
      <button type="button" className="button" onClick={previous} disabled={page === 0 || busy}>
        Previous
      </button>
      <span>Page {page + 1}</span>
      <button type="button" className="button" onClick={() => nextCursor && next(nextCursor)} disabled={!nextCursor || busy}>
        Next
      </button>
    </nav>
  );
}
