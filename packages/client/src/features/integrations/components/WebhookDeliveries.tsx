import toast from 'react-hot-toast';
import { errorMessage } from '../../../api/baseApi';
import { formatDateTime } from '../../../lib/format';
import { type Owner, useDeliveries, type WebhookDelivery } from '../hooks/useIntegrationsApi';

/** An endpoint's deliveries, newest first, each with every try; a delivered or failed one can be sent again (same id). */
export function WebhookDeliveries({ owner, webhookId }: { owner: Owner; webhookId: string }) {
  const { deliveries, isLoading, resend } = useDeliveries(owner, webhookId);

  async function again(delivery: WebhookDelivery) {
    try {
      await resend(delivery.id);
      toast.success('Queued to be sent again');
    } catch (error) {
      toast.error(errorMessage(error, 'The event could not be sent again.'));
    }
  }

  return (
    <section className="deliveries" aria-label="Deliveries">
      <h3>Deliveries</h3>
      {isLoading || !deliveries ? (
        <p className="muted">Loading…</p>
      ) : deliveries.length === 0 ? (
        <p className="muted">Nothing sent yet. Send a test event to try your receiver.</p>
      ) : (
        <ol className="delivery-list" data-testid="delivery-list">
          {deliveries.map((delivery) => (
            <li key={delivery.id} className="delivery" data-testid="delivery-row">
              <div className="integration-head">
                <span>
                  <strong>{delivery.eventType}</strong> <span className="muted">{formatDateTime(delivery.createdAt)}</span>
                </span>
                <span className={`pill pill-${delivery.state}`}>{delivery.state}</span>
              </div>
              <div className="mono muted break-anywhere">{delivery.eventId}</div>
              {delivery.nextAttemptAt && delivery.attempts.length ? <div className="muted">Next try {formatDateTime(delivery.nextAttemptAt)}</div> : null}
              <ul className="attempt-list">
                {delivery.attempts.map((attempt, index) => (
                  <li key={index}>
                    <span>{formatDateTime(attempt.attemptedAt)}</span> <strong>{attempt.status !== null ? `HTTP ${attempt.status}` : attempt.error}</strong>{' '}
                    <span className="muted">{attempt.durationMs} ms</span>
                    {/* The receiver's answer, as text: React escapes it, it is never interpreted. */}
                    {attempt.responseBody ? <pre className="response-body">{attempt.responseBody}</pre> : null}
                  </li>
                ))}
              </ul>
              {delivery.state !== 'pending' ? (
                <button type="button" className="button secondary" onClick={() => again(delivery)}>
                  Resend
                </button>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
