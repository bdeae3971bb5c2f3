import type { WalletRow } from '../lib/rows';
import { PanelHeader } from './PanelHeader';
import { TokenRowButton } from './TokenRowButton';

/** Choose-send / choose-receive: the first 8 wallet tokens (spec §9). */
export function TokenPicker({ title, rows, onPick, onClose }: { title: string; rows: WalletRow[]; onPick: (row: WalletRow) => void; onClose: () => void }) {
  return (
    <section className="panel" aria-label={title}>
      <PanelHeader title={title} onBack={onClose} />
      <ul className="token-list">
        {rows.slice(0, 8).map((row) => (
          <li key={row.token.id}>
            <TokenRowButton row={row} onClick={() => onPick(row)} />
          </li>
        ))}
      </ul>
    </section>
  );
}
