import { useGetNetworksQuery } from '../../../api/endpoints';
import { networkLabel } from '../../../lib/networkLabel';

/**
 * A network's label for the admin screens (lib/networkLabel): with the token, "Ethereum" for ETH and "Ethereum (ERC-20)"
 * for USDT; without one, the network as a chain. The id itself for one not listed.
 */
export function useNetworkNames(): (id: string, coinId?: string) => string {
  const { data: networks } = useGetNetworksQuery();
  return (id, coinId) => networkLabel(networks, id, coinId);
}
