import { coinImageUrl } from '../lib/images';
import { changeDirection, formatChange, formatPrice } from '../lib/money';

export interface CoinCardData {
  id: string;
  name: string;
  symbol: string;
  image: string;
  current_price: number | string;
  price_change_percentage_24h?: number | string | null;
}

/** Image, name, symbol, price and 24h change (2 decimals, green with + / red). */
export function CoinCard({ coin }: { coin: CoinCardData }) {
  const direction = changeDirection(coin.price_change_percentage_24h);
  return (
    <div className="card coin-card">
      <img src={coinImageUrl(coin.image)} alt="" width={40} height={40} loading="lazy" />
      <div>
        <div className="coin-name">{coin.name}</div>
        <div className="coin-symbol">{coin.symbol}</div>
      </div>
      <div className="coin-price">
        <div>{formatPrice(coin.current_price)}</div>
        <div className={direction} aria-label={`24 hour change ${formatChange(coin.price_change_percentage_24h)}`}>
          {formatChange(coin.price_change_percentage_24h)}
        </div>
      </div>
    </div>
  );
}

/** While loading: placeholders of the same size, so nothing below moves when the coins arrive. */
export function CoinGridPlaceholder({ count, label }: { count: number; label: string }) {
  return (
    <ul className="coin-grid" aria-label={label} aria-busy="true">
      {Array.from({ length: count }, (_, i) => (
        <li key={i}>
          <div className="card coin-card placeholder" aria-hidden="true" />
        </li>
      ))}
    </ul>
  );
}

export function CoinGrid({ coins, label }: { coins: CoinCardData[]; label: string }) {
  return (
    <ul className="coin-grid" aria-label={label}>
      {coins.map((coin) => (
        <li key={coin.id}>
          <CoinCard coin={coin} />
        </li>
      ))}
    </ul>
  );
}
