import { baseApi as api } from '../baseApi';
export const addTagTypes = ['admin-fees'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      getFees: build.query<GetFeesApiResponse, GetFeesApiArg>({
        query: () => ({ url: `/api/admin/fees` }),
        providesTags: ['admin-fees'],
      }),
      updateFees: build.mutation<UpdateFeesApiResponse, UpdateFeesApiArg>({
        query: (queryArg) => ({ url: `/api/admin/fees/${queryArg.token}`, method: 'PUT', body: queryArg.feeRowUpdateDto }),
        invalidatesTags: ['admin-fees'],
      }),
      getRevenue: build.query<GetRevenueApiResponse, GetRevenueApiArg>({
        query: (queryArg) => ({
          url: `/api/admin/revenue`,
          params: {
            from: queryArg['from'],
            to: queryArg.to,
          },
        }),
        providesTags: ['admin-fees'],
      }),
      exportRevenue: build.query<ExportRevenueApiResponse, ExportRevenueApiArg>({
        query: (queryArg) => ({
          url: `/api/admin/revenue/export`,
          params: {
            from: queryArg['from'],
            to: queryArg.to,
          },
        }),
        providesTags: ['admin-fees'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type GetFeesApiResponse =
  /** status 200 The default row, then every supported token with its own values (null: the default, else 0) and house position. */ FeeScheduleDto;
export type GetFeesApiArg = void;
export type UpdateFeesApiResponse =
  | /** status 200 Changed and audited (`fees.update`). A field left out keeps its value; null clears it. */ FeeRowChangedDto
  | /** status 202 Four-eyes is on: the change waits for a second administrator. */ PendingApprovalDto;
export type UpdateFeesApiArg = {
  token: string;
  feeRowUpdateDto: FeeRowUpdateDto;
};
export type GetRevenueApiResponse = /** status 200 Per day (UTC), token and kind: coins and USD at the prices of each operation, from the ledger. */ RevenueDto;
export type GetRevenueApiArg = {
  /** First day (UTC), inclusive; default 30 days ago. */
  from?: string;
  /** Last day (UTC), inclusive; default today. */
  to?: string;
};
export type ExportRevenueApiResponse = /** status 200 The same rows as CSV. */ string;
export type ExportRevenueApiArg = {
  /** First day (UTC), inclusive; default 30 days ago. */
  from?: string;
  /** Last day (UTC), inclusive; default today. */
  to?: string;
};
export type WithdrawalNetworkFeeDto = {
  /** The network id. */
  network: string;
  /** The network name. */
  name: string;
  /** `network`: the network fee passed through plus `fee`; `fixed`: `fee` only. Null: not set (the token's `withdrawalFee`, network fee passed through). */
  mode: ('network' | 'fixed') | null;
  /** Coins of the token; null: not set. */
  fee: string | null;
};
export type FeeRowDto = {
  /** `*` for the default row, else a token id. */
  token: string;
  /** The token name (`Every token` for the default row). */
  name: string;
  /** Swap spread in basis points (50 = 0.5 %) when the house sells this token. */
  swapSpreadBps: number | null;
  /** Swap fee in basis points of the USD value (default row only). */
  swapFeeBps: number | null;
  /** The least swap fee in USD when one is charged (default row only). */
  swapFeeMinUsd: string | null;
  /** A withdrawal's fee in coins of the token, on top of the network fee (token rows). */
  withdrawalFee: string | null;
  /** Per network of the token, its withdrawal fee and mode, overriding `withdrawalFee` there (empty on the default row). */
  withdrawalNetworks: WithdrawalNetworkFeeDto[];
  /** The house position may not go below this USD value (holdings minus what customers are owed). */
  houseMinPositionUsd: string | null;
  /** Coins held off chain of a token without a chain connection: its holdings (token rows). */
  inventory: string | null;
  /** Whether the token is read on a chain (its holdings come from the reserves check). */
  connected: boolean;
  /** The house position now in coins (holdings minus liabilities); null when its holdings are unknown. */
  position: string | null;
  /** When an administrator last set it (null: from the configuration, or never set). */
  setAt: string | null;
};
export type FeeScheduleDto = {
  /** The default row first, then every supported token. */
  rows: FeeRowDto[];
  /** Changes wait for a second admin (four-eyes is on). */
  fourEyes: boolean;
  /** How long a swap quote holds (SWAP_QUOTE_SECONDS). */
  quoteSeconds: number;
};
export type ErrorResponseDto = {
  statusCode: number;
  error: string;
  /** Per-field validation messages */
  details?: {
    [key: string]: string[];
  };
};
export type FeeRowChangedDto = {
  message: string;
  row: FeeRowDto;
};
export type PendingApprovalDto = {
  pendingApproval: boolean;
  approvalId: string;
  message: string;
};
export type WithdrawalNetworkFeeUpdateDto = {
  network: string;
  mode: 'network' | 'fixed';
  fee: string;
};
export type FeeRowUpdateDto = {
  swapSpreadBps?: number | null;
  swapFeeBps?: number | null;
  swapFeeMinUsd?: string | null;
  withdrawalFee?: string | null;
  /** The per-network withdrawal fees of the token, replaced whole (a network left out falls back to `withdrawalFee`); null clears them. */
  withdrawalNetworks?: WithdrawalNetworkFeeUpdateDto[] | null;
  houseMinPositionUsd?: string | null;
  inventory?: string | null;
};
export type RevenueRowDto = {
  /** The day (UTC). */
  day: string;
  token: string;
  symbol: string;
  /** swap_spread, swap_fee, withdrawal_fee, or network_fees (the platform's gain or cost on network fees). */
  kind: 'swap_spread' | 'swap_fee' | 'withdrawal_fee' | 'network_fees';
  /** Coins (exact decimal string; negative: a cost). */
  coinAmount: string;
  /** USD at the prices of each operation (exact decimal string, 8 decimals). */
  usd: string;
  /** Postings counted. */
  count: number;
};
export type RevenueDto = {
  from: string;
  to: string;
  /** Newest day first, then token and kind. */
  rows: RevenueRowDto[];
  /** Σ usd of the rows. */
  totalUsd: string;
};
export const {
  useGetFeesQuery,
  useLazyGetFeesQuery,
  useUpdateFeesMutation,
  useGetRevenueQuery,
  useLazyGetRevenueQuery,
  useExportRevenueQuery,
  useLazyExportRevenueQuery,
} = injectedRtkApi;
