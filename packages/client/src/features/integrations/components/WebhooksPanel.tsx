import { type FormEvent, useState } from 'react';
import toast from 'react-hot-toast';
import { errorMessage } from '../../../api/baseApi';
import { formatDateTime } from '../../../lib/format';
import { type CreateWebhookBody, type Owner, type Webhook, type WebhookEvent, useWebhooks } from '../hooks/useIntegrationsApi';
import { eventsOf } from '../lib/labels';
import { SecretOnce } from './SecretOnce';
import { WebhookDeliveries } from './WebhookDeliveries';
import './integrations.css';

type Actions = ReturnType<typeof useWebhooks>;

/** Webhook endpoints of the signed-in owner: add one (its signing secret shown once), test, rotate, pause, delete, deliveries. */
export function WebhooksPanel({ owner }: { owner: Owner }) {
  const actions = useWebhooks(owner);
  const [secret, setSecret] = useState<{ label: string; value: string } | undefined>();
  return (
    <div className="integrations">
      <CreateWebhookForm
        owner={owner}
        creating={actions.creating}
        create={actions.create}
        onCreated={(value) => setSecret({ label: 'Signing secret', value })}
      />
      {secret ? <SecretOnce label={secret.label} secret={secret.value} onDone={() => setSecret(undefined)} /> : null}
      <section className="card" aria-labelledby="webhooks-title">
        <h2 id="webhooks-title">Your endpoints</h2>
        {actions.isLoading || !actions.webhooks ? (
          <p className="muted">Loading…</p>
        ) : actions.webhooks.length === 0 ? (
          <p className="muted">No webhook endpoint yet.</p>
        ) : (
          <ul className="integration-list" data-testid="webhook-list">
            {actions.webhooks.map((webhook) => (
              <WebhookRow
                key={webhook.id}
                owner={owner}
                webhook={webhook}
                actions={actions}
                onSecret={(value) => setSecret({ label: 'New signing secret', value })}
              />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function CreateWebhookForm(props: {
  owner: Owner;
  creating: boolean;
  create: (body: CreateWebhookBody) => Promise<{ secret: string }>;
  onCreated: (secret: string) => void;
}) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>([]);
  const toggle = (event: WebhookEvent) => setEvents((current) => (current.includes(event) ? current.filter((e) => e !== event) : [...current, event]));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!url.trim() || !events.length || props.creating) return;
    try {
      const created = await props.create({ url: url.trim(), events, ...(description.trim() ? { description: description.trim() } : {}) });
      props.onCreated(created.secret);
      setUrl('');
      setDescription('');
      setEvents([]);
      toast.success('Webhook endpoint added');
    } catch (error) {
      toast.error(errorMessage(error, 'The endpoint could not be added.'));
    }
  }

  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="webhook-create-title">
      <h2 id="webhook-create-title">Add an endpoint</h2>
      <div className="field">
        <label htmlFor="webhook-url">URL</label>
        <input
          id="webhook-url"
          type="url"
          inputMode="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://example.com/coinpurse/webhooks"
          aria-describedby="webhook-url-hint"
        />
        <small id="webhook-url-hint" className="hint">
          An https address your server answers on. Each delivery is signed (Standard Webhooks): verify it with the secret.
        </small>
      </div>
      <div className="field">
        <label htmlFor="webhook-description">Description (optional)</label>
        <input id="webhook-description" maxLength={200} value={description} onChange={(e) => setDescription(e.target.value)} />
      </div>
      <fieldset className="field check-group check-columns">
        <legend>Events</legend>
        {eventsOf(props.owner).map((option) => (
          <label key={option.event} className="check">
            <input type="checkbox" checked={events.includes(option.event)} onChange={() => toggle(option.event)} />
            <span>{option.label}</span>
          </label>
        ))}
      </fieldset>
      <button type="submit" className="button" disabled={!url.trim() || !events.length || props.creating}>
        {props.creating ? 'Adding…' : 'Add endpoint'}
      </button>
    </form>
  );
}

function WebhookRow({ owner, webhook, actions, onSecret }: { owner: Owner; webhook: Webhook; actions: Actions; onSecret: (secret: string) => void }) {
  const [showDeliveries, setShowDeliveries] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);

  async function act(run: () => Promise<unknown>, done: string, failed: string) {
    try {
      await run();
      toast.success(done);
    } catch (error) {
      toast.error(errorMessage(error, failed));
    }
  }

  async function rotate() {
    try {
      onSecret((await actions.rotate(webhook.id)).secret);
      toast.success('New signing secret made');
    } catch (error) {
      toast.error(errorMessage(error, 'The secret could not be rotated.'));
    }
  }

  return (
    <li className="integration-item" data-testid="webhook-row">
      <div className="integration-head">
        <strong className="break-anywhere">{webhook.url}</strong>
        <span className={`pill ${webhook.enabled ? 'pill-active' : 'pill-revoked'}`}>{webhook.enabled ? 'on' : 'off'}</span>
      </div>
      {webhook.description ? <p className="break-anywhere">{webhook.description}</p> : null}
      {webhook.disabledReason ? <p className="status-note break-anywhere">{webhook.disabledReason}</p> : null}
      <dl className="integration-details">
        <dt>Events</dt>
        <dd className="break-anywhere">{webhook.events.join(', ')}</dd>
        <dt>Waiting</dt>
        <dd>{webhook.pending}</dd>
        <dt>Added</dt>
        <dd>{formatDateTime(webhook.createdAt)}</dd>
        {webhook.previousSecretUntil ? (
          <>
            <dt>Old secret</dt>
            <dd>signs too until {formatDateTime(webhook.previousSecretUntil)}</dd>
          </>
        ) : null}
      </dl>
      <div className="integration-actions">
        <button type="button" className="button secondary" onClick={() => setShowDeliveries((value) => !value)} aria-expanded={showDeliveries}>
          Deliveries
        </button>
        <button
          type="button"
          className="button secondary"
          disabled={!webhook.enabled}
          onClick={() => act(() => actions.test(webhook.id), 'Test event sent', 'The test event could not be sent.')}
        >
          Send test
        </button>
        <button type="button" className="button secondary" onClick={rotate}>
          Rotate secret
        </button>
        <button
          type="button"
          className="button secondary"
          onClick={() =>
            act(
              () => actions.update(webhook.id, { enabled: !webhook.enabled }),
              webhook.enabled ? 'Endpoint paused' : 'Endpoint turned on',
              'The endpoint could not be changed.',
            )
          }
        >
          {webhook.enabled ? 'Pause' : 'Turn on'}
        </button>
        {confirmingDelete ? (
          <>
            <button
              type="button"
              className="button danger"
              onClick={() => act(() => actions.remove(webhook.id), 'Endpoint deleted', 'The endpoint could not be deleted.')}
            >
              Delete now
            </button>
            <button type="button" className="button secondary" onClick={() => setConfirmingDelete(false)}>
              Keep it
            </button>
          </>
        ) : (
          <button type="button" className="button secondary" onClick={() => setConfirmingDelete(true)}>
            Delete
          </button>
        )}
      </div>
      {showDeliveries ? <WebhookDeliveries owner={owner} webhookId={webhook.id} /> : null}
    </li>
  );
}
