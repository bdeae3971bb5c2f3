import { useRef, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { errorMessage } from '../../../app/api/baseApi';
import { useSendCryptoMutation } from '../../../api/generated/walletApi.generated';
import { formatUsd, parseAmount } from '../../../lib/money';
import { confirmCoinAmount, sendCoinAmount } from '../lib/send';
import { usdForWholeQuantity } from '../lib/swap';
import type { WalletRow } from '../lib/rows';
import { PanelHeader } from './PanelHeader';
import { QrScannerBox } from './QrScannerBox';

export default function SendFlow({ row, onClose, onDone }: { row: WalletRow; onClose: () => void; onDone: () => void }) {
  const { token } = row;
  const [address, setAddress] = useState('');
  const [amountText, setAmountText] = useState('');
  const [scanning, setScanning] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [sendCrypto, { isLoading }] = useSendCryptoMutation();
  const busy = useRef(false);
  const usd = parseAmount(amountText);
  const canContinue = usd > 0 && address.trim().length > 0;

  function next(event: FormEvent) {
    event.preventDefault();
    if (canContinue) setConfirming(true);
  }

  async function confirm() {
    if (busy.current) return;
    busy.current = true;
    const idempotencyKey = crypto.randomUUID();
    const coin = sendCoinAmount(usd, row.price, token.id);
    try {
      const response = await sendCrypto({
        tokenId: token.id,
        'Idempotency-Key': idempotencyKey,
        sendCryptoDto: { transferData: { address: address.trim(), amount: usd, symbol: token.symbol, coinAmount: coin } },
      }).unwrap();
      console.info('send-crypto', response);
      toast.success('Sent and Pending Check Status in History');
      onDone();
      setTimeout(() => window.location.reload(), 1500);
    } catch (error) {
      toast.error(errorMessage(error, 'An error occurred'));
      busy.current = false;
    }
  }

  if (confirming) {
    return (
      <section className="panel" aria-label="Transfer">
        <PanelHeader title="Transfer" onBack={() => setConfirming(false)} />
        <p className="confirm-amount" data-testid="confirm-coin-amount">
          {confirmCoinAmount(usd, row.price, token.id)} {token.symbol.toUpperCase()}
        </p>
        <p className="center muted" data-testid="confirm-usd-amount">
          {formatUsd(usd)}
        </p>
        <dl className="summary">
          <dt>Asset</dt>
          <dd>{token.id}</dd>
          <dt>From</dt>
          <dd>{token.address || '—'}</dd>
          <dt>To</dt>
          <dd>{address.trim()}</dd>
        </dl>
        <button type="button" className="button block" onClick={confirm} disabled={isLoading}>
          {isLoading ? 'Sending...' : 'Confirm'}
        </button>
      </section>
    );
  }

  return (
    <section className="panel" aria-label={`Send ${token.name}`}>
      <PanelHeader title={`Send ${token.symbol.toUpperCase()}`} onBack={onClose} />
      <form onSubmit={next} noValidate>
        <div className="field">
          <label htmlFor="send-address">Address</label>
          <div className="row">
            <input
              id="send-address"
              value={address}
              onChange={(e) => setAddress(e.target.value)}
              autoComplete="off"
              spellCheck={false}
              placeholder={`${token.name} address`}
            />
            <button type="button" className="button secondary" aria-pressed={scanning} onClick={() => setScanning((v) => !v)}>
              {scanning ? 'Stop scan' : 'Scan QR'}
            </button>
          </div>
        </div>
        {scanning && (
          <QrScannerBox
            onResult={(text) => {
              setAddress(text.replace(/^[a-z]+:/i, '').split('?')[0]);
              setScanning(false);
            }}
            onClose={() => setScanning(false)}
          />
        )}
        <div className="field">
          <div className="row-between">
            <label htmlFor="send-amount">Amount in USD</label>
            <button
              type="button"
              className="link-button"
              disabled={row.amount <= 0}
              onClick={() => setAmountText(usdForWholeQuantity(row.amount, row.price, token.id))}
            >
              Max
            </button>
          </div>
          <input
            id="send-amount"
            inputMode="decimal"
            type="number"
            min="0"
            step="0.01"
            value={amountText}
            onChange={(e) => setAmountText(e.target.value)}
            aria-describedby="send-amount-hint"
          />
          <small id="send-amount-hint" className="hint">
            ≈ {sendCoinAmount(usd, row.price, token.id)} {token.symbol.toUpperCase()} · available {formatUsd(row.usd)}
          </small>
        </div>
        <button type="submit" className="button block" disabled={!canContinue}>
          Next
        </button>
      </form>
    </section>
  );
}
