import { useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import type { GetTransactionApiArg, TransactionDto } from '../../../api/generated/walletApi.generated';
import { useGetTransactionPageQuery } from '../store/historyApi';
import { useGetNetworksQuery } from '../../../api/endpoints';
import { useAppSelector } from '../../../core/hooks';
import { shortenMiddle } from '../../../components/LongValue';
import { formatCoinAmount, formatDate, formatUsd } from '../../../lib/format';
import { inProgress, isIncoming, transactionState, transactionTitle } from '../lib/transactionWords';
import { networkOf, TransactionDetail } from './TransactionDetail';
import type { WalletRow } from '../lib/rows';
import { PanelHeader } from './PanelHeader';
import { SkeletonListItems } from '../../../components/Skeleton';
import './HistoryPanel.css';

const TYPES: Array<[string, string]> = [
  ['deposit', 'Received'],
  ['withdrawal', 'Sent'],
  ['swap', 'Swaps'],
  ['adjustment', 'Balance corrections'],
];
const STATUSES: Array<[string, string]> = [
  ['pending', 'In progress'],
  ['approved', 'Completed'],
  ['rejected', 'Rejected'],
];
/** How often History re-reads while a transaction in it still moves (deposit confirmations come live anyway). */
const IN_PROGRESS_POLL_MS = 5000;
/** History page size (the spec does not fix one). */
export const HISTORY_PAGE_SIZE = 20;

export default function HistoryPanel({
  rows,
  initialToken,
  initialTransactionId,
  onClose,
}: {
  rows: WalletRow[];
  initialToken?: string;
  /** A transaction to open at once (a notification links to it), wherever it is in the list. */
  initialTransactionId?: string;
  onClose: () => void;
}) {
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
  const [detailId, setDetailId] = useState<string | null>(null);
  const [opened, setOpened] = useState<TransactionDto | null>(null);
  const names = new Map(rows.map((r) => [r.token.id, r.token.name]));
  const nameOf = (id: string) => names.get(id) ?? id;
  const [exporting, setExporting] = useState(false);
  const linked = useGetTransactionPageQuery({ id: initialTransactionId, limit: 1 }, { skip: !sessionToken || !initialTransactionId });
  const [linkedShown, setLinkedShown] = useState<string | undefined>(undefined);
  useEffect(() => {
    const found = linked.data?.items[0];
    if (!found || linkedShown === found._id) return;
    setLinkedShown(found._id);
    setDetailId(found._id);
    setOpened(found);
  }, [linked.data, linkedShown]);
  useEffect(() => {
    if (linked.data && !linked.data.items.length) toast.error('That transaction is no longer in your history.');
  }, [linked.data]);

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
            {TYPES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="history-status">Status</label>
          <select id="history-status" value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">All statuses</option>
            {STATUSES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
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
            nameOf={nameOf}
            openedId={detailId}
            onOpen={(tx) => {
              setDetailId(tx._id);
              setOpened(tx);
            }}
            onOpenedChanged={setOpened}
            onMore={(next) => setCursors({ key: filterKey, list: [...pages, next] })}
          />
        ))}
      </ul>
      {detailId && opened && <TransactionDetail tx={opened} nameOf={nameOf} onClose={() => setDetailId(null)} />}
    </section>
  );
}

/** One page of the history; the last page shown offers "Load more" when the server has another. */
function HistoryPage({
  arg,
  skip,
  first,
  last,
  nameOf,
  openedId,
  onOpen,
  onOpenedChanged,
  onMore,
}: {
  arg: GetTransactionApiArg;
  skip: boolean;
  first: boolean;
  last: boolean;
  nameOf: (tokenId: string) => string;
  openedId: string | null;
  onOpen: (tx: TransactionDto) => void;
  onOpenedChanged: (tx: TransactionDto) => void;
  onMore: (cursor: string) => void;
}) {
  const [poll, setPoll] = useState(false);
  const { data, isLoading, isFetching, error } = useGetTransactionPageQuery(arg, { skip, pollingInterval: poll ? IN_PROGRESS_POLL_MS : 0 });
  const { data: networks } = useGetNetworksQuery();
  const moving = (data?.items ?? []).some(inProgress);
  useEffect(() => setPoll(moving), [moving]);
  // The open detail follows its transaction as it moves (a withdrawal's steps, a deposit's confirmations).
  const opened = openedId ? data?.items.find((tx) => tx._id === openedId) : undefined;
  useEffect(() => {
    if (opened) onOpenedChanged(opened);
  }, [opened, onOpenedChanged]);
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
        const state = transactionState(tx);
        const networkName = networkOf(networks, tx.network)?.name ?? tx.network;
        // Where a send went (shortened); a deposit's address is the customer's own, which says nothing on its row.
        const to = tx.type === 'withdrawal' && tx.address ? `To ${shortenMiddle(tx.address, 6)}` : null;
        return (
          <li key={tx._id} data-testid="history-item" data-address={tx.address ?? undefined}>
            <button type="button" className="history-row" onClick={() => onOpen(tx)}>
              <span className={`arrow ${incoming ? 'in' : 'out'}`} role="img" aria-label={incoming ? 'Received' : 'Sent'}>
                {incoming ? '↓' : '↑'}
              </span>
              <span className="history-main">
                <strong className="history-title" data-testid="history-title">
                  {transactionTitle(tx, nameOf)}
                </strong>
                <span className="muted history-sub">
                  {formatDate(tx.createdAt)}
                  {networkName && (
                    <>
                      {' · '}
                      <span data-testid="history-network">{networkName}</span>
                    </>
                  )}
                  {to && ` · ${to}`}
                </span>
                <span className={`history-state status-${state.tone}`} data-testid="history-state">
                  {state.text}
                </span>
              </span>
              <span className="history-end">
                <span className="history-coin" data-testid="history-coin">
                  {incoming ? '+' : '-'}
                  {formatCoinAmount(tx.coinAmount, tx.token)} {tx.symbol.toUpperCase()}
                </span>
                <span className="muted" data-testid="history-usd">
                  {formatUsd(tx.amount)}
                </span>
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
