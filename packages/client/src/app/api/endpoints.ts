// Generated endpoints used outside the feature their OpenAPI tag names (features never import each other; they
// import these from here). Types are aliases of the generated ones.
export { useMeQuery, useUpdateProfileMutation, useChangePasswordMutation } from '../../features/auth/store/authApi.generated';
export { useGetNotificationsQuery } from '../../features/notifications/store/notificationsApi.generated';
export type { NotificationDto } from '../../features/notifications/store/notificationsApi.generated';
export type { UserBalanceDto, TokenBalanceDto } from '../../features/wallet/store/walletApi.generated';
export { useGetCryptoQuery, useGetWalletTokensQuery, useGetMarketStatusQuery, useGetPriceHistoryQuery } from '../../features/market/store/marketApi.generated';
export type { MarketStatusDto, PriceHistoryDto } from '../../features/market/store/marketApi.generated';
import type { MarketCoinDto, WalletTokenDto } from '../../features/market/store/marketApi.generated';

export type MarketCoin = MarketCoinDto;
export type WalletToken = WalletTokenDto;
export type PriceHistoryRange = import('../../features/market/store/marketApi.generated').PriceHistoryDto['range'];
