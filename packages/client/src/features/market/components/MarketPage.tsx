import { useEffect } from 'react';
import { CoinGrid, CoinGridPlaceholder } from '../../../components/CoinCard';
import { SiteLayout } from '../../../components/SiteLayout';
import { useGetCryptoQuery, useGetMarketStatusQuery } from '../store/marketApi.generated';

export default function MarketPage() {
  const { data: coins, isLoading, error } = useGetCryptoQuery({});
  const { data: status, isLoading: statusLoading } = useGetMarketStatusQuery();
  // Coins and the notice appear together, so nothing moves once shown.
  const loading = isLoading || statusLoading;
  // Spec §8: a failed list fetch is only logged.
  useEffect(() => {
    if (error) console.error('Could not load the market', error);
  }, [error]);
  return (
    <SiteLayout>
      <h1>Market</h1>
      <p className="muted">Prices in US dollars with the change over the last 24 hours.</p>
      {!loading && status?.source === 'snapshot' && <p className="notice">Live prices are unavailable: showing the latest saved prices.</p>}
      {loading ? <CoinGridPlaceholder count={12} label="Market coins" /> : <CoinGrid coins={coins ?? []} label="Market coins" />}
    </SiteLayout>
  );
}
