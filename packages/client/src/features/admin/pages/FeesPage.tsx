import { useState } from 'react';
import {
  type FeeRowDto,
  type FeeRowUpdateDto,
  useGetFeesQuery,
  useUpdateFeesMutation,
  type WithdrawalNetworkFeeUpdateDto,
} from '../../../api/generated/adminFeesApi.generated';
import { formatQuantity } from '../../../lib/format';
import { DocsLink } from '../../../components/DocsLink';
import { Table } from '../components/DataTable';
import { PageToolbar } from '../components/PageToolbar';
import { adminToast } from '../lib/adminToast';

const text = (value: string | number | null) => (value === null ? <span className="muted">default</span> : String(value));

/** The fields of a row an administrator may set (the default row has the swap fee; token rows the withdrawal fee and inventory). */
function fieldsOf(row: FeeRowDto): Array<{ key: keyof FeeRowUpdateDto; label: string; hint: string }> {
  const fields: Array<{ key: keyof FeeRowUpdateDto; label: string; hint: string }> = [
    { key: 'swapSpreadBps', label: 'Swap spread (basis points)', hint: '50 = 0.5 %' },
  ];
  if (row.token === '*') {
    fields.push({ key: 'swapFeeBps', label: 'Swap fee (basis points)', hint: '10 = 0.1 % of the USD value' });
    fields.push({ key: 'swapFeeMinUsd', label: 'Least swap fee (USD)', hint: 'when a swap fee is charged' });
  } else {
    fields.push({ key: 'withdrawalFee', label: `Withdrawal fee (${row.name})`, hint: 'coins, on top of the network fee, on networks without their own' });
  }
  fields.push({ key: 'houseMinPositionUsd', label: 'Least house position (USD)', hint: 'swaps into it are refused below' });
  if (row.token !== '*' && !row.connected) fields.push({ key: 'inventory', label: 'Inventory (coins held off chain)', hint: 'no chain connection' });
  return fields;
}

type NetworkValues = Record<string, { mode: '' | 'network' | 'fixed'; fee: string }>;

/** The per-network withdrawal fees to send: the networks given a mode (no fee typed: 0). */
function networkEntries(values: NetworkValues): WithdrawalNetworkFeeUpdateDto[] {
  return Object.entries(values)
    .filter(([, v]) => v.mode !== '')
    .map(([network, v]) => ({ network, mode: v.mode as 'network' | 'fixed', fee: v.fee.trim() || '0' }));
}

/** One row's form: empty clears a value (the default applies), a value sets it. */
function RowForm({ row, onDone }: { row: FeeRowDto; onDone: () => void }) {
  const fields = fieldsOf(row);
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map((f) => [f.key, row[f.key as keyof FeeRowDto] === null ? '' : String(row[f.key as keyof FeeRowDto])])),
  );
  const initialNetworks: NetworkValues = Object.fromEntries(row.withdrawalNetworks.map((n) => [n.network, { mode: n.mode ?? '', fee: n.fee ?? '' }]));
  const [networks, setNetworks] = useState<NetworkValues>(initialNetworks);
  const [update, { isLoading }] = useUpdateFeesMutation();
  const save = async () => {
    const body: FeeRowUpdateDto = {};
    for (const f of fields) {
      const raw = values[f.key].trim();
      (body as Record<string, unknown>)[f.key] = raw === '' ? null : f.key.endsWith('Bps') ? Number(raw) : raw;
    }
    // Sent only when changed, so a change of another value names only that value.
    const entries = networkEntries(networks);
    if (JSON.stringify(entries) !== JSON.stringify(networkEntries(initialNetworks))) body.withdrawalNetworks = entries.length ? entries : null;
    try {
      const answer = await update({ token: row.token, feeRowUpdateDto: body }).unwrap();
      adminToast.success('pendingApproval' in answer ? 'Sent to a second administrator for approval.' : 'Fee schedule updated');
      onDone();
    } catch (problem) {
      console.error(problem);
    }
  };
  return (
    <form
      className="admin-form"
      aria-label={`Fees of ${row.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <h2>{row.name}</h2>
      {fields.map((f) => (
        <div className="field" key={f.key}>
          <label htmlFor={`fee-${f.key}`}>{f.label}</label>
          <input
            id={`fee-${f.key}`}
            inputMode="decimal"
            value={values[f.key]}
            onChange={(e) => setValues({ ...values, [f.key]: e.target.value })}
            aria-describedby={`fee-${f.key}-hint`}
          />
          <small id={`fee-${f.key}-hint`} className="hint">
            {f.hint}; empty: the default
          </small>
        </div>
      ))}
      {row.withdrawalNetworks.length ? (
        <fieldset className="field">
          <legend>Withdrawal fee per network</legend>
          {row.withdrawalNetworks.map((n) => (
            <div className="field" key={n.network}>
              <label htmlFor={`fee-mode-${n.network}`}>{`${n.name}: how the withdrawal fee is charged`}</label>
              <select
                id={`fee-mode-${n.network}`}
                value={networks[n.network].mode}
                onChange={(e) => setNetworks({ ...networks, [n.network]: { ...networks[n.network], mode: e.target.value as NetworkValues[string]['mode'] } })}
              >
                <option value="">The token's fee, plus the network fee</option>
                <option value="network">This network's fee, plus the network fee</option>
                <option value="fixed">A fixed fee: Coinpurse pays the network fee</option>
              </select>
              <label htmlFor={`fee-amount-${n.network}`}>{`${n.name}: withdrawal fee (coins)`}</label>
              <input
                id={`fee-amount-${n.network}`}
                inputMode="decimal"
                value={networks[n.network].fee}
                disabled={networks[n.network].mode === ''}
                onChange={(e) => setNetworks({ ...networks, [n.network]: { ...networks[n.network], fee: e.target.value } })}
              />
            </div>
          ))}
        </fieldset>
      ) : null}
      <div className="row-between">
        <button type="button" className="button secondary" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="button primary" disabled={isLoading}>
          {isLoading ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  );
}

/**
 * The fee schedule: the default row and each token's own values (spread, swap fee, withdrawal fee, least house
 * position, inventory) with its house position now; changes are audited and, with four-eyes on, approved by another admin.
 */
export default function FeesPage() {
  const fees = useGetFeesQuery(undefined, { refetchOnMountOrArgChange: true });
  const [editing, setEditing] = useState<string | null>(null);
  const rows = fees.data?.rows ?? [];
  const current = rows.find((row) => row.token === editing);
  return (
    <>
      <PageToolbar title="Fees" />
      {fees.isError ? <p className="form-error">The fee schedule could not be loaded.</p> : null}
      {fees.data ? (
        <p className="muted">
          Quotes hold {fees.data.quoteSeconds} s. {fees.data.fourEyes ? 'Changes wait for a second administrator (four-eyes is on).' : 'Changes apply at once.'}{' '}
          <DocsLink page="operate/fees.md" />
        </p>
      ) : null}
      {current ? <RowForm key={current.token} row={current} onDone={() => setEditing(null)} /> : null}
      <section className="admin-section" aria-labelledby="fees-title">
        <h2 id="fees-title">Fee schedule</h2>
        <Table
          label="Fee schedule"
          columns={['Token', 'Spread (bp)', 'Swap fee (bp)', 'Least fee (USD)', 'Withdrawal fee', 'Least position (USD)', 'Position', 'Change']}
          rows={rows}
          empty={fees.isLoading ? 'Loading…' : 'No token'}
        >
          {(row) => (
            <tr key={row.token} data-testid={`fees-${row.token}`}>
              <td>{row.name}</td>
              <td className="figure">{text(row.swapSpreadBps)}</td>
              <td className="figure">{row.token === '*' ? text(row.swapFeeBps) : '—'}</td>
              <td className="figure">{row.token === '*' ? text(row.swapFeeMinUsd) : '—'}</td>
              <td className="figure">
                {row.token === '*' ? '—' : text(row.withdrawalFee)}
                {row.withdrawalNetworks
                  .filter((n) => n.mode !== null)
                  .map((n) => (
                    <div key={n.network} className="muted" data-testid={`fees-${row.token}-${n.network}`}>
                      {`${n.name}: ${n.fee}${n.mode === 'fixed' ? ' fixed' : ' + network fee'}`}
                    </div>
                  ))}
              </td>
              <td className="figure">{text(row.houseMinPositionUsd)}</td>
              <td className="figure">
                {row.token === '*' ? (
                  '—'
                ) : row.position === null ? (
                  <span className="muted">unknown</span>
                ) : (
                  <span className="mono">{formatQuantity(row.position, 18)}</span>
                )}
              </td>
              <td>
                <button type="button" className="link-button" onClick={() => setEditing(row.token)} aria-label={`Edit the fees of ${row.name}`}>
                  Edit
                </button>
              </td>
            </tr>
          )}
        </Table>
      </section>
    </>
  );
}
