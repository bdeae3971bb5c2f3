import { useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { useGetTransactionQuery, type GetTransactionApiArg, type TransactionDto } from '../store/walletApi.generated';
import { useAppSelector } from '../../../app/hooks';
import { useGetNetworksQuery } from '../../../app/api/endpoints';
import { Spinner } from '../../../components/Spinner';
import { formatUsd } from '../../../lib/money';
import { formatDate } from '../../../lib/text';
import type { WalletRow } from '../lib/rows';
import { PanelHeader } from './PanelHeader';

const TYPES = ['deposit', 'withdrawal', 'swap', 'adjustment'];
const STATUSES = ['pending', 'approved', 'rejected'];

function isIncoming(tx: TransactionDto): boolean {
  if (tx.direction) return tx.direction === 'in';
  return tx.type === 'deposit';
}

export default function HistoryPanel({ rows, initialToken, onClose }: { rows: WalletRow[]; initialToken?: string; onClose: () => void }) {
  const { data: networks } = useGetNetworksQuery();
  const [token, setToken] = useState(initialToken ?? '');
  const [type, setType] = useState('');
  const [status, setStatus] = useState('');
  const sessionToken = useAppSelector((state) => state.session.user?.token);
  const { data, isLoading, error } = useGetTransactionQuery(
    { token: token || undefined, type: (type || undefined) as GetTransactionApiArg['type'], status: (status || undefined) as GetTransactionApiArg['status'] },
    { skip: !sessionToken },
  );
  const [exporting, setExporting] = useState(false);
  useEffect(() => {
    if (error) console.error('Could not load the history', error);
  }, [error]);

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
      {isLoading ? (
        <Spinner label="Loading history" />
      ) : !data?.length ? (
        <p className="muted">No transactions yet.</p>
      ) : (
        <ul className="history" data-testid="history-list">
          {data.map((tx) => {
            const incoming = isIncoming(tx);
            return (
              <li key={tx._id} data-testid="history-item">
                <span className={`arrow ${incoming ? 'in' : 'out'}`} aria-label={incoming ? 'Received' : 'Sent'}>
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
                    {networks?.find((n) => n.id === tx.network)?.name ?? tx.network ?? ''}
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
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
