// Endpoints used by the customer screens. Until a server endpoint is generated from the contract, it is declared here
// against the spec's path and payload (§7); each is switched to the generated hook as soon as it appears.
import { baseApi } from './baseApi';

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
  address: string;
}
export interface BalanceResponse {
  totalBalance: number;
  balances: { token: string; balance: number; symbol?: string; name?: string; coinAmount?: string; price?: string }[];
}
export interface TransactionItem {
  _id: string;
  createdAt: string;
  type?: string | null;
  token?: string | null;
  address?: string | null;
  network?: string | null;
  amount: number | string;
  status: 'pending' | 'approved' | 'rejected';
  symbol?: string;
  coinAmount?: string;
  direction?: 'in' | 'out';
}
export interface TransactionFilter {
  token?: string;
  type?: string;
  status?: string;
}
export interface NotificationItem {
  _id: string;
  title: string;
  message: string;
  createdAt: string;
  read: number | boolean;
  status?: 'pending' | 'approved' | 'rejected' | null;
}
export interface SendArgs {
  tokenId: string;
  idempotencyKey: string;
  transferData: { address: string; amount: number; symbol: string; coinAmount: string };
}
export interface SwapArgs {
  idempotencyKey: string;
  amount: number;
  from: string;
  to: string;
}

const api = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getCryptoPending: build.query<MarketCoin[], void>({ query: () => '/api/crypto/get-crypto', providesTags: ['market'] }),
    getWalletTokensPending: build.query<WalletToken[], void>({ query: () => '/api/crypto/get-wallet-tokens', providesTags: ['market'] }),
    getUserBalancePending: build.query<BalanceResponse, void>({ query: () => '/api/user/get-user-balance', providesTags: ['wallet'] }),
    getTransactionPending: build.query<TransactionItem[], TransactionFilter>({
      query: (filter) => ({ url: '/api/user/get-transaction', params: Object.fromEntries(Object.entries(filter).filter(([, v]) => v)) }),
      providesTags: ['wallet'],
    }),
    sendCryptoPending: build.mutation<unknown, SendArgs>({
      query: ({ tokenId, idempotencyKey, transferData }) => ({
        url: `/api/crypto/send-crypto/${encodeURIComponent(tokenId)}`,
        method: 'POST',
        body: { transferData },
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: ['wallet'],
    }),
    swapPending: build.mutation<unknown, SwapArgs>({
      query: ({ idempotencyKey, ...body }) => ({ url: '/api/crypto/swap', method: 'POST', body, headers: { 'Idempotency-Key': idempotencyKey } }),
      invalidatesTags: ['wallet'],
    }),
    getNotificationsPending: build.query<NotificationItem[], void>({ query: () => '/api/user/get-notifications', providesTags: ['notifications'] }),
    readNotificationPending: build.mutation<unknown, string>({
      query: (id) => ({ url: `/api/user/read-notification/${encodeURIComponent(id)}`, method: 'PUT' }),
      invalidatesTags: ['notifications'],
    }),
    createTicketPending: build.mutation<unknown, FormData>({
      query: (body) => ({ url: '/api/user/create-ticket', method: 'POST', body }),
    }),
  }),
});

export const useGetCryptoQuery = api.useGetCryptoPendingQuery;
export const useGetWalletTokensQuery = api.useGetWalletTokensPendingQuery;
export const useGetUserBalanceQuery = api.useGetUserBalancePendingQuery;
export const useGetTransactionQuery = api.useGetTransactionPendingQuery;
export const useSendCryptoMutation = api.useSendCryptoPendingMutation;
export const useSwapMutation = api.useSwapPendingMutation;
export const useGetNotificationsQuery = api.useGetNotificationsPendingQuery;
export const useReadNotificationMutation = api.useReadNotificationPendingMutation;
export const useCreateTicketMutation = api.useCreateTicketPendingMutation;
export const endpointsApi = api;

// Generated hooks used by more than one feature (features never import each other; they import these from here).
export { useMeQuery, useUpdateProfileMutation, useChangePasswordMutation } from '../../features/auth/store/authApi.generated';
