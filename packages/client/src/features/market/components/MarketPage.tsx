import { useGetCryptoQuery, useGetMarketStatusQuery } from '../store/marketApi.generated';
import { CoinGrid } from '../../../components/CoinCard';
import { SiteLayout } from '../../../components/SiteLayout';
import { Spinner } from '../../../components/Spinner';

export default function MarketPage() {
  const { data: coins, isLoading, isError } = useGetCryptoQuery({});
  const { data: status } = useGetMarketStatusQuery();
  return (
    <SiteLayout>
      <h1>Market</h1>
      <p className="muted">
        Prices in US dollars with the change over the last 24 hours.
        {status?.source === 'snapshot' && ' Live prices are unavailable: showing the latest saved prices.'}
      </p>
      {isLoading ? (
        <Spinner label="Loading market" />
      ) : isError ? (
        <p role="alert">The market is unavailable right now. Please try again shortly.</p>
      ) : (
        <CoinGrid coins={coins ?? []} label="Market coins" />
      )}
    </SiteLayout>
  );
}
