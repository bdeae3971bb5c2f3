import { CoinImage } from '../../../components/CoinImage';
import { changeDirection, formatChange, formatCoinAmount, formatPrice, formatUsd } from '../../../lib/format';
import type { TransactionDto } from '../../../api/generated/walletApi.generated';
import { confirmationsText } from '../hooks/useIncomingDeposits';
import type { WalletRow } from '../lib/rows';

/**
 * One wallet token as a button (wallet list and the send/receive pickers). Its accessible name is its visible text,
 * starting with "Bitcoin (BTC)", so what people see is what voice control and screen readers hear.
 */
export function TokenRowButton({
  row,
  seeBalance = true,
  incoming = [],
  onClick,
}: {
  row: WalletRow;
  seeBalance?: boolean;
  /** Deposits of this token still confirming: shown under its price, so the row says coins are on their way. */
  incoming?: TransactionDto[];
  onClick: () => void;
}) {
  const { token } = row;
  const change = token.price_change_percentage_24h;
  return (
    <button type="button" className="token-row" onClick={onClick} data-token={token.id}>
      <CoinImage className="coin-icon" image={token.image} symbol={token.symbol} />
      <span className="grow">
        <strong>{token.name}</strong> <span className="coin-symbol">({token.symbol.toUpperCase()})</span>
        <br />
        <span className="muted">{formatPrice(row.price)}</span> <span className={changeDirection(change)}>{formatChange(change)}</span>
        {incoming.map((tx) => (
          <span key={tx._id} className="token-incoming status-pending" data-testid={`incoming-${token.id}`}>
            <br />
            Incoming +{formatCoinAmount(tx.coinAmount, tx.token)} · {confirmationsText(tx)}
          </span>
        ))}
      </span>
      <span className="end">
        <span data-testid={`amount-${token.id}`}>{seeBalance ? formatCoinAmount(row.amount, token.id) : '*****'}</span>
        <br />
        <span className="muted" data-testid={`usd-${token.id}`}>
          {seeBalance ? formatUsd(row.usd) : '*****'}
        </span>
      </span>
    </button>
  );
}
