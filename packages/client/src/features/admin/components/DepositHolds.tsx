import { useState } from 'react';
import { formatDateTime, formatQuantity, formatUsd } from '../../../lib/format';
import { type HeldDepositDto, useGetDepositHoldsQuery, useReleaseDepositHoldMutation } from '../../../api/generated/adminChainApi.generated';
import { useAdminAction } from '../hooks/useAdminAction';
import { useModalTarget } from '../hooks/useModalTarget';
import { useNetworkNames } from '../hooks/useNetworkNames';
import { Table } from './DataTable';
import { Field } from './Field';
import { FormModal } from './FormModal';

/** The admin's reason, then the release (a four-eyes money action above the threshold). */
function ReleaseModal({ held, onClose, onDone }: { held: HeldDepositDto; onClose: () => void; onDone: () => void }) {
  const [release, releasing] = useReleaseDepositHoldMutation();
  const [reason, setReason] = useState('');
  const { error, setError, run } = useAdminAction();
  const amount = `${formatQuantity(held.amount, 18)} ${held.symbol}`;
  const submit = async () => {
    if (!reason.trim()) return setError('A reason is required.');
    const done = await run(() => release({ id: held._id, releaseDepositHoldDto: { reason: reason.trim() } }).unwrap(), {
      success: `${amount} was released.`,
      failure: 'Nothing was released.',
    });
    if (done) onDone();
  };
  return (
    <FormModal title="Release the held deposit" onClose={onClose} onSubmit={submit} error={error} busy={releasing.isLoading} submitLabel="Release">
      <p className="muted">
        {amount} is credited to {held.userEmail} whatever their limit; their History row shows it received and they are told.
        {held.hold === 'sanctions' ? ' The account stays frozen until it is unfrozen on its own.' : ''}
      </p>
      <Field label="Reason" hint="Kept in the audit log.">
        <textarea rows={3} value={reason} onChange={(event) => setReason(event.target.value)} />
      </Field>
    </FormModal>
  );
}

/**
 * Confirmed deposits held off the customer's balance: above their verification level's deposit limit (released by the
 * watcher once the limit allows it) or sent from a sanctioned address (only an admin releases those).
 */
export function DepositHolds() {
  const holds = useGetDepositHoldsQuery(undefined, { pollingInterval: 5000, refetchOnMountOrArgChange: true });
  const releasing = useModalTarget<HeldDepositDto>(holds.refetch);
  const networkName = useNetworkNames();
  return (
    <section id="deposit-holds" className="admin-section" aria-label="Held deposits">
      <h2>Held deposits</h2>
      <p className="muted">
        A confirmed deposit is held when it would pass the customer&apos;s deposit limit (released by itself once their level or the limit allows it) or when it
        came from a sanctioned address (the account is frozen; only an admin releases it).
      </p>
      {holds.isError ? <p className="form-error">The held deposits could not be loaded.</p> : null}
      <Table
        label="Held deposits"
        columns={['Held', 'Customer', 'Amount', 'Transaction', 'Why', 'Action']}
        rows={holds.data ?? []}
        empty={holds.isLoading ? 'Loading…' : 'No deposit is held.'}
      >
        {(held) => (
          <tr key={held._id} data-testid={`deposit-hold-${held.txHash}`}>
            <td className="nowrap">{held.heldAt ? formatDateTime(held.heldAt) : '—'}</td>
            <td>{held.userEmail}</td>
            <td className="nowrap">
              {formatQuantity(held.amount, 18)} {held.symbol}
              <div className="muted">{formatUsd(held.usdAmount)}</div>
            </td>
            <td>
              {networkName(held.network, held.token)}
              <div className="mono">
                {held.txHash}:{held.outputIndex}
              </div>
            </td>
            <td>{held.holdText}</td>
            <td>
              <button type="button" className="button" onClick={() => releasing.open(held)}>
                Release
              </button>
            </td>
          </tr>
        )}
      </Table>
      {releasing.target ? <ReleaseModal held={releasing.target} onClose={releasing.close} onDone={releasing.done} /> : null}
    </section>
  );
}
