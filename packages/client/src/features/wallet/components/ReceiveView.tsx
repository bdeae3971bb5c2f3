import QRCode from 'react-qr-code';
import toast from 'react-hot-toast';
import type { WalletToken } from '../../../app/api/endpoints';
import { PanelHeader } from './PanelHeader';

export default function ReceiveView({ token, onClose }: { token: WalletToken; onClose: () => void }) {
  const address = token.address ?? '';
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
  return (
    <section className="panel" aria-label={`Receive ${token.name}`}>
      <PanelHeader title={`Receive ${token.symbol.toUpperCase()}`} onBack={onClose} />
      <p className="warning">
        Only send {token.name} ({token.symbol.toUpperCase()}) assets to this address. Other assets will be lost forever.
      </p>
      {address ? (
        <div className="qr-box" data-testid="receive-qr">
          {/* Quiet zone (margin) of 4 modules around the code, as scanners expect. */}
          <div style={{ background: '#fff', padding: 24 }}>
            <QRCode value={address} size={256} level="H" title={`QR code of the ${token.name} address`} />
          </div>
        </div>
      ) : (
        <p className="muted">No deposit address is set for this token yet.</p>
      )}
      <p className="address-text" data-testid="receive-address">
        {address || '—'}
      </p>
      <button type="button" className="button block" onClick={copy}>
        Copy Address
      </button>
    </section>
  );
}
