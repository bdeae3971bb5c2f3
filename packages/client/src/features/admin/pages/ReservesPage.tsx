import { formatDateTime, formatQuantity } from '../../../lib/format';
import { useGetReservesQuery, type ReserveNetworkDto, type ReserveTokenDto } from '../../../api/generated/adminReservesApi.generated';
import { Table } from '../components/DataTable';
import { PageToolbar } from '../components/PageToolbar';

/** Exact amounts: every decimal a chain has (wei: 18), grouped. */
const amount = (value: string | null | undefined) => (value === null || value === undefined ? '—' : formatQuantity(value, 18));

/** A long address as its ends (the whole one in the tooltip). */
const short = (text: string) => (text.length > 20 ? `${text.slice(0, 8)}…${text.slice(-4)}` : text);

/** A network's figure, or why there is none. */
function held(network: ReserveNetworkDto, value: string | null) {
  if (network.state === 'not_connected') return <span className="muted">not connected</span>;
  if (network.state === 'not_readable') return <span className="muted">not read</span>;
  if (network.state === 'unreachable') return <span className="muted">node unreachable</span>;
  return value === null ? <span className="muted">not configured</span> : amount(value);
}

function holdings(token: ReserveTokenDto) {
  if (token.holdings !== null) return amount(token.holdings);
  return <span className="muted">{token.networks.every((n) => n.state === 'not_connected') ? 'not connected' : 'not read'}</span>;
}

function verdict(token: ReserveTokenDto) {
  if (token.shortfall) return <span className="status bad">Shortfall</span>;
  if (!token.complete) return <span className="muted">{token.holdings === null ? 'liabilities only' : 'partial: not every network read'}</span>;
  return <span className="status ok">Covered</span>;
}

/**
 * Per token, the coins held on chain (hot wallet, customers' deposit addresses, watch-only cold addresses, read from
 * each network's node) next to what customers are owed (ledger), with the difference; then each network's figures.
 * Refreshed every 30 s (the server reads the nodes at most once a minute for this screen).
 */
export default function ReservesPage() {
  const reserves = useGetReservesQuery(undefined, { pollingInterval: 30_000, refetchOnMountOrArgChange: true });
  const tokens = reserves.data?.tokens ?? [];
  const networks = tokens.flatMap((token) => token.networks.map((network) => ({ token, network })));
  return (
    <>
      <PageToolbar title="Reserves" />
      {reserves.isError ? <p className="form-error">The reserves could not be loaded.</p> : null}
      {reserves.data ? <p className="muted">Read from the nodes and the ledger {formatDateTime(reserves.data.asOf)}.</p> : null}
      <section className="admin-section" aria-labelledby="reserves-tokens-title">
        <h2 id="reserves-tokens-title">Holdings and liabilities per token</h2>
        <Table
          columns={['Token', 'Holdings', 'Customer balances', 'Pending withdrawals', 'Liabilities', 'Difference', 'Status']}
          rows={tokens}
          empty={reserves.isLoading ? 'Loading…' : 'No token is held or owed'}
        >
          {(token) => (
            <tr key={token.token} data-testid={`reserves-${token.token}`}>
              <td>
                {token.name} <span className="muted">({token.symbol.toUpperCase()})</span>
              </td>
              <td className="mono nowrap">{holdings(token)}</td>
              <td className="mono nowrap">{amount(token.customerBalance)}</td>
              <td className="mono nowrap">{amount(token.pendingWithdrawals)}</td>
              <td className="mono nowrap">{amount(token.liabilities)}</td>
              <td className="mono nowrap">{token.shortfall ? <strong>{amount(token.difference)}</strong> : amount(token.difference)}</td>
              <td>{verdict(token)}</td>
            </tr>
          )}
        </Table>
      </section>
      <section className="admin-section" aria-labelledby="reserves-networks-title">
        <h2 id="reserves-networks-title">Holdings per network</h2>
        <Table
          columns={['Token on network', 'Hot wallet', 'Deposit addresses', 'Cold wallets', 'Total', 'Note']}
          rows={networks}
          empty={reserves.isLoading ? 'Loading…' : 'No network'}
        >
          {({ token, network }) => (
            <tr key={`${token.token}-${network.network}`} data-testid={`reserves-${token.token}-${network.network}`}>
              <td>
                {token.symbol.toUpperCase()} <span className="muted">on {network.name}</span>
              </td>
              <td className="mono nowrap">
                {held(network, network.hot)}
                {network.hotWallet ? (
                  <div className="muted" title={network.hotWallet}>
                    {short(network.hotWallet)}
                  </div>
                ) : null}
              </td>
              <td className="mono nowrap">
                {held(network, network.deposits)}
                {network.state === 'read' ? (
                  <>
                    <div className="muted">
                      {network.depositAddresses} {network.depositAddresses === 1 ? 'address' : 'addresses'}
                    </div>
                    {network.depositsInHot !== null && network.depositsInHot !== '0' ? (
                      <div className="muted">{amount(network.depositsInHot)} in the hot wallet</div>
                    ) : null}
                  </>
                ) : null}
              </td>
              <td className="mono nowrap">
                {held(network, network.cold)}
                {network.coldAddresses.map((cold) => (
                  <div key={cold.address} className="muted" title={cold.address}>
                    {short(cold.address)}: {amount(cold.balance)}
                  </div>
                ))}
              </td>
              <td className="mono nowrap">{held(network, network.total)}</td>
              <td className="break-anywhere">{network.note ?? '—'}</td>
            </tr>
          )}
        </Table>
      </section>
    </>
  );
}
