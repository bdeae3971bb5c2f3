import { useState } from 'react';
import { type RevenueRowDto, useGetRevenueQuery } from '../../../api/generated/adminFeesApi.generated';
import { formatQuantity, formatUsd } from '../../../lib/format';
import { Table } from '../components/DataTable';
import { ExportButton } from '../components/ExportButton';
import { PageToolbar } from '../components/PageToolbar';

const KIND_TEXT: Record<RevenueRowDto['kind'], string> = {
  swap_spread: 'Swap spread',
  swap_fee: 'Swap fee',
  withdrawal_fee: 'Withdrawal fee',
  network_fees: 'Network fees (gain or cost)',
};

const day = (date: Date) => date.toISOString().slice(0, 10);

/** What the house earned per day (UTC), token and kind, in coins and USD at the time, from the ledger; with its CSV. */
export default function RevenuePage() {
  const [from, setFrom] = useState(() => day(new Date(Date.now() - 29 * 86_400_000)));
  const [to, setTo] = useState(() => day(new Date()));
  const revenue = useGetRevenueQuery({ from, to }, { refetchOnMountOrArgChange: true });
  return (
    <>
      <PageToolbar title="Revenue" />
      <div className="admin-filters">
        <div className="field">
          <label htmlFor="revenue-from">From</label>
          <input id="revenue-from" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="revenue-to">To</label>
          <input id="revenue-to" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </div>
        <ExportButton path="/api/admin/revenue/export" params={{ from, to }} />
      </div>
      {revenue.isError ? <p className="form-error">The revenue could not be loaded.</p> : null}
      {revenue.data ? <p data-testid="revenue-total">Total: {formatUsd(Number(revenue.data.totalUsd))}</p> : null}
      <section className="admin-section" aria-labelledby="revenue-title">
        <h2 id="revenue-title">Revenue per day and token</h2>
        <Table
          label="Revenue per day and token"
          columns={['Day', 'Token', 'Kind', 'Coins', 'USD', 'Postings']}
          rows={revenue.data?.rows ?? []}
          empty={revenue.isLoading ? 'Loading…' : 'No revenue in these days'}
        >
          {(row) => (
            <tr key={`${row.day}-${row.token}-${row.kind}`}>
              <td className="nowrap">{row.day}</td>
              <td>{row.symbol.toUpperCase()}</td>
              <td>{KIND_TEXT[row.kind]}</td>
              <td className="figure">
                <span className="mono">{formatQuantity(row.coinAmount, 18)}</span>
              </td>
              <td className="figure">{formatUsd(Number(row.usd))}</td>
              <td className="figure">{row.count}</td>
            </tr>
          )}
        </Table>
      </section>
    </>
  );
}
