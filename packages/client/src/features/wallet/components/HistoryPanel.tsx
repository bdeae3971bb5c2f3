import { type ReactNode, useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import type { GetTransactionApiArg, TransactionDto } from '../../../api/generated/walletApi.generated';
import { useGetTransactionPageQuery } from '../store/historyApi';
import { type NetworkDto, useGetNetworksQuery } from '../../../api/endpoints';
import { useAppSelector } from '../../../core/hooks';
import { formatCoinAmount, formatDate, formatDateTime, formatPrice, formatUsd } from '../../../lib/format';
import type { WalletRow } from '../lib/rows';
import { PanelHeader } from './PanelHeader';
import { SkeletonListItems } from '../../../components/Skeleton';
import './HistoryPanel.css';

const TYPES = ['deposit', 'withdrawal', 'swap', 'adjustment'];
const STATUSES = ['pending', 'approved', 'rejected'];
/** History page size (the spec does not fix one). */
export const HISTORY_PAGE_SIZE = 20;

function isIncoming(tx: TransactionDto): boolean {
  if (tx.direction) return tx.direction === 'in';
  return tx.type === 'deposit';
}

export default function HistoryPanel({ rows, initialToken, onClose }: { rows: WalletRow[]; initialToken?: string; onClose: () => void }) {
  const [token, setToken] = useState(initialToken ?? '');
  const [type, setType] = useState('');
  const [status, setStatus] = useState('');
  const sessionToken = useAppSelector((state) => state.session.user?.token);
  const filters = {
    token: token || undefined,
    type: (type || undefined) as GetTransactionApiArg['type'],
    status: (status || undefined) as GetTransactionApiArg['status'],
  };
  const filterKey = JSON.stringify(filters);
  // Cursors of the pages shown after the first ("Load more"); a filter change starts over.
  const [cursors, setCursors] = useState<{ key: string; list: string[] }>({ key: filterKey, list: [] });
  const pages = cursors.key === filterKey ? cursors.list : [];
  const [detail, setDetail] = useState<TransactionDto | null>(null);
  const [exporting, setExporting] = useState(false);

  async function exportCsv() {
    if (!sessionToken || exporting) return;
    setExporting(true);
    try {
      const params = new URLSearchParams(Object.entries({ token, type, status }).filter(([, v]) => v));
      const response = await fetch(`/api/user/export-transactions?${params}`, { headers: { Authorization: `Bearer ${sessionToken}` } });
      if (!response.ok) throw new Error(`export: ${response.status}`);
      const blob = await response.blob();
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = 'transactions.csv';
      link.click();
      URL.revokeObjectURL(url);
    } catch (e) {
      console.error(e);
      toast.error('The export failed. Please try again.');
    } finally {
      setExporting(false);
    }
  }

  return (
    <section className="panel" aria-label="History">
      <PanelHeader title="History" onBack={onClose} />
      <div className="filters">
        <div className="field">
          <label htmlFor="history-token">Token</label>
          <select id="history-token" value={token} onChange={(e) => setToken(e.target.value)}>
            <option value="">All tokens</option>
            {rows.map((r) => (
              <option key={r.token.id} value={r.token.id}>
                {r.token.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="history-type">Type</label>
          <select id="history-type" value={type} onChange={(e) => setType(e.target.value)}>
            <option value="">All types</option>
            {TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="history-status">Status</label>
          <select id="history-status" value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">All statuses</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="row-end">
        <button type="button" className="button secondary" onClick={exportCsv} disabled={exporting}>
          {exporting ? 'Processing...' : 'Export CSV'}
        </button>
      </div>
      <ul className="history" data-testid="history-list" aria-label="Transactions">
        {[undefined, ...pages].map((cursor, index) => (
          <HistoryPage
            key={cursor ?? 'first'}
            arg={{ ...filters, cursor, limit: HISTORY_PAGE_SIZE }}
            skip={!sessionToken}
            first={index === 0}
            last={index === pages.length}
            onOpen={setDetail}
            onMore={(next) => setCursors({ key: filterKey, list: [...pages, next] })}
          />
        ))}
      </ul>
      {detail && <TransactionDetail tx={detail} onClose={() => setDetail(null)} />}
    </section>
  );
}

/** One page of the history; the last page shown offers "Load more" when the server has another. */
function HistoryPage({
  arg,
  skip,
  first,
  last,
  onOpen,
  onMore,
}: {
  arg: GetTransactionApiArg;
  skip: boolean;
  first: boolean;
  last: boolean;
  onOpen: (tx: TransactionDto) => void;
  onMore: (cursor: string) => void;
}) {
  const { data, isLoading, isFetching, error } = useGetTransactionPageQuery(arg, { skip });
  const { data: networks } = useGetNetworksQuery();
  useEffect(() => {
    if (error) console.error('Could not load the history', error);
  }, [error]);
  if (isLoading || (!data && !error))
    return (
      <>
        <SkeletonListItems count={first ? 4 : 2} />
        {first && (
          <li className="visually-hidden" role="status">
            Loading history
          </li>
        )}
      </>
    );
  const items = data?.items ?? [];
  return (
    <>
      {first && !items.length && (
        <li className="muted" data-testid="history-empty">
          No transactions yet.
        </li>
      )}
      {items.map((tx) => {
        const incoming = isIncoming(tx);
        return (
          <li key={tx._id} data-testid="history-item">
            <button type="button" className="history-row" onClick={() => onOpen(tx)}>
              <span className={`arrow ${incoming ? 'in' : 'out'}`} role="img" aria-label={incoming ? 'Received' : 'Sent'}>
                {incoming ? '↓' : '↑'}
              </span>
              <span style={{ minWidth: 0 }}>
                <strong>Transfer</strong> <span className="muted">{formatDate(tx.createdAt)}</span>
                <br />
                <span className="muted" style={{ wordBreak: 'break-all' }}>
                  {tx.address || tx.type || ''}
                </span>
                <br />
                <span className="muted" data-testid="history-network">
                  {networkOf(networks, tx.network)?.name ?? tx.network ?? ''}
                  {tx.memo ? ` · ${tx.memo}` : ''}
                </span>
                {tx.txHash ? (
                  <>
                    <br />
                    <span className="muted" style={{ wordBreak: 'break-all' }} title="Chain transaction id">
                      Tx: {tx.txHash}
                    </span>
                  </>
                ) : null}
              </span>
              <span className="end" style={{ textAlign: 'right' }}>
                {formatUsd(tx.amount)}
                <br />
                <span className={`status-${tx.status}`}>{tx.status}</span>
                {tx.status === 'pending' && tx.requiredConfirmations !== undefined ? (
                  <>
                    <br />
                    <span className="muted" data-testid="history-confirmations">
                      {tx.confirmations ?? 0} of {tx.requiredConfirmations} confirmations
                    </span>
                  </>
                ) : null}
              </span>
            </button>
          </li>
        );
      })}
      {last && data?.nextCursor && (
        <li className="history-more">
          <button type="button" className="button secondary" disabled={isFetching} onClick={() => onMore(data.nextCursor!)}>
            Load more
          </button>
        </li>
      )}
    </>
  );
}

function networkOf(networks: NetworkDto[] | undefined, id: string | null | undefined): NetworkDto | undefined {
  return id ? networks?.find((n) => n.id === id) : undefined;
}

/** Everything about one transaction, with the chain transaction on the network's explorer once settled. */
function TransactionDetail({ tx, onClose }: { tx: TransactionDto; onClose: () => void }) {
  const closeButton = useRef<HTMLButtonElement>(null);
  const { data: networks } = useGetNetworksQuery();
  const network = networkOf(networks, tx.network);
  useEffect(() => {
    closeButton.current?.focus();
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  const rows: Array<[string, ReactNode]> = [
    ['Date', formatDateTime(tx.createdAt)],
    ['Type', tx.type],
    ['Token', `${tx.token} (${tx.symbol.toUpperCase()})`],
    ['Quantity', `${tx.direction === 'out' ? '-' : ''}${formatCoinAmount(tx.coinAmount, tx.token)} ${tx.symbol.toUpperCase()}`],
    ['USD at the time', formatUsd(tx.amount)],
    ['Price', tx.price ? formatPrice(tx.price) : '–'],
    ['Network', network?.name ?? tx.network ?? '–'],
    ['Address', tx.address ?? '–'],
    ['Status', tx.status],
  ];
  if (tx.memo) rows.push([network?.memoLabel ?? 'Memo', tx.memo]);
  if (tx.requiredConfirmations !== undefined) rows.push(['Confirmations', `${tx.confirmations ?? 0} of ${tx.requiredConfirmations}`]);
  if (tx.payoutState) rows.push(['Payment on chain', PAYOUT_STATE_TEXT[tx.payoutState] ?? tx.payoutState]);
  // The customer pays the network fee out of the amount (recipientGets is then set); otherwise the platform paid it.
  if (tx.fee) rows.push(['Network fee', `${tx.fee} ${tx.symbol.toUpperCase()} ${tx.recipientGets ? '(included in the amount)' : '(paid by Coinpurse)'}`]);
  if (tx.recipientGets) rows.push(['Recipient got', `${tx.recipientGets} ${tx.symbol.toUpperCase()}`]);
  if (tx.txHash)
    rows.push([
      'Chain transaction',
      network ? (
        <a href={network.explorerTx.replace('{tx}', encodeURIComponent(tx.txHash))} target="_blank" rel="noreferrer noopener">
          {tx.txHash}
        </a>
      ) : (
        tx.txHash
      ),
    ]);
  if (tx.swap)
    rows.push([
      'Swap',
      `${formatCoinAmount(tx.swap.fromCoinAmount, tx.swap.fromToken)} ${tx.swap.fromToken} → ${formatCoinAmount(tx.swap.toCoinAmount, tx.swap.toToken)} ${tx.swap.toToken}`,
    ]);
  if (tx.note) rows.push(['Note', tx.note]);
  return (
    <div className="modal" role="dialog" aria-modal="true" aria-labelledby="transaction-title">
      <div className="overlay" aria-hidden="true" onClick={onClose} />
      <div className="card modal-card">
        <div className="row-between">
          <h2 id="transaction-title" style={{ margin: 0 }}>
            Transaction
          </h2>
          <button ref={closeButton} type="button" className="icon-button" aria-label="Close" onClick={onClose}>
            <span aria-hidden="true">✕</span>
          </button>
        </div>
        <dl className="summary" data-testid="transaction-detail">
          {rows.map(([label, value]) => (
            <div key={label} className="row-between">
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  );
}

/** Where a withdrawal the platform pays on chain stands, for people. */
const PAYOUT_STATE_TEXT: Record<string, string> = {
  approved: 'Approved, being prepared',
  awaiting_funds: 'Waiting for the hot wallet to be topped up',
  awaiting_cold_signature: 'Approved, waiting for its signature from cold storage',
  signed: 'Signed, being sent',
  broadcast: 'Sent, waiting for the first confirmation',
  confirming: 'Confirming',
  completed: 'Completed',
  failed: 'Failed, amount returned',
};
