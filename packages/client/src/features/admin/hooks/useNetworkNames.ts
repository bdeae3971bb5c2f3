import { useGetNetworksQuery } from '../../../api/endpoints';

/** A network id's display name ("bitcoin" → "Bitcoin", "tron" → "Tron (TRC-20)"), the id itself for one not listed. */
export function useNetworkNames(): (id: string) => string {
  const { data: networks } = useGetNetworksQuery();
  return (id) => networks?.find((network) => network.id === id)?.name ?? id;
}
