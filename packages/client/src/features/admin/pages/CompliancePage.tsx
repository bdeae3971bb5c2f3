import { type ChangeEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import { useGetSanctionsHitsQuery, useGetSanctionsListQuery, useUploadSanctionsListMutation } from '../../../api/generated/adminComplianceApi.generated';
import { DocsLink } from '../../../components/DocsLink';
import { formatDateTime, formatQuantity } from '../../../lib/format';
import { Table } from '../components/DataTable';
import { Field, FormError } from '../components/Field';
import { PageToolbar } from '../components/PageToolbar';
import { useAdminAction } from '../hooks/useAdminAction';

const SOURCE_TEXT = { none: 'No list loaded yet', file: 'Loaded from SANCTIONS_LIST_FILE', upload: 'Uploaded by an administrator' } as const;
const KIND_TEXT = { send: 'Send refused', 'address-book': 'Address book entry refused', deposit: 'Deposit from a listed address' } as const;

/**
 * Sanctions screening for the operator: the list in force (where it came from, how many addresses per network), a new
 * list to upload, and what screening caught (sends and address-book entries refused, deposits credited and frozen).
 */
export default function CompliancePage() {
  const list = useGetSanctionsListQuery(undefined, { refetchOnMountOrArgChange: true });
  const hits = useGetSanctionsHitsQuery({}, { refetchOnMountOrArgChange: true, pollingInterval: 60_000 });
  const [upload, uploading] = useUploadSanctionsListMutation();
  const [text, setText] = useState('');
  const { error, setError, run } = useAdminAction();

  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) setText(await file.text());
  };
  const submit = async () => {
    if (!text.trim()) return setError('Choose a file or paste the list first.');
    const done = await run(() => upload({ uploadSanctionsListDto: { list: text } }).unwrap(), {
      success: 'Sanctions list replaced',
      failure: 'The list was not loaded.',
    });
    if (done) {
      setText('');
      void list.refetch();
    }
  };

  const state = list.data;
  return (
    <>
      <PageToolbar title="Compliance" />
      <section className="admin-section" aria-labelledby="list-heading">
        <h2 id="list-heading">Sanctions list</h2>
        {state ? (
          <>
            <p>
              {SOURCE_TEXT[state.source]}
              {state.loadedAt ? ` · ${formatDateTime(state.loadedAt)}` : ''} · {state.entries} addresses
              {state.networks.length ? ` (${state.networks.map((n) => `${n.network} ${n.entries}`).join(', ')})` : ''}
            </p>
            {state.file ? <p className="break-anywhere muted">File: {state.file}</p> : null}
            {state.fileError ? <FormError message={state.fileError} /> : null}
          </>
        ) : null}
        <p>
          One <code>network,address</code> a line; lines starting with # are skipped. An upload replaces the list in force until the file changes.{' '}
          <DocsLink page="operate/sanctions-and-freezes.md" />
        </p>
        <Field label="List file">
          <input type="file" accept=".csv,.txt,text/csv,text/plain" onChange={(event) => void readFile(event)} />
        </Field>
        <Field label="Or paste the list">
          <textarea rows={4} value={text} onChange={(event) => setText(event.target.value)} className="mono" />
        </Field>
        <FormError message={error} />
        <button type="button" className="button primary" disabled={uploading.isLoading} onClick={() => void submit()}>
          Replace the list
        </button>
      </section>

      <section className="admin-section" aria-labelledby="hits-heading">
        <h2 id="hits-heading">Caught by screening</h2>
        <Table columns={['Date', 'What', 'Customer', 'Network', 'Address', 'Deposit']} rows={hits.data ?? []} empty="Nothing caught">
          {(hit) => (
            <tr key={hit._id}>
              <td className="nowrap">{formatDateTime(hit.createdAt)}</td>
              <td>{KIND_TEXT[hit.kind]}</td>
              <td className="break-anywhere">
                <Link to={`/admin/users/${hit.userId}`}>{hit.userEmail}</Link>
              </td>
              <td>{hit.network}</td>
              <td className="mono break-anywhere">{hit.address}</td>
              <td className="break-anywhere">
                {hit.amount ? `${formatQuantity(hit.amount)} ${hit.token ?? ''}` : '—'}
                {hit.txid ? <div className="mono small-text">{hit.txid}</div> : null}
              </td>
            </tr>
          )}
        </Table>
      </section>
    </>
  );
}
