import { useGetMarketStatusQuery } from '../api/endpoints';
import { formatAsOf } from '../lib/format';

/** Says when prices are not live: from the offline snapshot, or older than the server's freshness limit. */
export function PriceBanner() {
  const { data: status } = useGetMarketStatusQuery(undefined, { pollingInterval: 60_000 });
  if (!status || (status.source === 'live' && !status.stale)) return null;
  const asOf = status.asOf ? formatAsOf(status.asOf) : '';
  return (
    <p className="notice" role="status" data-testid="price-banner">
      {asOf ? `Prices as of ${asOf} — live prices unavailable` : 'Live prices unavailable'}
    </p>
  );
}
