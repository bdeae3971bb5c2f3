import { startTransition, useEffect, useState } from 'react';
import { changeDirection, formatChange, formatPrice } from '../lib/format';
import { CoinImage } from './CoinImage';
import './CoinCard.css';

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
      <CoinImage image={coin.image} symbol={coin.symbol} />
      <div>
        <div className="coin-name" title={coin.name}>
          {coin.name}
        </div>
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

const FIRST_BATCH = 24;

/** A long list renders its first cards at once and the rest just after, so no single long task blocks input. */
function useProgressive<T>(items: T[]): T[] {
  const [all, setAll] = useState(items.length <= FIRST_BATCH);
  useEffect(() => {
    if (all || items.length <= FIRST_BATCH) return;
    // The rest renders as a transition: in slices that yield to input.
    const timer = setTimeout(() => startTransition(() => setAll(true)), 50);
    return () => clearTimeout(timer);
  }, [all, items.length]);
  return all ? items : items.slice(0, FIRST_BATCH);
}

export function CoinGrid({ coins, label }: { coins: CoinCardData[]; label: string }) {
  const shown = useProgressive(coins);
  return (
    <ul className="coin-grid" aria-label={label}>
      {shown.map((coin) => (
        <li key={coin.id}>
          <CoinCard coin={coin} />
        </li>
      ))}
    </ul>
  );
}
