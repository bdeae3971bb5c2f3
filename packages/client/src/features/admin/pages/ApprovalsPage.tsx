import { useState } from 'react';
import { formatCoinAmount, formatDateTime, formatUsd } from '../../../lib/format';
import { usdValue } from '../../../lib/money';
import { ChoiceSelect } from '../components/ChoiceSelect';
import { DataTable } from '../components/DataTable';
import { Field } from '../components/Field';
import { FormModal } from '../components/FormModal';
import { PageToolbar } from '../components/PageToolbar';
import { useAdminAction } from '../hooks/useAdminAction';
import { useModalTarget } from '../hooks/useModalTarget';
import { type Approval, useApprovalsQuery, useApproveRequestMutation, useRejectRequestMutation } from '../store/adminApi';
import { useAppSelector } from '../../../core/hooks';
import './ApprovalsPage.css';

const STATUSES = ['pending', 'approved', 'rejected'] as const;
type ApprovalStatus = (typeof STATUSES)[number];

/** Why an action waits for a second admin, for people. */
const GATE_REASON_TEXT: Record<Approval['gatedBecause'][number], string> = {
  threshold: 'Its value is at or above the approval threshold',
  velocity: 'With the direct actions of the last window (this admin, or on this customer) it reaches the threshold',
  'settled-refund': 'It gives back money from a settled withdrawal',
  'admin-change': 'It adds an administrator',
  'fee-change': 'It changes the fee schedule',
};

const ACCOUNT_TEXT: Record<Approval['posting'][number]['account'], string> = {
  customer: 'Customer',
  deposits: 'Platform deposits',
  withdrawals_pending: 'Held withdrawals',
  withdrawals_settled: 'Settled withdrawals',
  swap_pool: 'Swap pool',
  adjustments: 'Platform adjustments',
  network_fees: 'Network fees paid',
  network_fee_margin: 'Network fee margin',
};

/** Exactly what approving moves: each ledger line (account, signed amount, USD at the request's price), and a set balance's from → to. */
function BoundPosting({ approval }: { approval: Approval }) {
  if (!approval.posting.length) return null;
  const { token, symbol } = approval.posting[0];
  return (
    <div className="bound-posting">
      <span className="muted">Approving moves exactly:</span>
      <ul aria-label="Ledger lines this approval applies">
        {approval.posting.map((line, index) => (
          <li key={index}>
            {ACCOUNT_TEXT[line.account]}
            {line.account === 'customer' && approval.userEmail ? ` (${approval.userEmail})` : ''}:{' '}
            <strong>
              {Number(line.amount) > 0 ? '+' : '−'}
              {formatCoinAmount(line.amount.replace(/^-/, ''), line.token)} {line.symbol}
            </strong>
            {approval.price ? ` (${formatUsd(usdValue(line.amount.replace(/^-/, ''), approval.price))})` : ''}
          </li>
        ))}
      </ul>
      {approval.balanceBefore !== null && approval.balanceAfter !== null ? (
        <p className="muted">
          Balance {formatCoinAmount(approval.balanceBefore, token)} → {formatCoinAmount(approval.balanceAfter, token)} {symbol}; applied only from that balance.
        </p>
      ) : null}
      {approval.fromStatus ? <p className="muted">Applied only while the transaction is still {approval.fromStatus}.</p> : null}
    </div>
  );
}

function RejectModal({ approval, onClose, onDone }: { approval: Approval; onClose: () => void; onDone: () => void }) {
  const [reject, { isLoading }] = useRejectRequestMutation();
  const [reason, setReason] = useState('');
  const { error, setError, run } = useAdminAction();
  const submit = async () => {
    if (!reason.trim()) return setError('A reason is required.');
    const request = () => reject({ id: approval._id, rejectApprovalDto: { reason: reason.trim() } }).unwrap();
    if (await run(request, { success: 'Request rejected: nothing was changed.', failure: 'The request was not rejected.' })) onDone();
  };
  return (
    <FormModal title="Reject request" onClose={onClose} onSubmit={submit} error={error} busy={isLoading} submitLabel="Reject">
      <p className="muted">{approval.summary}</p>
      <Field label="Reason">
        <textarea rows={3} value={reason} onChange={(event) => setReason(event.target.value)} />
      </Field>
    </FormModal>
  );
}

/** Four-eyes requests: another admin approves (applies exactly as requested) or rejects them. */
export default function ApprovalsPage() {
  const me = useAppSelector((state) => state.session.user?._id);
  const [status, setStatus] = useState<ApprovalStatus | ''>('pending');
  const approvals = useApprovalsQuery({ status: status || undefined }, { refetchOnMountOrArgChange: true });
  const [approve, approving] = useApproveRequestMutation();
  const rejecting = useModalTarget<Approval>(approvals.refetch);
  const { error, run } = useAdminAction();

  const onApprove = async (approval: Approval) => {
    await run(() => approve({ id: approval._id }).unwrap(), { success: 'Approved and applied.', failure: 'The request was not applied.', toastFailure: true });
    void approvals.refetch();
  };

  return (
    <>
      <PageToolbar title="Approvals" />
      <p className="muted">
        Money actions at or above the approval threshold (alone, or summed over the window), refunds of settled withdrawals and new administrators wait here
        until a second admin approves or rejects them. Approving applies exactly the lines shown.
      </p>
      <div className="admin-filters">
        <ChoiceSelect label="Status filter" none="All statuses" values={STATUSES} value={status} onChange={setStatus} />
      </div>
      <DataTable
        query={approvals}
        loadError="The approval requests could not be loaded."
        loadingLabel="Loading approval requests"
        error={error}
        label="Approval requests"
        columns={['Requested', 'Action', 'Value', 'Requested by', 'Status', 'Action ']}
        rows={approvals.data ?? []}
        empty={status === 'pending' ? 'Nothing is waiting for approval' : 'No requests'}
      >
        {(approval) => (
          <tr key={approval._id} data-approval-id={approval._id}>
            <td>{formatDateTime(approval.createdAt)}</td>
            <td className="approval-what">
              {approval.summary}
              {approval.gatedBecause.length ? (
                <>
                  <br />
                  <span className="muted">Why: {approval.gatedBecause.map((reason) => GATE_REASON_TEXT[reason]).join('; ')}.</span>
                </>
              ) : null}
              <BoundPosting approval={approval} />
              {approval.reason ? (
                <>
                  <br />
                  <span className="muted">Reason: {approval.reason}</span>
                </>
              ) : null}
              {approval.lastError ? (
                <>
                  <br />
                  <span className="form-error">Last attempt failed: {approval.lastError}</span>
                </>
              ) : null}
            </td>
            <td className="nowrap">
              {approval.action === 'create-admin' || approval.action === 'change-fees' || approval.action === 'update-verification-limits'
                ? '—'
                : formatUsd(approval.usdValue)}
            </td>
            <td className="break-anywhere">
              {approval.requestedBy.name}
              <br />
              <span className="muted">{approval.requestedBy.email}</span>
            </td>
            <td className="break-anywhere">
              <span className={`status ${approval.status}`}>{approval.status}</span>
              {approval.decidedBy ? (
                <>
                  <br />
                  <span className="muted">
                    by {approval.decidedBy.email}, {formatDateTime(approval.decidedAt)}
                  </span>
                </>
              ) : null}
              {approval.decisionReason ? (
                <>
                  <br />
                  <span className="muted">{approval.decisionReason}</span>
                </>
              ) : null}
            </td>
            <td>
              {approval.status === 'pending' ? (
                <div className="row-actions stacked">
                  {approval.requestedBy._id === me ? (
                    <span className="muted">Waiting for another admin</span>
                  ) : (
                    <button
                      type="button"
                      className="button primary small"
                      aria-label={`Approve: ${approval.summary}`}
                      disabled={approving.isLoading}
                      onClick={() => void onApprove(approval)}
                    >
                      Approve
                    </button>
                  )}
                  <button type="button" className="button small" aria-label={`Reject: ${approval.summary}`} onClick={() => rejecting.open(approval)}>
                    Reject
                  </button>
                </div>
              ) : null}
            </td>
          </tr>
        )}
      </DataTable>
      {rejecting.target ? <RejectModal approval={rejecting.target} onClose={rejecting.close} onDone={rejecting.done} /> : null}
    </>
  );
}
