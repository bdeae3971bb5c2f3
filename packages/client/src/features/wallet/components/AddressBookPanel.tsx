import { useEffect, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { errorMessage } from '../../../api/baseApi';
import { useGetNetworksQuery, useTwoFactorStatusQuery, type WalletToken } from '../../../api/endpoints';
import { SecondFactorField, useSecondFactor } from '../../../components/SecondFactorField';
import {
  useAddAddressMutation,
  useDeleteAddressMutation,
  useGetAddressesQuery,
  useSetAllowlistMutation,
} from '../../../api/generated/walletAddressesApi.generated';
import { networksOf } from '../lib/networks';
import { PanelHeader } from './PanelHeader';
import './AddressBookPanel.css';

/** Saved withdrawal addresses and allowlist mode (sends only to saved addresses, after the hold period). */
export default function AddressBookPanel({ tokens, onClose }: { tokens: WalletToken[]; onClose: () => void }) {
  const { data: book, isLoading } = useGetAddressesQuery();
  const { data: networks } = useGetNetworksQuery();
  const [addAddress, { isLoading: adding }] = useAddAddressMutation();
  const [deleteAddress] = useDeleteAddressMutation();
  const [setAllowlist, { isLoading: switching }] = useSetAllowlistMutation();
  const [label, setLabel] = useState('');
  const [tokenId, setTokenId] = useState(tokens[0]?.id ?? '');
  const [network, setNetwork] = useState('');
  const [address, setAddress] = useState('');
  const [memo, setMemo] = useState('');
  const [requestedAllowlist, setRequestedAllowlist] = useState<boolean | undefined>();
  const storedAllowlist = book?.allowlistEnabled;
  useEffect(() => {
    if (storedAllowlist === requestedAllowlist) setRequestedAllowlist(undefined);
  }, [storedAllowlist, requestedAllowlist]);
  // Saving an address and turning the allowlist off are step-up actions when two-factor sign-in is on.
  const { data: twoFactor } = useTwoFactorStatusQuery();
  const secondFactor = useSecondFactor(Boolean(twoFactor?.enabled));
  // When the panel opened: entries still on hold then say when they become usable.
  const [openedAt] = useState(() => Date.now());
  const token = tokens.find((t) => t.id === tokenId);
  const tokenNetworks = token ? networksOf(token) : [];
  const networkId = network || (tokenNetworks.length === 1 ? tokenNetworks[0].network : '');
  const memoInfo = networks?.find((n) => n.id === networkId && n.memo);
  const canSave = label.trim() && tokenId && address.trim() && (tokenNetworks.length <= 1 || network) && (!secondFactor.needed || secondFactor.value);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!canSave) return;
    try {
      await addAddress({
        addAddressDto: {
          label: label.trim(),
          token: tokenId,
          address: address.trim(),
          ...(networkId ? { network: networkId } : {}),
          ...(memoInfo && memo.trim() ? { memo: memo.trim() } : {}),
          ...(secondFactor.value ? { code: secondFactor.value } : {}),
        },
      }).unwrap();
      toast.success('Address saved');
      secondFactor.reset();
      setLabel('');
      setAddress('');
      setMemo('');
    } catch (error) {
      toast.error(errorMessage(error, 'The address could not be saved.'));
    }
  }

  async function toggle(enabled: boolean) {
    if (!enabled && secondFactor.needed && !secondFactor.value) {
      toast.error('Enter the 6-digit code from your authenticator app.');
      return;
    }
    // The box shows the requested state while the server answers; the stored state comes back with the refetch.
    setRequestedAllowlist(enabled);
    try {
      await setAllowlist({ setAllowlistDto: { enabled, ...(!enabled && secondFactor.value ? { code: secondFactor.value } : {}) } }).unwrap();
      toast.success(enabled ? 'Allowlist turned on' : 'Allowlist turned off');
      if (!enabled) secondFactor.reset();
    } catch (error) {
      setRequestedAllowlist(undefined);
      toast.error(errorMessage(error, 'The allowlist could not be changed.'));
    }
  }

  async function remove(id: string) {
    try {
      await deleteAddress({ id }).unwrap();
      toast.success('Address deleted');
    } catch (error) {
      toast.error(errorMessage(error, 'The address could not be deleted.'));
    }
  }

  return (
    <section className="panel" aria-label="Address book">
      <PanelHeader title="Address book" onBack={onClose} />
      <label className="checkbox">
        <input
          type="checkbox"
          checked={requestedAllowlist ?? book?.allowlistEnabled ?? false}
          disabled={!book || switching}
          onChange={(e) => toggle(e.target.checked)}
        />{' '}
        Allowlist: send only to saved addresses
      </label>
      {secondFactor.needed && <SecondFactorField id="book-code" value={secondFactor.code} onChange={secondFactor.setCode} />}
      <p className="hint">
        {book?.holdHours
          ? `While the allowlist is on, a newly saved address can be used after ${book.holdHours} hours.`
          : 'Saved addresses can be used at once.'}
      </p>
      {isLoading ? (
        <p className="muted">Loading…</p>
      ) : book?.addresses.length ? (
        <ul className="address-book">
          {book.addresses.map((entry) => (
            <li key={entry._id}>
              <div>
                <strong>{entry.label}</strong> · {entry.token} · {entry.networkName}
              </div>
              <div className="address-text">{entry.address}</div>
              {entry.memo && <div className="muted">Memo / tag: {entry.memo}</div>}
              {book.allowlistEnabled && Date.parse(entry.usableFrom) > openedAt && (
                <div className="muted">Usable from {new Date(entry.usableFrom).toLocaleString()}</div>
              )}
              <button type="button" className="button secondary" onClick={() => remove(entry._id)}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No saved addresses yet.</p>
      )}
      <form onSubmit={save} noValidate aria-label="Add an address">
        <h2>Add an address</h2>
        <div className="field">
          <label htmlFor="book-label">Label</label>
          <input id="book-label" value={label} maxLength={60} onChange={(e) => setLabel(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="book-token">Token</label>
          <select
            id="book-token"
            value={tokenId}
            onChange={(e) => {
              setTokenId(e.target.value);
              setNetwork('');
            }}
          >
            {tokens.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name} ({t.symbol.toUpperCase()})
              </option>
            ))}
          </select>
        </div>
        {tokenNetworks.length > 1 && (
          <div className="field">
            <label htmlFor="book-network">Network</label>
            <select id="book-network" value={network} onChange={(e) => setNetwork(e.target.value)}>
              <option value="">Choose the network…</option>
              {tokenNetworks.map((n) => (
                <option key={n.network} value={n.network}>
                  {n.name}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="field">
          <label htmlFor="book-address">Address</label>
          <input id="book-address" value={address} onChange={(e) => setAddress(e.target.value)} autoComplete="off" spellCheck={false} />
        </div>
        {memoInfo && (
          <div className="field">
            <label htmlFor="book-memo">{memoInfo.memoLabel} (optional)</label>
            <input id="book-memo" value={memo} onChange={(e) => setMemo(e.target.value)} maxLength={64} />
          </div>
        )}
        <button type="submit" className="button block" disabled={!canSave || adding}>
          {adding ? 'Saving...' : 'Save address'}
        </button>
      </form>
    </section>
  );
}
