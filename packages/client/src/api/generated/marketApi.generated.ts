import { baseApi as api } from '../baseApi';
export const addTagTypes = ['market'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      getCrypto: build.query<GetCryptoApiResponse, GetCryptoApiArg>({
        query: (queryArg) => ({
          url: `/api/crypto/get-crypto`,
          headers: {
            'If-None-Match': queryArg['If-None-Match'],
          },
          params: {
            limit: queryArg.limit,
          },
        }),
        providesTags: ['market'],
      }),
      getWalletTokens: build.query<GetWalletTokensApiResponse, GetWalletTokensApiArg>({
        query: () => ({ url: `/api/crypto/get-wallet-tokens` }),
        providesTags: ['market'],
      }),
      getMarketStatus: build.query<GetMarketStatusApiResponse, GetMarketStatusApiArg>({
        query: () => ({ url: `/api/crypto/market-status` }),
        providesTags: ['market'],
      }),
      getPriceHistory: build.query<GetPriceHistoryApiResponse, GetPriceHistoryApiArg>({
        query: (queryArg) => ({
          url: `/api/crypto/price-history/${queryArg.coinId}`,
          headers: {
            'If-None-Match': queryArg['If-None-Match'],
          },
          params: {
            range: queryArg.range,
          },
        }),
        providesTags: ['market'],
      }),
      getNetworks: build.query<GetNetworksApiResponse, GetNetworksApiArg>({
        query: () => ({ url: `/api/crypto/networks` }),
        providesTags: ['market'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type GetCryptoApiResponse = /** status 200  */ MarketCoinDto[];
export type GetCryptoApiArg = {
  /** At most this many coins, 1 to 1000 (default: all) */
  limit?: number;
  /** The ETag of a copy the client holds */
  'If-None-Match'?: string;
};
export type GetWalletTokensApiResponse =
  /** status 200 The supported tokens: market coin fields plus the deposit address (null until set). On a network connected to a node the address is the customer's own (allocated once). */ WalletTokenDto[];
export type GetWalletTokensApiArg = void;
export type GetMarketStatusApiResponse =
  /** status 200 Whether prices are live or from the offline snapshot, and as of when (beyond the spec). */ MarketStatusDto;
export type GetMarketStatusApiArg = void;
export type GetPriceHistoryApiResponse = /** status 200  */ PriceHistoryDto;
export type GetPriceHistoryApiArg = {
  coinId: string;
  /** Time range (default 7d) */
  range?: '1d' | '7d' | '30d' | '1y' | 'all';
  /** The ETag of a copy the client holds */
  'If-None-Match'?: string;
};
export type GetNetworksApiResponse = /** status 200  */ NetworkDto[];
export type GetNetworksApiArg = void;
export type MarketCoinDto = {
  /** Coin id (CoinGecko id, or an admin-made custom token id) */
  id: string;
  name: string;
  symbol: string;
  /** A full https URL, or a file name served under `/images/` */
  image: string;
  current_price: number;
  low_24h: number | null;
  high_24h: number | null;
  price_change_percentage_24h: number | null;
  market_cap: number | null;
  /** null for custom tokens (listed after market coins) */
  market_cap_rank: number | null;
  /** When this price was observed (provider time, snapshot time, or when an admin set it) */
  last_updated: string;
  /** true for custom tokens, priced by an administrator */
  manual_price: boolean;
};
export type ErrorResponseDto = {
  statusCode: number;
  error: string;
  /** Per-field validation messages */
  details?: {
    [key: string]: string[];
  };
};
export type TokenNetworkDto = {
  /** Network id */
  network: string;
  /** Network display name */
  name: string;
  /** Deposit address on this network */
  address: string | null;
  /** What to tell a customer while deposits on this network are not possible (no deposit address yet); null once they are */
  depositNote: string | null;
  /** A network connected to a node: `address` is the customer's own, and deposits to it are credited after this many confirmations */
  requiredConfirmations?: number;
  /** A memo network (xrp, stellar) with a deposit address, for a signed-in customer: the customer's own destination tag (xrp) or memo (stellar) on the shared `address`. A deposit without it cannot be credited to them. */
  memo?: string;
  /** What the network calls `memo`: 'Destination tag' (xrp) or 'Memo' (stellar) */
  memoLabel?: string;
};
export type WalletTokenDto = {
  /** Coin id (CoinGecko id, or an admin-made custom token id) */
  id: string;
  name: string;
  symbol: string;
  /** A full https URL, or a file name served under `/images/` */
  image: string;
  current_price: number;
  low_24h: number | null;
  high_24h: number | null;
  price_change_percentage_24h: number | null;
  market_cap: number | null;
  /** null for custom tokens (listed after market coins) */
  market_cap_rank: number | null;
  /** When this price was observed (provider time, snapshot time, or when an admin set it) */
  last_updated: string;
  /** true for custom tokens, priced by an administrator */
  manual_price: boolean;
  /** Deposit address; null until an administrator sets one */
  address: string | null;
  /** The token's networks with their deposit addresses; the first is the default (its address is `address`) */
  networks: TokenNetworkDto[];
  /** What to tell a customer while `address` is null (deposits on the default network are not possible yet); null once it is set */
  depositNote: string | null;
};
export type MarketStatusDto = {
  /** live: prices come from the provider; snapshot: the bundled offline snapshot */
  source: 'live' | 'snapshot';
  /** Newest market price time */
  asOf: string | null;
  /** true when the newest market price is older than PRICE_MAX_AGE_SECONDS */
  stale: boolean;
  /** Money operations refuse stale prices (production only); elsewhere they proceed on labelled snapshot prices */
  staleRefused: boolean;
  /** Number of coins in the market list */
  coins: number;
  /** Last successful provider refresh */
  lastSuccessAt: string | null;
  /** Last refresh attempt (any instance) */
  lastAttemptAt: string | null;
  /** Why the last attempt failed */
  lastError?: string | null;
  /** No provider call before this time (rate limit or errors) */
  backoffUntil: string | null;
  /** Whether this instance schedules refreshes */
  refreshEnabled: boolean;
  refreshSeconds: number;
};
export type PriceHistoryDto = {
  coinId: string;
  range: '1d' | '7d' | '30d' | '1y' | 'all';
  /** [unix time in ms, USD price] pairs, oldest first; 5-minute points for a day, hourly for a week and a month, daily beyond */
  points: number[][];
};
export type NetworkDto = {
  /** Network id */
  id: string;
  /** Display name */
  name: string;
  /** The coins native to this network: their network is named by shortName (TRX is on 'Tron', USDT on 'Tron (TRC-20)') */
  nativeCoins: string[];
  /** Short name used in sentences */
  shortName: string;
  /** An EVM chain (0x addresses) */
  evm: boolean;
  /** Transfers may carry a memo / destination tag (xrp, stellar) */
  memo: boolean;
  memoLabel: string | null;
  memoHint: string | null;
  explorerTx: string;
  explorerAddress: string;
};
export const {
  useGetCryptoQuery,
  useLazyGetCryptoQuery,
  useGetWalletTokensQuery,
  useLazyGetWalletTokensQuery,
  useGetMarketStatusQuery,
  useLazyGetMarketStatusQuery,
  useGetPriceHistoryQuery,
  useLazyGetPriceHistoryQuery,
  useGetNetworksQuery,
  useLazyGetNetworksQuery,
} = injectedRtkApi;
