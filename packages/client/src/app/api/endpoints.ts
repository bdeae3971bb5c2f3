// Endpoints used by more than one feature (features never import each other; they import these from here), plus the
// market calls declared against the spec's paths (§7) until the server's market endpoints are generated.
import { baseApi } from './baseApi';

export { useMeQuery, useUpdateProfileMutation, useChangePasswordMutation } from '../../features/auth/store/authApi.generated';
export { useGetNotificationsQuery } from '../../features/notifications/store/notificationsApi.generated';
export type { NotificationDto } from '../../features/notifications/store/notificationsApi.generated';
export type { UserBalanceDto, TokenBalanceDto } from '../../features/wallet/store/walletApi.generated';

export interface MarketCoin {
  id: string;
  name: string;
  symbol: string;
  image: string;
  current_price: number;
  low_24h?: number | null;
  high_24h?: number | null;
  price_change_percentage_24h?: number | null;
  sparkline_in_7d?: { price: number[] } | null;
}
export interface WalletToken extends MarketCoin {
  /** Deposit address; null until an administrator sets one. */
  address: string | null;
}

const api = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getCryptoPending: build.query<MarketCoin[], void>({ query: () => '/api/crypto/get-crypto', providesTags: ['market'] }),
    getWalletTokensPending: build.query<WalletToken[], void>({ query: () => '/api/crypto/get-wallet-tokens', providesTags: ['market'] }),
  }),
});

export const useGetCryptoQuery = api.useGetCryptoPendingQuery;
export const useGetWalletTokensQuery = api.useGetWalletTokensPendingQuery;
