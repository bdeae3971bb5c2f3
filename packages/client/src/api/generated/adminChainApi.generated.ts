import { baseApi as api } from '../../app/api/baseApi';
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
  /** The customer's deposit address */
  address: string;
  /** Exact amount */
  amount: string;
  state: 'seen' | 'confirming' | 'credited' | 'dropped' | 'below_minimum';
  confirmations: number;
  requiredConfirmations: number;
  blockHeight: number | null;
  /** Needs an admin: credited, then its block was orphaned */
  review?: 'orphaned_after_credit' | null;
  /** The History row (type deposit) */
  transactionId: string | null;
  createdAt: string;
};
export const { useGetChainStatusQuery, useLazyGetChainStatusQuery, useGetChainDepositsQuery, useLazyGetChainDepositsQuery } = injectedRtkApi;
