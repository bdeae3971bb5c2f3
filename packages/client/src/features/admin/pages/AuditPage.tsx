import { formatDateTime } from '../../../lib/format';
import { useState, type FormEvent } from 'react';
import { DataTable } from '../components/DataTable';
import { Field } from '../components/Field';
import { PAGE_SIZE, useCursorPager } from '../components/Pager';
import { ExportButton } from '../components/ExportButton';
import { PageToolbar } from '../components/PageToolbar';
import { useAuditQuery } from '../store/adminApi';
import './AuditPage.css';

interface Filters {
  actor: string;
  action: string;
  targetType: string;
  targetId: string;
}
const NO_FILTERS: Filters = { actor: '', action: '', targetType: '', targetId: '' };

/** Who acted, in words: the audit log records admins, customers (their own sends, sign-ins) and the jobs. */
const ROLE_TEXT: Record<string, string> = { admin: 'Admin', user: 'Customer', system: 'System' };

function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="muted">—</span>;
  return <pre className="json">{JSON.stringify(value, null, 1)}</pre>;
}

export default function AuditPage() {
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const pager = useCursorPager(JSON.stringify(filters));
  const audit = useAuditQuery(
    {
      limit: PAGE_SIZE,
      cursor: pager.cursor,
      actor: filters.actor.trim() || undefined,
      action: filters.action.trim() || undefined,
      targetType: filters.targetType.trim() || undefined,
      targetId: filters.targetId.trim() || undefined,
    },
    { refetchOnMountOrArgChange: true },
  );
  const bind = (key: keyof Filters) => ({
    value: draft[key],
    onChange: (event: { target: { value: string } }) => setDraft((previous) => ({ ...previous, [key]: event.target.value })),
  });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
  };

  return (
    <>
      <PageToolbar title="Audit" />
      <ExportButton
        path="/api/admin/export/audit"
        params={{
          actor: filters.actor.trim(),
          action: filters.action.trim(),
          targetType: filters.targetType.trim(),
          targetId: filters.targetId.trim(),
        }}
      />
      <form className="admin-filters" onSubmit={apply} aria-label="Audit filters">
        <Field label="Actor (id)" hint="An admin's or a customer's id">
          <input {...bind('actor')} autoComplete="off" />
        </Field>
        <Field label="Action">
          <input {...bind('action')} autoComplete="off" />
        </Field>
        <Field label="Target type">
          <input {...bind('targetType')} autoComplete="off" />
        </Field>
        <Field label="Target id">
          <input {...bind('targetId')} autoComplete="off" />
        </Field>
        <button type="submit" className="button primary">
          Filter
        </button>
        <button
          type="button"
          className="button"
          onClick={() => {
            setDraft(NO_FILTERS);
            setFilters(NO_FILTERS);
          }}
        >
          Clear
        </button>
      </form>
      <DataTable
        query={audit}
        loadError="The audit log could not be loaded."
        loadingLabel="Loading the audit log"
        pager={pager}
        nextCursor={audit.data?.nextCursor}
        label="Audit log"
        columns={['Time', 'Actor', 'Action', 'Target', 'Before', 'After', 'Request']}
        rows={audit.data?.items ?? []}
        empty="No audit entries"
      >
        {(row) => (
          <tr key={row._id}>
            <td className="nowrap">{formatDateTime(row.createdAt)}</td>
            <td data-testid="audit-actor">
              <span className="break-anywhere">{row.actorEmail ?? row.actorId ?? 'The system'}</span>
              <div className="muted">{ROLE_TEXT[row.actorRole ?? 'system'] ?? row.actorRole}</div>
              {row.apiKey && <div className="muted break-anywhere">with API key {row.apiKey}…</div>}
            </td>
            <td>{row.action}</td>
            <td className="mono">
              {row.targetType}
              {row.targetId ? `:${row.targetId}` : ''}
            </td>
            <td>
              <Json value={row.before} />
            </td>
            <td>
              <Json value={row.after} />
            </td>
            <td className="mono">{row.requestId ?? ''}</td>
          </tr>
        )}
      </DataTable>
    </>
  );
}
