import { useState } from 'react';
import QRCode from 'react-qr-code';
import toast from 'react-hot-toast';
import type { WalletToken } from '../../../api/endpoints';
import { assetsAtAddress, networksOf, receiveUri } from '../lib/networks';
import { PanelHeader } from './PanelHeader';

export default function ReceiveView({ token, tokens = [], onClose }: { token: WalletToken; tokens?: WalletToken[]; onClose: () => void }) {
  const networks = networksOf(token);
  const [networkId, setNetworkId] = useState(networks[0]?.network ?? '');
  const network = networks.find((n) => n.network === networkId) ?? networks[0];
  const address = (network ? network.address : token.address) ?? '';
  // Memo networks (xrp, stellar): the shared address and the customer's own tag or memo, which the deposit must carry.
  const memo = address && network?.memo ? { value: network.memo, label: network.memoLabel ?? 'Memo' } : null;
  const qrValue = receiveUri(network?.network, address, memo?.value);
  // Every asset this very address takes (on an EVM network, ETH and the ERC-20 tokens share the customer's address).
  const accepted = assetsAtAddress(token, tokens, network?.network, address);
  const acceptedNames = listFormat(accepted.map((t) => `${t.name} (${t.symbol.toUpperCase()})`));
  async function copy() {
    if (!address) {
      toast.error('No address available to copy.');
      return;
    }
    try {
      await navigator.clipboard.writeText(address);
      toast.success('Address copied to clipboard!');
    } catch {
      toast.error('Failed to copy address. Please try again.');
    }
  }
  async function copyMemo() {
    if (!memo) return;
    try {
      await navigator.clipboard.writeText(memo.value);
      toast.success(`${memo.label} copied to clipboard!`);
    } catch {
      toast.error(`Failed to copy the ${memo.label.toLowerCase()}. Please try again.`);
    }
  }
  return (
    <section className="panel" aria-label={`Receive ${token.name}`}>
      <PanelHeader title={`Receive ${token.symbol.toUpperCase()}`} onBack={onClose} />
      {networks.length > 1 && (
        <div className="field">
          <label htmlFor="receive-network">Network</label>
          <select id="receive-network" value={network?.network} onChange={(e) => setNetworkId(e.target.value)}>
            {networks.map((n) => (
              <option key={n.network} value={n.network}>
                {n.name}
              </option>
            ))}
          </select>
        </div>
      )}
      {address ? (
        <>
          <p className="warning" data-testid="receive-accepts">
            This address accepts {acceptedNames} only. Anything else sent to it will be lost.
            {network && (
              <>
                {' '}
                <strong data-testid="receive-network-warning">Use the {network.name} network only: other networks will lose them too.</strong>
              </>
            )}
          </p>
          {network && (
            <p className="center network-line" data-testid="receive-network">
              Network: {network.name}
            </p>
          )}
          <div className="qr-box" data-testid="receive-qr">
            {/* Quiet zone (margin) of 4 modules around the code, as scanners expect. */}
            <div style={{ background: '#fff', padding: 24 }}>
              <QRCode
                key={qrValue}
                value={qrValue}
                size={256}
                level="H"
                title={`QR code of the ${token.name} address${network ? ` on ${network.name}` : ''}`}
              />
            </div>
          </div>
          <p className="address-text" data-testid="receive-address">
            {address}
          </p>
          {memo ? (
            <>
              <p className="warning center" data-testid="receive-memo">
                {memo.label}: <strong data-testid="receive-memo-value">{memo.value}</strong> — include it or the deposit cannot be credited to you
              </p>
              <button type="button" className="button block" onClick={copyMemo}>
                Copy {memo.label}
              </button>
            </>
          ) : null}
          {network?.requiredConfirmations ? (
            // A network watched on chain: this address is the customer's own, credited by itself.
            <p className="center muted" data-testid="receive-confirmations">
              Credited after {network.requiredConfirmations} confirmations
            </p>
          ) : null}
          <button type="button" className="button block" onClick={copy}>
            Copy Address
          </button>
        </>
      ) : (
        // No address: nothing to copy or scan, only what the person needs to know.
        <p className="notice" role="status" data-testid="receive-not-set-up">
          {network?.depositNote ?? token.depositNote ?? `Deposits are not set up for the ${network?.name ?? token.name} network yet.`} Please check again later
          or contact support.
        </p>
      )}
    </section>
  );
}

/** "A", "A and B", "A, B and C" in the reader's language. */
function listFormat(items: string[]): string {
  return new Intl.ListFormat(undefined, { style: 'long', type: 'conjunction' }).format(items);
}
