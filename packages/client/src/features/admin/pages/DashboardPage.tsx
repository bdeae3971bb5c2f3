import { formatDateTime, formatQuantity, formatUsd } from '../../../lib/format';
import { Link } from 'react-router-dom';
import { Spinner } from '../../../components/Spinner';
import { tokenLabel } from '../../../lib/tokenLabel';
import { Table } from '../components/DataTable';
import { type DashboardData, useDashboardQuery, useLedgerCheckQuery, useLiabilitiesQuery } from '../store/adminApi';
import './DashboardPage.css';

type WaitingCounts = DashboardData['waiting'];

/** What waits for an admin: each count with what it means and the screen that handles it (the list the count counts). */
const WAITING: Array<{ key: keyof WaitingCounts; title: string; what: string; to: string; action: string }> = [
  {
    key: 'withdrawalsToPayByHand',
    title: 'Withdrawals to pay by hand',
    what: 'No signer pays these: send each from your own wallet, then approve it with the transaction hash.',
    to: '/admin/transactions?waiting=manual-payout',
    action: 'Pay withdrawals by hand',
  },
  {
    key: 'withdrawalsToReview',
    title: 'Withdrawals to review',
    what: 'Approve or reject each; the signer pays an approved one by itself.',
    to: '/admin/transactions?waiting=review',
    action: 'Review withdrawals',
  },
  {
    key: 'payoutsAwaitingFunds',
    title: 'Payouts waiting for funds',
    what: 'Approved, but the hot wallet cannot pay them yet: top it up, or they go to the cold side.',
    to: '/admin/transactions?waiting=awaiting-funds',
    action: 'See payouts waiting for funds',
  },
  {
    key: 'payoutsNotSigned',
    title: 'Payouts the signer could not sign',
    what: 'Approved, but the signer could not sign them (its hot wallet locked, it or its node down): each says why.',
    to: '/admin/transactions?waiting=cannot-sign',
    action: 'See payouts not signed',
  },
  {
    key: 'payoutsAwaitingColdSignature',
    title: 'Payouts awaiting a cold signature',
    what: 'Above the hot limits: download each unsigned transaction, sign it offline, upload it.',
    to: '/admin/transactions?waiting=cold-signature',
    action: 'Sign cold payouts',
  },
  {
    key: 'depositsToReview',
    title: 'Deposits to review',
    what: 'Credited, then their block left the blockchain: take each back or keep it.',
    to: '/admin/chain#deposit-reviews',
    action: 'Review deposits',
  },
  {
    key: 'approvalsWaiting',
    title: 'Approvals waiting',
    what: 'Money actions another admin asked for: approve or reject each (not your own).',
    to: '/admin/approvals',
    action: 'Open approvals',
  },
];

/** The waiting counts, those with something first; a zero says so in words. */
function WaitingSection({ counts }: { counts: WaitingCounts | undefined }) {
  const total = counts ? WAITING.reduce((sum, item) => sum + counts[item.key], 0) : undefined;
  const items = counts ? [...WAITING].sort((a, b) => Number(counts[b.key] > 0) - Number(counts[a.key] > 0)) : WAITING;
  return (
    <section className="admin-section" aria-labelledby="waiting-title">
      <h2 id="waiting-title">Waiting for you</h2>
      {total === 0 ? <p className="muted">Nothing waits for an admin.</p> : null}
      <ul className="waiting-list">
        {items.map((item) => {
          const count = counts?.[item.key];
          return (
            <li key={item.key} className={count ? 'waiting-item has-some' : 'waiting-item'} data-testid={`waiting-${item.key}`}>
              <span className="waiting-count" aria-hidden="true">
                {count ?? '—'}
              </span>
              <div className="waiting-text">
                <h3>
                  {item.title}
                  <span className="visually-hidden">: {count ?? 'not loaded'}</span>
                </h3>
                <p className="muted">{count === 0 ? 'Nothing waiting.' : item.what}</p>
              </div>
              <Link className={count ? 'button small primary' : 'button small'} to={item.to}>
                {item.action}
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

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
          <Table
            label="Liabilities per token"
            columns={['Token', 'Customer balances', 'Pending withdrawals', 'Total', 'USD value', 'Holders']}
            rows={data.tokens}
            empty="No balances held"
          >
            {(row) => (
              <tr key={row.token}>
                <td>{tokenLabel(row.name, row.symbol)}</td>
                <td className="mono nowrap">{formatQuantity(row.customerBalance, 18)}</td>
                <td className="mono nowrap">{formatQuantity(row.pendingWithdrawals, 18)}</td>
                <td className="mono nowrap">{formatQuantity(row.total, 18)}</td>
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
  const dashboard = useDashboardQuery(undefined, { pollingInterval: 30_000, refetchOnMountOrArgChange: true });
  const counts = dashboard.data;
  return (
    <>
      <h1>Dashboard</h1>
      {dashboard.isLoading ? <Spinner /> : null}
      {dashboard.isError ? <p className="form-error">The dashboard could not be loaded.</p> : null}
      <WaitingSection counts={counts?.waiting} />
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
