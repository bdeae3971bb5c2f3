import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { formatDateTime, formatQuantity } from '../../../lib/format';
import { type ChainDepositDto, useGetChainDepositsQuery, useGetChainStatusQuery } from '../../../api/generated/adminChainApi.generated';
import { DocsLink } from '../../../components/DocsLink';
import { Table } from '../components/DataTable';
import { DepositHolds } from '../components/DepositHolds';
import { DepositReviews } from '../components/DepositReviews';
import { PageToolbar } from '../components/PageToolbar';
import { useNetworkNames } from '../hooks/useNetworkNames';
import './ChainStatusPage.css';

/** Seconds as "45 s", "12 min", "3 h". */
function duration(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}

/** A deposit's state in words (and what an admin must know of it). */
const DEPOSIT_STATE_TEXT: Record<ChainDepositDto['state'], string> = {
  seen: 'Seen, not in a block yet',
  confirming: 'Confirming',
  held: 'Held: see Held deposits',
  credited: 'Credited',
  dropped: 'Dropped: not in the blockchain',
  below_minimum: 'Below the minimum: not credited',
};

/** An admin's decision on a deposit whose block left the blockchain after it was credited. */
const REVIEW_TEXT = { taken_back: 'Reviewed: taken back from the customer', kept: 'Reviewed: kept (loss accepted)' } as const;

/** The networks connected to a node, as their watchers last saw them, and the deposits seen on chain (refreshed every 5 s). */
export default function ChainStatusPage() {
  const status = useGetChainStatusQuery(undefined, { pollingInterval: 5000, refetchOnMountOrArgChange: true });
  const deposits = useGetChainDepositsQuery({}, { pollingInterval: 5000, refetchOnMountOrArgChange: true });
  const networkName = useNetworkNames();
  // The dashboard links to a section (#deposit-reviews): scroll to it once it is drawn.
  const { hash } = useLocation();
  const loaded = Boolean(status.data);
  useEffect(() => {
    if (hash && loaded) document.getElementById(hash.slice(1))?.scrollIntoView();
  }, [hash, loaded]);
  return (
    <>
      <PageToolbar title="Chain status" />
      {status.isError ? <p className="form-error">The chain status could not be loaded.</p> : null}
      <section className="admin-section" aria-labelledby="chain-networks-title">
        <h2 id="chain-networks-title">Networks connected to a node</h2>
        <Table
          label="Networks connected to a node"
          columns={['Network', 'Node', 'Reachable', 'Newest block', 'Read up to', 'Deposits confirming', 'To review', 'Last error']}
          rows={status.data ?? []}
          empty={
            status.isLoading ? (
              'Loading…'
            ) : (
              <>
                No network is connected to a node yet: deposits are recorded by hand. <DocsLink page="operate/chain-nodes.md" />
              </>
            )
          }
        >
          {(row) => (
            <tr key={row.network} data-testid={`chain-${row.network}`}>
              <td>
                {row.name}
                {row.chain !== 'mainnet' ? <span className="chain-badge">{row.chain}</span> : null}
                {row.internalTransfers === 'not traced' ? (
                  <div className="muted" title="The node has no debug_traceBlockByHash: native value a contract forwards to a deposit address is not seen">
                    Internal transfers not traced
                  </div>
                ) : null}
              </td>
              <td className="mono">{row.node}</td>
              <td>{row.reachable ? 'Yes' : <strong className="status-rejected">No</strong>}</td>
              <td data-testid="chain-newest-block">
                {row.nodeHeight === null ? (
                  '—'
                ) : (
                  <>
                    <span className="nowrap">Block {row.nodeHeight}</span>
                    {/* The age is that of the last block read: the node's newest one while nothing is left to read. */}
                    {row.lagSeconds !== null && !row.lagBlocks ? <div className="muted nowrap">made {duration(row.lagSeconds)} ago</div> : null}
                  </>
                )}
              </td>
              <td data-testid="chain-read-up-to">
                {row.height === null ? (
                  '—'
                ) : (
                  <>
                    <span className="nowrap">Block {row.height}</span>
                    <div className="muted nowrap">{row.lagBlocks ? `${row.lagBlocks} ${row.lagBlocks === 1 ? 'block' : 'blocks'} behind` : 'Up to date'}</div>
                    {row.lagSeconds !== null && row.lagBlocks ? <div className="muted nowrap">made {duration(row.lagSeconds)} ago</div> : null}
                  </>
                )}
              </td>
              <td>{row.depositsConfirming}</td>
              <td>{row.depositsToReview ? <strong className="status-rejected">{row.depositsToReview}</strong> : 0}</td>
              <td className="mono">{row.lastError ? `${row.lastError}${row.lastErrorAt ? ` (${formatDateTime(row.lastErrorAt)})` : ''}` : '—'}</td>
            </tr>
          )}
        </Table>
        <p className="muted table-note">
          Newest block: the node&apos;s best block, and how long ago it was made (long ago: the node or the network may be stuck). Read up to: the last block
          the app has read for deposits.
        </p>
      </section>
      <DepositReviews />
      <DepositHolds />
      <section className="admin-section" aria-labelledby="chain-deposits-title">
        <h2 id="chain-deposits-title">Deposits seen on chain</h2>
        <Table
          label="Deposits seen on chain"
          columns={['Seen', 'Network', 'Amount', 'State', 'Confirmations', 'Transaction', 'Address']}
          rows={deposits.data ?? []}
          empty={deposits.isLoading ? 'Loading…' : 'No deposit seen on chain yet.'}
        >
          {(row) => (
            <tr key={row._id} data-testid="chain-deposit">
              <td className="nowrap">{formatDateTime(row.createdAt)}</td>
              <td>{networkName(row.network, row.token)}</td>
              <td className="nowrap" data-testid="chain-deposit-amount">
                {formatQuantity(row.amount, 18)} {row.symbol}
                <div className="muted">{row.tokenName}</div>
              </td>
              <td>
                {DEPOSIT_STATE_TEXT[row.state]}
                {row.review && !row.reviewResolution ? (
                  <strong className="status-rejected"> · to review: its block left the blockchain after it was credited</strong>
                ) : null}
                {row.reviewResolution ? <div className="muted">{REVIEW_TEXT[row.reviewResolution]}</div> : null}
              </td>
              <td className="nowrap">
                {row.confirmations} of {row.requiredConfirmations}
              </td>
              <td className="mono">
                {row.txHash}:{row.outputIndex}
              </td>
              <td className="mono">{row.address}</td>
            </tr>
          )}
        </Table>
      </section>
    </>
  );
}
