import { baseApi as api } from '../baseApi';
export const addTagTypes = ['admin-payouts'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      getColdPayouts: build.query<GetColdPayoutsApiResponse, GetColdPayoutsApiArg>({
        query: () => ({ url: `/api/admin/payouts/cold` }),
        providesTags: ['admin-payouts'],
      }),
      prepareUnsignedPayout: build.mutation<PrepareUnsignedPayoutApiResponse, PrepareUnsignedPayoutApiArg>({
        query: (queryArg) => ({ url: `/api/admin/payouts/cold/${queryArg.transactionId}/unsigned`, method: 'POST' }),
        invalidatesTags: ['admin-payouts'],
      }),
      uploadSignedPayout: build.mutation<UploadSignedPayoutApiResponse, UploadSignedPayoutApiArg>({
        query: (queryArg) => ({ url: `/api/admin/payouts/cold/${queryArg.transactionId}/signed`, method: 'POST', body: queryArg.signedPayoutUploadDto }),
        invalidatesTags: ['admin-payouts'],
      }),
      discardUnsignedPayout: build.mutation<DiscardUnsignedPayoutApiResponse, DiscardUnsignedPayoutApiArg>({
        query: (queryArg) => ({ url: `/api/admin/payouts/cold/${queryArg.transactionId}/discard`, method: 'POST' }),
        invalidatesTags: ['admin-payouts'],
      }),
      failColdPayout: build.mutation<FailColdPayoutApiResponse, FailColdPayoutApiArg>({
        query: (queryArg) => ({ url: `/api/admin/payouts/cold/${queryArg.transactionId}/fail`, method: 'POST', body: queryArg.failColdPayoutDto }),
        invalidatesTags: ['admin-payouts'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type GetColdPayoutsApiResponse = /** status 200 Oldest first (at most 500). */ ColdPayoutDto[];
export type GetColdPayoutsApiArg = void;
export type PrepareUnsignedPayoutApiResponse = /** status 200  */ UnsignedPayoutDto;
export type PrepareUnsignedPayoutApiArg = {
  transactionId: string;
};
export type UploadSignedPayoutApiResponse = /** status 200  */ ColdPayoutDto;
export type UploadSignedPayoutApiArg = {
  transactionId: string;
  signedPayoutUploadDto: SignedPayoutUploadDto;
};
export type DiscardUnsignedPayoutApiResponse = /** status 200  */ ColdPayoutDto;
export type DiscardUnsignedPayoutApiArg = {
  transactionId: string;
};
export type FailColdPayoutApiResponse = /** status 200 The payout, failed. */ ColdPayoutDto;
export type FailColdPayoutApiArg = {
  transactionId: string;
  failColdPayoutDto: FailColdPayoutDto;
};
export type ColdPayoutDto = {
  /** The withdrawal (transaction id) */
  transactionId: string;
  network: string;
  token: string;
  /** The token's symbol, in capitals */
  symbol: string;
  userEmail: string | null;
  /** The approved destination address */
  address: string;
  /** The approved amount, in the token */
  coinAmount: string;
  state: 'approved' | 'awaiting_funds' | 'awaiting_cold_signature' | 'signed' | 'broadcast' | 'confirming' | 'completed' | 'failed';
  /** Why it is paid from the cold side */
  reason: string;
  /** Its unsigned transaction was handed out (the same one on every download) */
  prepared: boolean;
  /** The chain transaction id, once a signed upload was accepted */
  txHash: string | null;
  /** Network fee in the token: the prepared one, then the signed one */
  fee: string | null;
  /** The last problem (preparing, broadcasting) */
  lastError: string | null;
  createdAt: string;
};
export type ErrorResponseDto = {
  statusCode: number;
  error: string;
  /** Per-field validation messages */
  details?: {
    [key: string]: string[];
  };
};
export type UnsignedPayoutDto = {
  transactionId: string;
  network: string;
  /** psbt: a BIP 174 PSBT in base64 (UTXO family); eip1559: an unsigned EIP-1559 transaction, 0x-prefixed hex (EVM family) */
  format: 'psbt' | 'eip1559';
  /** The unsigned transaction: the same bytes on every download */
  unsignedTx: string;
  /** A file name for the download */
  fileName: string;
  /** Pays from: the watch-only cold wallet (UTXO) or the cold address (EVM) */
  from: string;
  /** The approved destination address */
  address: string;
  /** The approved amount, in the token */
  coinAmount: string;
  /** Network fee, in the token (EVM: the most it can cost, gas × max fee) */
  fee: string;
  /** EVM: the nonce reserved for it */
  nonce: number | null;
  /** EVM: the chain id */
  chainId: number | null;
};
export type SignedPayoutUploadDto = {
  /** The signed transaction: UTXO family a signed PSBT (base64 or hex) or the final raw transaction (hex); EVM family the signed EIP-1559 transaction (0x hex) */
  signedTx: string;
};
export type FailColdPayoutDto = {
  reason: string;
};
export const {
  useGetColdPayoutsQuery,
  useLazyGetColdPayoutsQuery,
  usePrepareUnsignedPayoutMutation,
  useUploadSignedPayoutMutation,
  useDiscardUnsignedPayoutMutation,
  useFailColdPayoutMutation,
} = injectedRtkApi;
