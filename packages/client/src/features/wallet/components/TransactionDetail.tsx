import { type ReactNode, useEffect, useRef } from 'react';
import type { TransactionDto } from '../../../api/generated/walletApi.generated';
import { type NetworkDto, useGetNetworksQuery } from '../../../api/endpoints';
import { LongValue } from '../../../components/LongValue';
import { formatCoinAmount, formatDateTime, formatPrice, formatQuantity, formatUsd } from '../../../lib/format';
import { exactDiffers } from '../lib/rows';
import { isIncoming, transactionState, transactionTitle } from '../lib/transactionWords';
import { WithdrawalSteps } from './WithdrawalSteps';

export function networkOf(networks: NetworkDto[] | undefined, id: string | null | undefined): NetworkDto | undefined {
  return id ? networks?.find((n) => n.id === id) : undefined;
}

/** The explorer page of a chain transaction on its network, when the network has one (none for a regtest chain). */
export function explorerLink(network: NetworkDto | undefined, txHash: string): string | undefined {
  return network?.explorerTx ? network.explorerTx.replace('{tx}', encodeURIComponent(txHash)) : undefined;
}

/**
 * Everything about one transaction: what happened and where it stands first, a withdrawal's steps, then short facts on
 * label–value lines and the long ones (address, transaction hash) each on a full-width line with a copy button.
 */
export function TransactionDetail({ tx, nameOf, onClose }: { tx: TransactionDto; nameOf: (tokenId: string) => string; onClose: () => void }) {
  const closeButton = useRef<HTMLButtonElement>(null);
  const { data: networks } = useGetNetworksQuery();
  const network = networkOf(networks, tx.network);
  useEffect(() => {
    closeButton.current?.focus();
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  const symbol = tx.symbol.toUpperCase();
  const sign = isIncoming(tx) ? '+' : '-';
  const state = transactionState(tx);
  const rows: Array<[string, ReactNode]> = [
    ['Date', formatDateTime(tx.createdAt)],
    ['Status', <span className={`status-${state.tone}`}>{state.text}</span>],
    ['Asset', `${nameOf(tx.token)} (${symbol})`],
  ];
  if (exactDiffers(tx.coinAmount, tx.coinAmountExact)) rows.push(['Exact amount', `${formatQuantity(tx.coinAmountExact, 18)} ${symbol}`]);
  rows.push(['Value at the time', formatUsd(tx.amount)]);
  if (tx.price) rows.push(['Price at the time', formatPrice(tx.price)]);
  if (network || tx.network) rows.push(['Network', network?.name ?? tx.network]);
  if (tx.memo) rows.push([network?.memoLabel ?? 'Memo', tx.memo]);
  if (tx.requiredConfirmations !== undefined) rows.push(['Confirmations', `${tx.confirmations ?? 0} of ${tx.requiredConfirmations}`]);
  // The customer pays the network fee out of the amount (recipientGets is then set); otherwise Coinpurse paid it.
  if (tx.fee) rows.push(['Network fee', `${tx.fee} ${symbol} ${tx.recipientGets ? '(included in the amount)' : '(paid by Coinpurse)'}`]);
  if (tx.recipientGets) rows.push(['Recipient gets', `${tx.recipientGets} ${symbol}`]);
  if (tx.swap)
    rows.push([
      'Swap',
      `${formatCoinAmount(tx.swap.fromCoinAmount, tx.swap.fromToken)} ${nameOf(tx.swap.fromToken)} → ${formatCoinAmount(tx.swap.toCoinAmount, tx.swap.toToken)} ${nameOf(tx.swap.toToken)}`,
    ]);
  if (tx.note) rows.push(['Note', tx.note]);
  return (
    <div className="modal transaction-modal" role="dialog" aria-modal="true" aria-labelledby="transaction-title">
      <div className="overlay" aria-hidden="true" onClick={onClose} />
      <div className="card modal-card">
        <div className="row-between">
          <h2 id="transaction-title" style={{ margin: 0 }}>
            {transactionTitle(tx, nameOf)}
          </h2>
          <button ref={closeButton} type="button" className="icon-button" aria-label="Close" onClick={onClose}>
            <span aria-hidden="true">✕</span>
          </button>
        </div>
        <p className="transaction-amount" data-testid="transaction-amount">
          {sign}
          {formatCoinAmount(tx.coinAmount, tx.token)} {symbol} <span className="muted">· {formatUsd(tx.amount)}</span>
        </p>
        {tx.type === 'withdrawal' && <WithdrawalSteps tx={tx} />}
        <dl className="detail-list" data-testid="transaction-detail">
          {rows.map(([label, value]) => (
            <div key={label} className="detail-row">
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
          {tx.address && (
            <LongValue
              label={tx.type === 'deposit' ? 'Your deposit address' : tx.type === 'withdrawal' ? 'Sent to' : 'Address'}
              value={tx.address}
              testId="detail-address"
            />
          )}
          {tx.txHash && <LongValue label="Transaction hash" value={tx.txHash} href={explorerLink(network, tx.txHash)} testId="detail-hash" />}
        </dl>
      </div>
    </div>
  );
}
