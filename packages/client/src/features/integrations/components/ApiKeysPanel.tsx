import { type FormEvent, useState } from 'react';
import toast from 'react-hot-toast';
import { errorMessage, isTwoFactorRequired } from '../../../api/baseApi';
import { useTwoFactorStatusQuery } from '../../../api/endpoints';
import { SecondFactorField, useSecondFactor } from '../../../components/SecondFactorField';
import { formatDateTime } from '../../../lib/format';
import { type ApiKey, type CreateApiKeyBody, type Owner, useApiKeys } from '../hooks/useIntegrationsApi';
import { localDateTimeToIso, SCOPES, splitAddresses } from '../lib/labels';
import { SecretOnce } from './SecretOnce';
import './integrations.css';

type Scope = CreateApiKeyBody['scopes'][number];

/** API keys of the signed-in owner: create one (its key shown once), see each one's use, revoke. */
export function ApiKeysPanel({ owner }: { owner: Owner }) {
  const { keys, isLoading, create, creating, revoke } = useApiKeys(owner);
  const [shown, setShown] = useState<string | undefined>();
  return (
    <div className="integrations">
      <CreateKeyForm owner={owner} creating={creating} create={create} onCreated={setShown} />
      {shown ? <SecretOnce label="Your new API key" secret={shown} onDone={() => setShown(undefined)} /> : null}
      <section className="card" aria-labelledby="api-keys-title">
        <h2 id="api-keys-title">Your keys</h2>
        {isLoading || !keys ? (
          <p className="muted">Loading…</p>
        ) : keys.length === 0 ? (
          <p className="muted">No API key yet.</p>
        ) : (
          <ul className="integration-list" data-testid="api-key-list">
            {keys.map((key) => (
              <KeyRow key={key.id} apiKey={key} revoke={revoke} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function CreateKeyForm(props: {
  owner: Owner;
  creating: boolean;
  create: (body: CreateApiKeyBody) => Promise<{ key: string }>;
  onCreated: (key: string) => void;
}) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['read']);
  const [addresses, setAddresses] = useState('');
  const [expiry, setExpiry] = useState('');
  const { data: twoFactor } = useTwoFactorStatusQuery();
  // Keys that move money or change the back office are a step-up action.
  const secondFactor = useSecondFactor(Boolean(twoFactor?.enabled) && (scopes.includes('withdraw') || scopes.includes('operate')));

  const toggle = (scope: Scope) => setScopes((current) => (current.includes(scope) ? current.filter((s) => s !== scope) : [...current, scope]));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim() || !scopes.length || props.creating) return;
    const allowedIps = splitAddresses(addresses);
    try {
      const created = await props.create({
        name: name.trim(),
        scopes,
        ...(allowedIps.length ? { allowedIps } : {}),
        ...(localDateTimeToIso(expiry) ? { expiresAt: localDateTimeToIso(expiry) } : {}),
        ...(secondFactor.value ? { code: secondFactor.value } : {}),
      });
      props.onCreated(created.key);
      setName('');
      setAddresses('');
      setExpiry('');
      secondFactor.reset();
      toast.success('API key created');
    } catch (error) {
      if (isTwoFactorRequired(error)) secondFactor.ask();
      toast.error(errorMessage(error, 'The key could not be created.'));
    }
  }

  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="api-key-create-title">
      <h2 id="api-key-create-title">Create an API key</h2>
      <div className="field">
        <label htmlFor="api-key-name">Name</label>
        <input id="api-key-name" maxLength={100} value={name} onChange={(e) => setName(e.target.value)} placeholder="Accounting export" />
      </div>
      <fieldset className="field check-group">
        <legend>Scopes</legend>
        {SCOPES[props.owner].map((option) => (
          <label key={option.scope} className="check">
            <input type="checkbox" checked={scopes.includes(option.scope)} onChange={() => toggle(option.scope)} />
            <span>
              <strong>{option.label}</strong> <span className="hint">{option.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor="api-key-ips">Allowed addresses (optional)</label>
        <textarea
          id="api-key-ips"
          rows={2}
          value={addresses}
          onChange={(e) => setAddresses(e.target.value)}
          placeholder="203.0.113.7, 198.51.100.0/24"
          aria-describedby="api-key-ips-hint"
        />
        <small id="api-key-ips-hint" className="hint">
          IP addresses or CIDR ranges, separated by commas or lines. Empty: any address.
        </small>
      </div>
      <div className="field">
        <label htmlFor="api-key-expiry">Expires (optional)</label>
        <input id="api-key-expiry" type="datetime-local" value={expiry} onChange={(e) => setExpiry(e.target.value)} />
      </div>
      {scopes.includes('withdraw') ? (
        <p className="hint">A key that can withdraw needs your address allowlist on: it sends only to addresses saved in your address book.</p>
      ) : null}
      {secondFactor.needed ? <SecondFactorField id="api-key-code" value={secondFactor.code} onChange={secondFactor.setCode} /> : null}
      <button type="submit" className="button" disabled={!name.trim() || !scopes.length || props.creating}>
        {props.creating ? 'Creating…' : 'Create key'}
      </button>
    </form>
  );
}

function KeyRow({ apiKey, revoke }: { apiKey: ApiKey; revoke: (id: string) => Promise<unknown> }) {
  const [confirming, setConfirming] = useState(false);

  async function doRevoke() {
    try {
      await revoke(apiKey.id);
      toast.success('API key revoked');
    } catch (error) {
      toast.error(errorMessage(error, 'The key could not be revoked.'));
    }
    setConfirming(false);
  }

  return (
    <li className="integration-item" data-testid="api-key-row">
      <div className="integration-head">
        <strong className="break-anywhere">{apiKey.name}</strong>
        <span className={`pill pill-${apiKey.status}`}>{apiKey.status}</span>
      </div>
      <dl className="integration-details">
        <dt>Key</dt>
        <dd className="mono">{apiKey.prefix}…</dd>
        <dt>Scopes</dt>
        <dd>{apiKey.scopes.join(', ')}</dd>
        <dt>Addresses</dt>
        <dd className="break-anywhere">{apiKey.allowedIps.length ? apiKey.allowedIps.join(', ') : 'Any'}</dd>
        <dt>Expires</dt>
        <dd>{apiKey.expiresAt ? formatDateTime(apiKey.expiresAt) : 'Never'}</dd>
        <dt>Created</dt>
        <dd>{formatDateTime(apiKey.createdAt)}</dd>
        <dt>Last used</dt>
        <dd className="break-anywhere">
          {apiKey.lastUsedAt ? `${formatDateTime(apiKey.lastUsedAt)} from ${apiKey.lastUsedIp ?? 'an unknown address'}` : 'Never'}
        </dd>
      </dl>
      {apiKey.status === 'revoked' ? null : confirming ? (
        <div className="integration-actions">
          <button type="button" className="button danger" onClick={doRevoke}>
            Revoke now
          </button>
          <button type="button" className="button secondary" onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </div>
      ) : (
        <div className="integration-actions">
          <button type="button" className="button secondary" onClick={() => setConfirming(true)} aria-label={`Revoke ${apiKey.name}`}>
            Revoke
          </button>
        </div>
      )}
    </li>
  );
}
