import { formatDateTime, formatUsd } from '../../../lib/format';
import { Link } from 'react-router-dom';
import { Spinner } from '../../../components/Spinner';
import { Table } from '../components/DataTable';
import { useDashboardQuery, useLedgerCheckQuery, useLiabilitiesQuery } from '../store/adminApi';
import './DashboardPage.css';

function Card({ title, count, to }: { title: string; count: number | undefined; to: string }) {
  return (
    <section className="admin-card" aria-label={title}>
      <h2>{title}</h2>
      <span className="count">{count ?? '—'}</span>
      <Link className="button small" to={to} aria-label={`Manage ${title}`}>
        Manage
      </Link>
    </section>
  );
}

function LedgerCheckSection() {
  const check = useLedgerCheckQuery(undefined, { refetchOnMountOrArgChange: true });
  const data = check.data;
  return (
    <section className="admin-section" aria-labelledby="ledger-check-title">
      <h2 id="ledger-check-title">Ledger check</h2>
      {check.isLoading ? <Spinner /> : null}
      {check.isError ? <p className="muted">The ledger check could not be loaded.</p> : null}
      {data ? (
        <>
          <p>
            <span className={data.ok ? 'status ok' : 'status bad'}>{data.ok ? 'Balanced' : 'Problems found'}</span>{' '}
            <span className="muted">
              {data.accounts} accounts, {data.lines} journal lines, checked {formatDateTime(data.checkedAt)}
            </span>
          </p>
          {!data.ok ? (
            <ul>
              {data.tokens
                .filter((row) => !row.ok)
                .map((row) => (
                  <li key={row.token}>
                    {row.token}: journal lines sum to <span className="mono">{row.sum}</span> instead of 0
                  </li>
                ))}
              {data.mismatches.map((row) => (
                <li key={row.accountId}>
                  Account <span className="mono">{row.accountId}</span> ({row.token}): balance <span className="mono">{row.balance}</span>, lines{' '}
                  <span className="mono">{row.linesSum}</span>
                </li>
              ))}
              {data.negativeCustomerBalances > 0 ? <li>{data.negativeCustomerBalances} negative customer balances</li> : null}
            </ul>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

function LiabilitiesSection() {
  const liabilities = useLiabilitiesQuery(undefined, { refetchOnMountOrArgChange: true });
  const data = liabilities.data;
  return (
    <section className="admin-section" aria-labelledby="liabilities-title">
      <h2 id="liabilities-title">Liabilities per token</h2>
      {liabilities.isLoading ? <Spinner /> : null}
      {liabilities.isError ? <p className="muted">Liabilities could not be loaded.</p> : null}
      {data ? (
        <>
          <p>
            Total owed to customers: <strong>{formatUsd(data.totalUsd)}</strong>
          </p>
          <Table columns={['Token', 'Customer balances', 'Pending withdrawals', 'Total', 'USD value', 'Holders']} rows={data.tokens} empty="No balances held">
            {(row) => (
              <tr key={row.token}>
                <td>
                  {row.name} <span className="muted">({row.symbol})</span>
                </td>
                <td className="mono">{row.customerBalance}</td>
                <td className="mono">{row.pendingWithdrawals}</td>
                <td className="mono">{row.total}</td>
                <td>{formatUsd(row.usdValue)}</td>
                <td>{row.holders}</td>
              </tr>
            )}
          </Table>
        </>
      ) : null}
    </section>
  );
}

export default function DashboardPage() {
  const dashboard = useDashboardQuery(undefined, { refetchOnMountOrArgChange: true });
  const counts = dashboard.data;
  return (
    <>
      <h1>Dashboard</h1>
      {dashboard.isLoading ? <Spinner /> : null}
      <div className="admin-cards">
        <Card title="Users" count={counts?.users} to="/admin/users" />
        <Card title="Crypto Currencies" count={counts?.cryptoCurrencies} to="/admin/tokens" />
        <Card title="Notifications" count={counts?.notifications} to="/admin/notify" />
        <Card title="Open Tickets" count={counts?.openTickets} to="/admin/tickets" />
      </div>
      <LedgerCheckSection />
      <LiabilitiesSection />
    </>
  );
}
