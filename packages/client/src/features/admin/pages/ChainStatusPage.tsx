import { formatDateTime } from '../../../lib/format';
import { useGetChainDepositsQuery, useGetChainStatusQuery } from '../../../api/generated/adminChainApi.generated';
import { Table } from '../components/DataTable';
import { DepositReviews } from '../components/DepositReviews';
import { PageToolbar } from '../components/PageToolbar';

/** Seconds as "45 s", "12 min", "3 h". */
function ago(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}

/** The networks connected to a node, as their watchers last saw them, and the deposits seen on chain (refreshed every 5 s). */
export default function ChainStatusPage() {
  const status = useGetChainStatusQuery(undefined, { pollingInterval: 5000, refetchOnMountOrArgChange: true });
  const deposits = useGetChainDepositsQuery({}, { pollingInterval: 5000, refetchOnMountOrArgChange: true });
  return (
    <>
      <PageToolbar title="Chain status" />
      {status.isError ? <p className="form-error">The chain status could not be loaded.</p> : null}
      <Table
        columns={['Network', 'Node', 'Reachable', 'Node height', 'Our height', 'Lag', 'Confirming', 'To review', 'Last error']}
        rows={status.data ?? []}
        empty={status.isLoading ? 'Loading…' : 'No network is connected to a node (CHAIN_<NETWORK>_RPC_URL)'}
      >
        {(row) => (
          <tr key={row.network} data-testid={`chain-${row.network}`}>
            <td>
              {row.name} <span className="muted">({row.chain})</span>
              {row.internalTransfers === 'not traced' ? (
                <div className="muted" title="The node has no debug_traceBlockByHash: native value a contract forwards to a deposit address is not seen">
                  internal transfers: not traced
                </div>
              ) : null}
            </td>
            <td className="mono">{row.node}</td>
            <td>{row.reachable ? 'yes' : <strong className="status-rejected">no</strong>}</td>
            <td>{row.nodeHeight ?? '—'}</td>
            <td>{row.height ?? '—'}</td>
            <td>
              {row.lagBlocks ?? '—'} blocks · {ago(row.lagSeconds)}
            </td>
            <td>{row.depositsConfirming}</td>
            <td>{row.depositsToReview ? <strong className="status-rejected">{row.depositsToReview}</strong> : 0}</td>
            <td className="mono">{row.lastError ? `${row.lastError}${row.lastErrorAt ? ` (${formatDateTime(row.lastErrorAt)})` : ''}` : '—'}</td>
          </tr>
        )}
      </Table>
      <DepositReviews />
      <h2>Deposits</h2>
      <Table
        columns={['Seen', 'Network', 'Amount', 'State', 'Confirmations', 'Transaction', 'Address']}
        rows={deposits.data ?? []}
        empty={deposits.isLoading ? 'Loading…' : 'No deposit seen on chain yet'}
      >
        {(row) => (
          <tr key={row._id}>
            <td>{formatDateTime(row.createdAt)}</td>
            <td>{row.network}</td>
            <td>
              {row.amount} {row.token}
            </td>
            <td>
              {row.state}
              {row.review ? <strong className="status-rejected"> · review: orphaned after credit</strong> : null}
            </td>
            <td>
              {row.confirmations} of {row.requiredConfirmations}
            </td>
            <td className="mono">
              {row.txHash}:{row.outputIndex}
            </td>
            <td className="mono">{row.address}</td>
          </tr>
        )}
      </Table>
    </>
  );
}
