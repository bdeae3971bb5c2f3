import { formatDateTime, formatQuantity } from '../../../lib/format';
import { tokenLabel } from '../../../lib/tokenLabel';
import { useGetReservesQuery, type ReserveNetworkDto, type ReserveTokenDto } from '../../../api/generated/adminReservesApi.generated';
import { DocsLink } from '../../../components/DocsLink';
import { Table } from '../components/DataTable';
import { PageToolbar } from '../components/PageToolbar';
import './ReservesPage.css';

/** Exact amounts: every decimal a chain has (wei: 18), grouped, in the figures' code font. */
const amount = (value: string | null | undefined) => (value === null || value === undefined ? '—' : <span className="mono">{formatQuantity(value, 18)}</span>);

/** A long address as its ends (the whole one in the tooltip). */
const short = (text: string) => (text.length > 20 ? `${text.slice(0, 8)}…${text.slice(-4)}` : text);

/** Why a figure is missing, in words and the table's own font (never in a number's code font). */
const missing = (words: string) => <span className="figure-missing">{words}</span>;

/** A network's figure, or why there is none. */
function held(network: ReserveNetworkDto, value: string | null, none = 'None') {
  if (network.state === 'not_connected') return missing('Not connected');
  if (network.state === 'not_readable') return missing('Not read');
  if (network.state === 'unreachable') return missing('Node unreachable');
  return value === null ? missing(none) : amount(value);
}

function holdings(token: ReserveTokenDto) {
  if (token.holdings !== null) return amount(token.holdings);
  return missing(token.networks.every((n) => n.state === 'not_connected') ? 'Not connected' : 'Not read');
}

/** The note in words, with the guide's page that explains it and the setting that changes it. */
function Note({ network }: { network: ReserveNetworkDto }) {
  if (!network.note) return <span className="muted">—</span>;
  return (
    <>
      {network.note}
      {network.guide || network.setting ? (
        <div className="note-more">
          {network.guide ? <DocsLink page={network.guide} /> : null}
          {network.setting ? (
            <span className="muted">
              {' '}
              Setting: <code>{network.setting}</code>
            </span>
          ) : null}
        </div>
      ) : null}
    </>
  );
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
          label="Holdings and liabilities per token"
          columns={['Token', 'Holdings', 'Customer balances', 'Pending withdrawals', 'Liabilities', 'Difference', 'Status']}
          rows={tokens}
          empty={reserves.isLoading ? 'Loading…' : 'No token is held or owed'}
        >
          {(token) => (
            <tr key={token.token} data-testid={`reserves-${token.token}`}>
              <td>{tokenLabel(token.name, token.symbol)}</td>
              <td className="figure">{holdings(token)}</td>
              <td className="figure">{amount(token.customerBalance)}</td>
              <td className="figure">{amount(token.pendingWithdrawals)}</td>
              <td className="figure">{amount(token.liabilities)}</td>
              <td className="figure">{token.shortfall ? <strong>{amount(token.difference)}</strong> : amount(token.difference)}</td>
              <td>{verdict(token)}</td>
            </tr>
          )}
        </Table>
      </section>
      <section className="admin-section" aria-labelledby="reserves-networks-title">
        <h2 id="reserves-networks-title">Holdings per network</h2>
        <Table
          label="Holdings per network"
          columns={['Token on network', 'Hot wallet', 'Deposit addresses', 'Cold wallets', 'Total', 'Note']}
          rows={networks}
          empty={reserves.isLoading ? 'Loading…' : 'No network'}
        >
          {({ token, network }) => (
            <tr key={`${token.token}-${network.network}`} data-testid={`reserves-${token.token}-${network.network}`}>
              <td>
                {token.symbol.toUpperCase()} <span className="muted">on {network.name}</span>
              </td>
              <td className="figure">
                {held(network, network.hot, 'No hot wallet')}
                {network.hotWallet ? (
                  <div className="muted mono" title={network.hotWallet}>
                    {short(network.hotWallet)}
                  </div>
                ) : null}
              </td>
              <td className="figure">
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
              <td className="figure">
                {held(network, network.cold)}
                {network.coldAddresses.map((cold) => (
                  <div key={cold.address} className="muted" title={cold.address}>
                    <span className="mono">{short(cold.address)}</span>: {amount(cold.balance)}
                  </div>
                ))}
              </td>
              <td className="figure">{held(network, network.total)}</td>
              <td className="reserve-note">
                <Note network={network} />
              </td>
            </tr>
          )}
        </Table>
      </section>
    </>
  );
}
