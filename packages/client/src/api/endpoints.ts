// Generated endpoints used outside the feature their OpenAPI tag names (features never import each other; they
// import these from here). Types are aliases of the generated ones.
export { useMeQuery, useUpdateProfileMutation, useChangePasswordMutation } from './generated/authApi.generated';
export { useGetNotificationsQuery } from './generated/notificationsApi.generated';
export type { NotificationDto } from './generated/notificationsApi.generated';
export type { UserBalanceDto, TokenBalanceDto } from './generated/walletApi.generated';
export {
  useGetCryptoQuery,
  useGetWalletTokensQuery,
  useGetMarketStatusQuery,
  useGetNetworksQuery,
  useGetPriceHistoryQuery,
} from './generated/marketApi.generated';
export type { NetworkDto, TokenNetworkDto, MarketStatusDto, PriceHistoryDto } from './generated/marketApi.generated';
import type { MarketCoinDto, WalletTokenDto } from './generated/marketApi.generated';

export type MarketCoin = MarketCoinDto;
export type WalletToken = WalletTokenDto;
export type PriceHistoryRange = import('./generated/marketApi.generated').PriceHistoryDto['range'];
// Whether two-factor sign-in is on: the send and password forms ask for the code up front.
export { useTwoFactorStatusQuery } from './generated/securityApi.generated';
