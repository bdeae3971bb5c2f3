import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import {
  type LevelLimitsDto,
  useApproveVerificationMutation,
  useAssignVerificationMutation,
  useGetVerificationLimitsQuery,
  useGetVerificationReviewQuery,
  useGetVerificationsQuery,
  useRejectVerificationMutation,
  useUpdateVerificationLimitsMutation,
  type VerificationDetailDto,
} from '../../../api/generated/adminVerificationApi.generated';
import { Spinner } from '../../../components/Spinner';
import { useAppSelector } from '../../../core/hooks';
import { formatDateTime, formatUsd } from '../../../lib/format';
import { ChoiceSelect } from '../components/ChoiceSelect';
import { DataTable } from '../components/DataTable';
import { Field, FormError } from '../components/Field';
import { Modal } from '../components/Modal';
import { PAGE_SIZE, useCursorPager } from '../components/Pager';
import { PageToolbar } from '../components/PageToolbar';
import { useAdminAction } from '../hooks/useAdminAction';
import { serverMessage } from '../lib/adminToast';
import './VerificationsPage.css';

const STATUSES = ['in_review', 'approved', 'rejected'] as const;
const STATUS_LABELS = { in_review: 'In review', approved: 'Approved', rejected: 'Rejected' } as const;
const DOCUMENT_LABELS: Record<string, string> = {
  id_front: 'Identity document, front',
  id_back: 'Identity document, back',
  selfie: 'Selfie',
  proof_of_address: 'Proof of address',
};
const DOCUMENT_TYPES: Record<string, string> = { passport: 'Passport', id_card: 'Identity card', driving_licence: 'Driving licence' };

/**
 * A document's image, fetched with the admin's session (the server answers only to an admin, never cached, on no public
 * URL) and shown from memory.
 */
function DocumentImage({ url, label }: { url: string; label: string }) {
  const token = useAppSelector((state) => state.session.user?.token);
  const [source, setSource] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let objectUrl: string | null = null;
    let cancelled = false;
    void fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {}, cache: 'no-store' })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        objectUrl = URL.createObjectURL(await response.blob());
        if (!cancelled) setSource(objectUrl);
      })
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url, token]);
  if (failed) return <p className="field-error">The document could not be loaded.</p>;
  return source ? <img src={source} alt={label} /> : <Spinner label={`Loading ${label}`} />;
}

function ReviewModal({ id, onClose }: { id: string; onClose: () => void }) {
  const review = useGetVerificationReviewQuery({ id }, { refetchOnMountOrArgChange: true });
  const history = useGetVerificationsQuery({ userId: review.data?.userId, limit: 20 }, { skip: !review.data });
  const [assign, assigning] = useAssignVerificationMutation();
  const [approve, approving] = useApproveVerificationMutation();
  const [reject, rejecting] = useRejectVerificationMutation();
  const [reason, setReason] = useState('');
  const { error, setError, run } = useAdminAction();
  const data: VerificationDetailDto | undefined = review.data;

  const refresh = () => {
    review.refetch();
    if (data) history.refetch();
  };
  const doReject = async (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return setError('A reason is required: the customer reads it.');
    if (
      await run(() => reject({ id, rejectVerificationDto: { reason: reason.trim() } }).unwrap(), {
        success: 'Verification rejected',
        failure: 'It was not rejected.',
      })
    ) {
      setReason('');
      refresh();
    }
  };

  return (
    <Modal title={data ? `Verification of ${data.userName}` : 'Verification'} onClose={onClose} wide>
      {review.isLoading ? <Spinner /> : null}
      {review.isError ? <FormError message={serverMessage(review.error, 'The verification could not be loaded.')} /> : null}
      {data ? (
        <div className="verification-review">
          <p>
            <span className={`status ${data.status === 'in_review' ? 'pending' : data.status}`}>{STATUS_LABELS[data.status]}</span> Asks for level {data.level}{' '}
            · now at level {data.currentLevel} · <span className="break-anywhere">{data.userEmail}</span> · sent {formatDateTime(data.createdAt)}
          </p>
          <p className="muted">
            Reviewer: {data.assignedToName ?? 'nobody yet'}
            {data.decidedAt ? ` · decided by ${data.decidedByName ?? '—'} on ${formatDateTime(data.decidedAt)}` : ''}
            {data.reason ? ` · reason: ${data.reason}` : ''}
          </p>
          {data.details ? (
            <dl className="details">
              <dt>Legal name</dt>
              <dd>{data.details.legalName}</dd>
              <dt>Date of birth</dt>
              <dd>{data.details.dateOfBirth}</dd>
              <dt>Address</dt>
              <dd className="break-anywhere">{data.details.address}</dd>
              <dt>Country</dt>
              <dd>{data.details.country}</dd>
              <dt>Document</dt>
              <dd>{DOCUMENT_TYPES[data.details.documentType] ?? data.details.documentType}</dd>
            </dl>
          ) : null}
          <ul className="verification-documents">
            {data.documents.map((document) => (
              <li key={document._id}>
                <h3>{DOCUMENT_LABELS[document.kind]}</h3>
                <DocumentImage url={document.url} label={`${DOCUMENT_LABELS[document.kind]} of ${data.userName}`} />
              </li>
            ))}
          </ul>
          {data.status === 'in_review' ? (
            <form className="admin-form" onSubmit={doReject} noValidate>
              <Field label="Reason (to reject; the customer reads it)">
                <textarea rows={3} value={reason} onChange={(event) => setReason(event.target.value)} maxLength={1000} />
              </Field>
              <FormError message={error} />
              <div className="admin-actions">
                <button
                  type="button"
                  className="button"
                  disabled={assigning.isLoading}
                  onClick={async () =>
                    (await run(() => assign({ id, assignVerificationDto: {} }).unwrap(), { success: 'Assigned to you', failure: 'Not assigned.' })) && refresh()
                  }
                >
                  Assign to me
                </button>
                <button type="submit" className="button danger" disabled={rejecting.isLoading}>
                  Reject
                </button>
                <button
                  type="button"
                  className="button primary"
                  disabled={approving.isLoading}
                  onClick={async () =>
                    (await run(() => approve({ id }).unwrap(), { success: 'Verification approved', failure: 'It was not approved.' })) && refresh()
                  }
                >
                  Approve
                </button>
              </div>
            </form>
          ) : null}
          <h3>History of this customer</h3>
          <ul>
            {(history.data?.items ?? []).map((item) => (
              <li key={item._id}>
                Level {item.level}, {formatDateTime(item.createdAt)}: {STATUS_LABELS[item.status]}
                {item.reason ? ` (${item.reason})` : ''}
              </li>
            ))}
          </ul>
          <p>
            <Link to={`/admin/users/${data.userId}`}>The customer’s page</Link>
          </p>
        </div>
      ) : null}
    </Modal>
  );
}

const LIMIT_FIELDS: Array<[keyof LevelLimitsDto, string]> = [
  ['depositDay', 'Deposits a day'],
  ['depositMonth', 'Deposits per 30 days'],
  ['withdrawalDay', 'Withdrawals a day'],
  ['withdrawalMonth', 'Withdrawals per 30 days'],
  ['withdrawalSingle', 'Largest withdrawal'],
  ['swapDay', 'Swaps a day'],
  ['swapMonth', 'Swaps per 30 days'],
];

function LimitsForm({ level, limits }: { level: number; limits: LevelLimitsDto }) {
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(LIMIT_FIELDS.map(([key]) => [key, limits[key] ?? ''])));
  const [update, updating] = useUpdateVerificationLimitsMutation();
  const { error, run } = useAdminAction();
  const save = async (event: FormEvent) => {
    event.preventDefault();
    const body = Object.fromEntries(LIMIT_FIELDS.map(([key]) => [key, values[key].trim() === '' ? null : values[key].trim()])) as unknown as LevelLimitsDto;
    await run(() => update({ level: String(level), updateLevelLimitsDto: body }).unwrap(), {
      success: `Level ${level} limits saved`,
      failure: 'The limits were not saved.',
    });
  };
  return (
    <form className="card admin-form" onSubmit={save} noValidate aria-label={`Level ${level} limits`}>
      <h3>Level {level}</h3>
      <div className="verification-limits-form">
        {LIMIT_FIELDS.map(([key, label]) => (
          <Field key={key} label={`${label} (USD)`} hint={values[key] ? formatUsd(values[key]) : 'Empty: no limit'}>
            <input inputMode="decimal" value={values[key]} onChange={(event) => setValues({ ...values, [key]: event.target.value })} />
          </Field>
        ))}
      </div>
      <FormError message={error} />
      <div className="admin-actions">
        <button type="submit" className="button primary" disabled={updating.isLoading}>
          Save level {level}
        </button>
      </div>
    </form>
  );
}

/** Back office → Verifications: the review queue, each submission's documents, and each level's limits. */
export default function VerificationsPage() {
  const [status, setStatus] = useState<'' | (typeof STATUSES)[number]>('in_review');
  const pager = useCursorPager(status);
  const list = useGetVerificationsQuery({ limit: PAGE_SIZE, cursor: pager.cursor, status: status || undefined }, { refetchOnMountOrArgChange: true });
  const limits = useGetVerificationLimitsQuery();
  const [openId, setOpenId] = useState<string | null>(null);
  return (
    <>
      <PageToolbar title="Verifications" />
      <p className="muted">Customers asking for a higher level. Open one to see the details and documents, then approve or reject it with a reason.</p>
      <div className="admin-filters">
        <ChoiceSelect label="Status" none="All" values={STATUSES} labels={STATUS_LABELS} value={status} onChange={setStatus} />
      </div>
      <DataTable
        query={list}
        loadError="The verifications could not be loaded."
        loadingLabel="Loading verifications"
        pager={pager}
        nextCursor={list.data?.nextCursor}
        columns={['Customer', 'Asks for', 'Status', 'Reviewer', 'Sent', 'Action']}
        rows={list.data?.items ?? []}
        empty="No verifications"
      >
        {(item) => (
          <tr key={item._id}>
            <td>
              {item.userName}
              <br />
              <span className="muted break-anywhere">{item.userEmail}</span>
            </td>
            <td>
              Level {item.level} <span className="muted">(now {item.currentLevel})</span>
            </td>
            <td>
              <span className={`status ${item.status === 'in_review' ? 'pending' : item.status}`}>{STATUS_LABELS[item.status]}</span>
            </td>
            <td>{item.assignedToName ?? '—'}</td>
            <td>{formatDateTime(item.createdAt)}</td>
            <td>
              <button type="button" className="button small" onClick={() => setOpenId(item._id)} aria-label={`Review ${item.userName}'s verification`}>
                Review
              </button>
            </td>
          </tr>
        )}
      </DataTable>
      {openId ? (
        <ReviewModal
          id={openId}
          onClose={() => {
            setOpenId(null);
            list.refetch();
          }}
        />
      ) : null}
      <h2>Limits per level</h2>
      <p className="muted">
        {limits.data?.limitsEnabled
          ? 'Enforced on every send, swap and chain deposit (KYC_LIMITS=on). Changes are audited and, with four-eyes on, wait for a second admin.'
          : 'Not enforced: KYC_LIMITS is off. Changes are kept for when it is turned on.'}
      </p>
      {limits.data ? (
        limits.data.levels.map((level) => <LimitsForm key={level.level} level={level.level} limits={level.limits} />)
      ) : (
        <Spinner label="Loading the limits" />
      )}
    </>
  );
}
