import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { CoinImage } from '../../../components/CoinImage';
import { CoinGrid, CoinGridPlaceholder } from '../../../components/CoinCard';
import { PriceBanner } from '../../../components/PriceBanner';
import { SiteLayout } from '../../../components/SiteLayout';
import { changeDirection, formatChange, formatCompactUsd, formatPrice } from '../../../lib/format';
import { useGetCryptoQuery, useGetMarketStatusQuery, type MarketCoinDto } from '../../../api/generated/marketApi.generated';
import { SkeletonTable } from '../../../components/Skeleton';
import { useMediaQuery } from '../../../lib/useMediaQuery';
import './MarketPage.css';

/** Cards below this width, a table above (the stylesheet's breakpoint). */
const PHONE = '(max-width: 720px)';

type SortKey = 'rank' | 'price' | 'change' | 'cap';
const SORTS: Array<{ key: SortKey; label: string }> = [
  { key: 'rank', label: 'Rank' },
  { key: 'price', label: 'Price' },
  { key: 'change', label: '24h change' },
  { key: 'cap', label: 'Market cap' },
];

const value = (coin: MarketCoinDto, key: SortKey): number | null => {
  switch (key) {
    case 'rank':
      return coin.market_cap_rank;
    case 'price':
      return coin.current_price;
    case 'change':
      return coin.price_change_percentage_24h;
    case 'cap':
      return coin.market_cap;
  }
};

/** Rank ascending by default, the others descending; unknown values always last. */
export function sortCoins(coins: MarketCoinDto[], key: SortKey, descending: boolean): MarketCoinDto[] {
  return [...coins].sort((a, b) => {
    const x = value(a, key);
    const y = value(b, key);
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    return descending ? y - x : x - y;
  });
}

export function searchCoins(coins: MarketCoinDto[], query: string): MarketCoinDto[] {
  const text = query.trim().toLowerCase();
  if (!text) return coins;
  return coins.filter((coin) => coin.name.toLowerCase().includes(text) || coin.symbol.toLowerCase().includes(text));
}

export default function MarketPage() {
  const { data: coins, isLoading, error } = useGetCryptoQuery({});
  const { isLoading: statusLoading } = useGetMarketStatusQuery();
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: 'rank', descending: false });
  const deferredQuery = useDeferredValue(query);
  const phone = useMediaQuery(PHONE);
  // Coins and the notice appear together, so nothing moves once shown.
  const loading = isLoading || statusLoading;
  // Spec §8: a failed list fetch is only logged.
  useEffect(() => {
    if (error) console.error('Could not load the market', error);
  }, [error]);
  const shown = useMemo(() => sortCoins(searchCoins(coins ?? [], deferredQuery), sort.key, sort.descending), [coins, deferredQuery, sort]);

  function sortBy(key: SortKey) {
    setSort((current) => (current.key === key ? { key, descending: !current.descending } : { key, descending: key !== 'rank' }));
  }

  const header = (key: SortKey) => (
    <th
      key={key}
      scope="col"
      className={key === 'rank' ? 'rank' : 'num'}
      aria-sort={sort.key === key ? (sort.descending ? 'descending' : 'ascending') : undefined}
    >
      <button type="button" className="sort-button" onClick={() => sortBy(key)}>
        {SORTS.find((s) => s.key === key)!.label}
        <span aria-hidden="true">{sort.key === key ? (sort.descending ? ' ▼' : ' ▲') : ''}</span>
      </button>
    </th>
  );

  return (
    <SiteLayout>
      <h1>Market</h1>
      <p className="muted">Prices in US dollars with the change over the last 24 hours.</p>
      {!loading && <PriceBanner />}
      <div className="market-tools">
        <label htmlFor="market-search" className="visually-hidden">
          Search coins
        </label>
        <input
          id="market-search"
          type="search"
          placeholder="Search by name or symbol"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          autoComplete="off"
        />
        <label htmlFor="market-sort">Sort by</label>
        <select
          id="market-sort"
          value={`${sort.key}:${sort.descending ? 'desc' : 'asc'}`}
          onChange={(e) => {
            const [key, direction] = e.target.value.split(':') as [SortKey, string];
            setSort({ key, descending: direction === 'desc' });
          }}
        >
          {SORTS.flatMap(({ key, label }) => [
            <option key={`${key}:asc`} value={`${key}:asc`}>
              {label} {key === 'rank' ? '(1 first)' : '(low to high)'}
            </option>,
            <option key={`${key}:desc`} value={`${key}:desc`}>
              {label} {key === 'rank' ? '(last first)' : '(high to low)'}
            </option>,
          ])}
        </select>
      </div>
      {loading ? (
        phone ? (
          <div role="status" className="market-cards">
            <span className="visually-hidden">Loading market coins</span>
            <CoinGridPlaceholder count={12} label="Market coins" />
          </div>
        ) : (
          <SkeletonTable columns={['Rank', 'Coin', 'Price', '24h change', 'Market cap']} count={12} label="Loading market coins" className="market-table" />
        )
      ) : !shown.length ? (
        <p className="muted" role="status">
          No coin matches “{deferredQuery.trim()}”.
        </p>
      ) : (
        <>
          {/* One of the two is rendered (not both, hidden by CSS): the page builds half the rows. */}
          {phone ? (
            <div className="market-cards">
              <CoinGrid coins={shown} label="Market coins" />
            </div>
          ) : (
            <table className="market-table" aria-label="Market coins" data-testid="market-table">
              <thead>
                <tr>
                  {header('rank')}
                  <th scope="col">Coin</th>
                  {header('price')}
                  {header('change')}
                  {header('cap')}
                </tr>
              </thead>
              <tbody>
                {shown.map((coin) => (
                  <tr key={coin.id} data-testid="market-row">
                    <td className="rank">{coin.market_cap_rank ?? '–'}</td>
                    <td>
                      <span className="row">
                        <CoinImage image={coin.image} symbol={coin.symbol} size={28} />
                        <span>
                          <strong>{coin.name}</strong> <span className="coin-symbol">{coin.symbol}</span>
                        </span>
                      </span>
                    </td>
                    <td className="num">{formatPrice(coin.current_price)}</td>
                    <td className={`num ${changeDirection(coin.price_change_percentage_24h)}`}>{formatChange(coin.price_change_percentage_24h)}</td>
                    <td className="num">{coin.market_cap === null ? '–' : formatCompactUsd(coin.market_cap)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </SiteLayout>
  );
}
