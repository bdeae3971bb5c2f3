import { useState } from 'react';
import { formatDateTime, formatQuantity } from '../../../lib/format';
import {
  type ChainDepositReviewDto,
  useGetDepositReviewsQuery,
  useKeepDepositMutation,
  useTakeBackDepositMutation,
} from '../../../api/generated/adminChainApi.generated';
import { useAdminAction } from '../hooks/useAdminAction';
import { useModalTarget } from '../hooks/useModalTarget';
import { useNetworkNames } from '../hooks/useNetworkNames';
import { Table } from './DataTable';
import { Field } from './Field';
import { FormModal } from './FormModal';

type Decision = { review: ChainDepositReviewDto; action: 'take-back' | 'keep' };

const RESOLUTION_TEXT = { taken_back: 'Taken back', kept: 'Kept (loss accepted)' } as const;

/** The admin's reason, then "take back" (a four-eyes money action above the threshold) or "keep". */
function DecisionModal({ decision, onClose, onDone }: { decision: Decision; onClose: () => void; onDone: () => void }) {
  const [takeBack, takingBack] = useTakeBackDepositMutation();
  const [keep, keeping] = useKeepDepositMutation();
  const [reason, setReason] = useState('');
  const { error, setError, run } = useAdminAction();
  const { review, action } = decision;
  const amount = `${formatQuantity(review.amount, 18)} ${review.symbol}`;
  const submit = async () => {
    if (!reason.trim()) return setError('A reason is required.');
    const body = { id: review._id, resolveDepositReviewDto: { reason: reason.trim() } };
    const done =
      action === 'take-back'
        ? await run(() => takeBack(body).unwrap(), { success: `${amount} was taken back.`, failure: 'Nothing was taken back.' })
        : await run(() => keep(body).unwrap(), { success: 'Kept: the review is resolved.', failure: 'The review was not resolved.' });
    if (done) onDone();
  };
  return (
    <FormModal
      title={action === 'take-back' ? 'Take back the deposit' : 'Keep the deposit (accept the loss)'}
      onClose={onClose}
      onSubmit={submit}
      error={error}
      busy={takingBack.isLoading || keeping.isLoading}
      submitLabel={action === 'take-back' ? 'Take back' : 'Keep'}
    >
      <p className="muted">
        {action === 'take-back'
          ? `${amount} goes from ${review.userEmail} back to the platform's deposits account; their History row is rejected and they are told why.`
          : `${review.userEmail} keeps the ${amount}; nothing moves, the review is closed.`}
      </p>
      <Field label="Reason" hint={action === 'take-back' ? 'The customer reads it.' : undefined}>
        <textarea rows={3} value={reason} onChange={(event) => setReason(event.target.value)} />
      </Field>
    </FormModal>
  );
}

/**
 * Credited deposits whose block was orphaned by a reorganisation (flagged, never debited by themselves): an admin
 * takes each back or keeps it, with a reason.
 */
export function DepositReviews() {
  const reviews = useGetDepositReviewsQuery(undefined, { pollingInterval: 5000, refetchOnMountOrArgChange: true });
  const deciding = useModalTarget<Decision>(reviews.refetch);
  const networkName = useNetworkNames();
  return (
    <section id="deposit-reviews" className="admin-section" aria-label="Deposits to review">
      <h2>Deposits to review</h2>
      <p className="muted">
        A deposit lands here when the block that paid it left the blockchain (a reorganisation) after the customer was credited: the coins may never have
        arrived. Take each back or keep it.
      </p>
      {reviews.isError ? <p className="form-error">The deposits to review could not be loaded.</p> : null}
      <Table
        label="Deposits to review"
        columns={['Seen', 'Customer', 'Amount', 'Transaction', 'Now', 'Decision']}
        rows={reviews.data ?? []}
        empty={reviews.isLoading ? 'Loading…' : 'Nothing to review: every credited deposit is still in the blockchain.'}
      >
        {(review) => (
          <tr key={review._id} data-testid={`deposit-review-${review.txHash}`}>
            <td className="nowrap">{formatDateTime(review.createdAt)}</td>
            <td>{review.userEmail}</td>
            <td className="nowrap">
              {formatQuantity(review.amount, 18)} {review.symbol}
            </td>
            <td>
              {networkName(review.network, review.token)}
              <div className="mono">
                {review.txHash}:{review.outputIndex}
              </div>
            </td>
            <td>{review.blockHeight !== null ? `Mined again in block ${review.blockHeight}` : 'In no block'}</td>
            <td>
              {review.resolution ? (
                <span>
                  {RESOLUTION_TEXT[review.resolution]}
                  {review.resolvedBy ? ` by ${review.resolvedBy}` : ''}
                  {review.resolvedAt ? ` (${formatDateTime(review.resolvedAt)})` : ''}: {review.reason}
                </span>
              ) : (
                <div className="row-actions">
                  <button type="button" className="button danger" onClick={() => deciding.open({ review, action: 'take-back' })}>
                    Take back
                  </button>
                  <button type="button" className="button" onClick={() => deciding.open({ review, action: 'keep' })}>
                    Keep (accept loss)
                  </button>
                </div>
              )}
            </td>
          </tr>
        )}
      </Table>
      {deciding.target ? <DecisionModal decision={deciding.target} onClose={deciding.close} onDone={deciding.done} /> : null}
    </section>
  );
}
