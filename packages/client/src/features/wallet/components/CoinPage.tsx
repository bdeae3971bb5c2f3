import { CoinImage } from '../../../components/CoinImage';
import { changeDirection, formatChange, formatCoinAmount, formatPrice, formatQuantity, formatUsd } from '../../../lib/format';
import type { Panels } from '../hooks/usePanels';
import type { WalletRow } from '../lib/rows';
import { PanelHeader } from './PanelHeader';
import { PriceChart } from './PriceChart';
import { ActionButton } from './ActionButton';

export default function CoinPage({ row, panels, seeBalance, onClose }: { row: WalletRow; panels: Panels; seeBalance: boolean; onClose: () => void }) {
  const { token } = row;
  return (
    <section className="panel" aria-label={`${token.name} coin page`}>
      <PanelHeader title={token.symbol.toUpperCase()} onBack={onClose} />
      <div className="row">
        <CoinImage className="coin-icon" image={token.image} symbol={token.symbol} size={48} />
        <div>
          <div className="coin-name">{token.name}</div>
          <div className="muted">
            {formatPrice(row.price)}{' '}
            <span className={changeDirection(token.price_change_percentage_24h)}>{formatChange(token.price_change_percentage_24h)}</span>
          </div>
        </div>
      </div>
      <p className="confirm-amount" data-testid="coin-amount">
        {seeBalance ? `${formatCoinAmount(row.amount, token.id)} ${token.symbol.toUpperCase()}` : '*****'}
      </p>
      {seeBalance && row.exactDiffers && (
        <p className="center muted" data-testid="coin-amount-exact">
          Exactly {formatQuantity(row.exact, 18)} {token.symbol.toUpperCase()}
        </p>
      )}
      <p className="center muted" data-testid="coin-usd">
        {seeBalance ? formatUsd(row.usd) : '*****'}
      </p>
      <div className="actions">
        <ActionButton
          icon="↑"
          label="Send"
          onClick={() => {
            panels.setSelectedToken(token);
            panels.open('sendCoin', true);
          }}
        />
        <ActionButton
          icon="↓"
          label="Receive"
          onClick={() => {
            panels.setSelectedReceiveToken(token);
            panels.open('openReceive', true);
          }}
        />
        <ActionButton
          icon="⇄"
          label="Swap"
          onClick={() => {
            panels.setOpenSwapFrom(token.id);
            panels.open('openSwap', true);
          }}
        />
        <ActionButton
          icon="☰"
          label="History"
          onClick={() => {
            panels.setHistoryToken(token.id);
            panels.open('openTransaction', true);
          }}
        />
      </div>
      <h3>Price</h3>
      <PriceChart coinId={token.id} name={token.name} />
    </section>
  );
}
