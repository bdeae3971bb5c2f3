import { baseApi as api } from '../baseApi';
export const addTagTypes = ['admin-chain'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      getChainStatus: build.query<GetChainStatusApiResponse, GetChainStatusApiArg>({
        query: () => ({ url: `/api/admin/chain/status` }),
        providesTags: ['admin-chain'],
      }),
      getChainDeposits: build.query<GetChainDepositsApiResponse, GetChainDepositsApiArg>({
        query: (queryArg) => ({
          url: `/api/admin/chain/deposits`,
          params: {
            network: queryArg.network,
          },
        }),
        providesTags: ['admin-chain'],
      }),
      getDepositReviews: build.query<GetDepositReviewsApiResponse, GetDepositReviewsApiArg>({
        query: () => ({ url: `/api/admin/chain/deposit-reviews` }),
        providesTags: ['admin-chain'],
      }),
      takeBackDeposit: build.mutation<TakeBackDepositApiResponse, TakeBackDepositApiArg>({
        query: (queryArg) => ({ url: `/api/admin/chain/deposit-reviews/${queryArg.id}/take-back`, method: 'POST', body: queryArg.resolveDepositReviewDto }),
        invalidatesTags: ['admin-chain'],
      }),
      keepDeposit: build.mutation<KeepDepositApiResponse, KeepDepositApiArg>({
        query: (queryArg) => ({ url: `/api/admin/chain/deposit-reviews/${queryArg.id}/keep`, method: 'POST', body: queryArg.resolveDepositReviewDto }),
        invalidatesTags: ['admin-chain'],
      }),
      getDepositTagOwner: build.query<GetDepositTagOwnerApiResponse, GetDepositTagOwnerApiArg>({
        query: (queryArg) => ({ url: `/api/admin/deposit-tags/${queryArg.network}/${queryArg.tag}` }),
        providesTags: ['admin-chain'],
      }),
      getDepositHolds: build.query<GetDepositHoldsApiResponse, GetDepositHoldsApiArg>({
        query: () => ({ url: `/api/admin/chain/deposit-holds` }),
        providesTags: ['admin-chain'],
      }),
      releaseDepositHold: build.mutation<ReleaseDepositHoldApiResponse, ReleaseDepositHoldApiArg>({
        query: (queryArg) => ({ url: `/api/admin/chain/deposit-holds/${queryArg.id}/release`, method: 'POST', body: queryArg.releaseDepositHoldDto }),
        invalidatesTags: ['admin-chain'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type GetChainStatusApiResponse =
  /** status 200 Per connected network: node reachable, chain, node height, our height, lag in blocks and seconds, deposits confirming, last error. */ ChainStatusDto[];
export type GetChainStatusApiArg = void;
export type GetChainDepositsApiResponse = /** status 200 Deposits seen on chain, newest first (at most 200). */ ChainDepositDto[];
export type GetChainDepositsApiArg = {
  network?: string;
};
export type GetDepositReviewsApiResponse =
  /** status 200 Credited deposits whose block was orphaned by a reorganisation (flagged, never debited by themselves): open ones first, newest first (at most 200). */ ChainDepositReviewDto[];
export type GetDepositReviewsApiArg = void;
export type TakeBackDepositApiResponse =
  | /** status 200 Moves the credited amount from the customer back to the deposits platform account, drops the deposit, rejects its History row with the reason, notifies and mails the customer and writes an audit row, in one call. */ DepositReviewResolvedDto
  | /** status 202 Four-eyes: it takes from what is owed to a customer, so at or above APPROVAL_THRESHOLD_USD (alone or over the window) a second admin must approve it; nothing is applied yet. */ PendingApprovalDto;
export type TakeBackDepositApiArg = {
  id: string;
  resolveDepositReviewDto: ResolveDepositReviewDto;
};
export type KeepDepositApiResponse =
  /** status 200 The customer keeps the credit; the review is resolved with the reason and an audit row. No money moves. */ DepositReviewResolvedDto;
export type KeepDepositApiArg = {
  id: string;
  resolveDepositReviewDto: ResolveDepositReviewDto;
};
export type GetDepositTagOwnerApiResponse = /** status 200 Whom a deposit to the shared address with this tag or memo is for. */ DepositTagOwnerDto;
export type GetDepositTagOwnerApiArg = {
  /** xrp or stellar */
  network: string;
  /** The destination tag or memo sent with the deposit */
  tag: string;
};
export type GetDepositHoldsApiResponse = /** status 200 Confirmed deposits held, oldest first (at most 200). */ HeldDepositDto[];
export type GetDepositHoldsApiArg = void;
export type ReleaseDepositHoldApiResponse =
  | /** status 200 Credits the held amount to the customer (deposits platform account → customer), approves its History row, notifies and mails the customer and writes an audit row with the reason, in one call — whatever the customer's limit. */ DepositHoldReleasedDto
  | /** status 202 Four-eyes: it adds to what is owed to a customer, so at or above APPROVAL_THRESHOLD_USD a second admin must approve it; nothing is applied yet. */ PendingApprovalDto;
export type ReleaseDepositHoldApiArg = {
  id: string;
  releaseDepositHoldDto: ReleaseDepositHoldDto;
};
export type ChainStatusDto = {
  network: string;
  name: string;
  chain: 'mainnet' | 'testnet' | 'regtest';
  /** The node, without credentials */
  node: string;
  /** The last poll reached the node and read what it asked for */
  reachable: boolean;
  /** The node's best block height at the last poll */
  nodeHeight: number | null;
  /** The last block the watcher read (its cursor) */
  height: number | null;
  /** nodeHeight − height */
  lagBlocks: number | null;
  /** Seconds since the watcher's last block was made (its block time) */
  lagSeconds: number | null;
  requiredConfirmations: number;
  pollSeconds: number;
  /** Deposits seen or confirming, not credited yet */
  depositsConfirming: number;
  /** Credited deposits whose block was orphaned: an admin must review them */
  depositsToReview: number;
  lastPollAt: string | null;
  /** The last failed poll (cleared by the next good one) */
  lastError: string | null;
  lastErrorAt: string | null;
  /** EVM networks: whether the node traces internal transfers (native value a contract sends on to a deposit address, read with debug_traceBlockByHash). 'not traced': the node has no tracing, such deposits are not seen. Null on other networks and before the first block read */
  internalTransfers: ('traced' | 'not traced') | null;
};
export type ErrorResponseDto = {
  statusCode: number;
  error: string;
  /** Per-field validation messages */
  details?: {
    [key: string]: string[];
  };
};
export type ChainDepositDto = {
  _id: string;
  network: string;
  /** Chain transaction id */
  txHash: string;
  /** Output index (UTXO), log index (ERC-20), -1 (EVM: the transaction's own value) or -2, -3, … (EVM: internal transfers, in call order) */
  outputIndex: number;
  userId: string;
  token: string;
  /** The token's symbol, in capitals (its id for a coin no longer listed) */
  symbol: string;
  /** The token's name (its id for a coin no longer listed) */
  tokenName: string;
  /** The customer's deposit address */
  address: string;
  /** Exact amount, without trailing zeros */
  amount: string;
  /** held: confirmed, kept off the balance (see hold) */
  state: 'seen' | 'confirming' | 'held' | 'credited' | 'dropped' | 'below_minimum';
  /** Why it is (or was) held: above the customer's deposit limit, or sent from a sanctioned address */
  hold?: ('limit' | 'sanctions') | null;
  confirmations: number;
  requiredConfirmations: number;
  blockHeight: number | null;
  /** Needs an admin: credited, then its block was orphaned */
  review?: 'orphaned_after_credit' | null;
  /** An admin's decision on the review: taken back from the customer, or kept (the loss accepted); null while it waits */
  reviewResolution: ('taken_back' | 'kept') | null;
  /** The History row (type deposit) */
  transactionId: string | null;
  createdAt: string;
};
export type ChainDepositReviewDto = {
  /** The chain deposit */
  _id: string;
  network: string;
  /** Chain transaction id */
  txHash: string;
  /** Output index (UTXO), log index (ERC-20) or -1 (EVM value transfer) */
  outputIndex: number;
  userId: string;
  userEmail: string;
  token: string;
  symbol: string;
  /** The credited amount (exact) */
  amount: string;
  /** credited until taken back (then dropped) */
  state: 'credited' | 'dropped';
  /** The block the payment is in now: mined again after the reorganisation (null: in no block of the best chain) */
  blockHeight: number | null;
  /** The History row (type deposit) */
  transactionId: string | null;
  /** null: waiting for an admin */
  resolution: ('taken_back' | 'kept') | null;
  /** The deciding admin's reason */
  reason: string | null;
  resolvedAt: string | null;
  /** The deciding admin */
  resolvedBy: string | null;
  /** When the deposit was first seen */
  createdAt: string;
};
export type DepositReviewResolvedDto = {
  message: string;
  review: ChainDepositReviewDto;
};
export type PendingApprovalDto = {
  pendingApproval: boolean;
  approvalId: string;
  message: string;
};
export type ResolveDepositReviewDto = {
  reason: string;
};
export type DepositTagOwnerDto = {
  network: string;
  /** The tag or memo, as the customer was shown it */
  tag: string;
  /** What the network calls it: 'Destination tag' (xrp) or 'Memo' (stellar) */
  label: string;
  /** The customer */
  userId: string;
  name: string;
  email: string;
  /** false: the account is deactivated (a deposit cannot be recorded for it) */
  active: boolean;
};
export type HeldDepositDto = {
  _id: string;
  network: string;
  /** Chain transaction id */
  txHash: string;
  outputIndex: number;
  userId: string;
  userEmail: string;
  token: string;
  symbol: string;
  /** Exact amount, without trailing zeros */
  amount: string;
  /** Its USD value when it was found (the value the limit counts) */
  usdAmount: number;
  /** limit: above the customer's verification level's deposit limit (released by the watcher once the limit allows it, or by an admin); sanctions: sent from a sanctioned address (the account frozen; released only by an admin) */
  hold: 'limit' | 'sanctions';
  holdText: string;
  heldAt: string | null;
  /** The History row (type deposit, pending while held) */
  transactionId: string | null;
};
export type DepositHoldReleasedDto = {
  message: string;
};
export type ReleaseDepositHoldDto = {
  reason: string;
};
export const {
  useGetChainStatusQuery,
  useLazyGetChainStatusQuery,
  useGetChainDepositsQuery,
  useLazyGetChainDepositsQuery,
  useGetDepositReviewsQuery,
  useLazyGetDepositReviewsQuery,
  useTakeBackDepositMutation,
  useKeepDepositMutation,
  useGetDepositTagOwnerQuery,
  useLazyGetDepositTagOwnerQuery,
  useGetDepositHoldsQuery,
  useLazyGetDepositHoldsQuery,
  useReleaseDepositHoldMutation,
} = injectedRtkApi;
