import { baseApi as api } from '../baseApi';
export const addTagTypes = ['admin-compliance'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      freezeAccount: build.mutation<FreezeAccountApiResponse, FreezeAccountApiArg>({
        query: (queryArg) => ({ url: `/api/admin/users/${queryArg.id}/freeze`, method: 'POST', body: queryArg.accountFreezeRequestDto }),
        invalidatesTags: ['admin-compliance'],
      }),
      unfreezeAccount: build.mutation<UnfreezeAccountApiResponse, UnfreezeAccountApiArg>({
        query: (queryArg) => ({ url: `/api/admin/users/${queryArg.id}/unfreeze`, method: 'POST', body: queryArg.accountFreezeRequestDto }),
        invalidatesTags: ['admin-compliance'],
      }),
      getSanctionsList: build.query<GetSanctionsListApiResponse, GetSanctionsListApiArg>({
        query: () => ({ url: `/api/admin/sanctions` }),
        providesTags: ['admin-compliance'],
      }),
      uploadSanctionsList: build.mutation<UploadSanctionsListApiResponse, UploadSanctionsListApiArg>({
        query: (queryArg) => ({ url: `/api/admin/sanctions`, method: 'PUT', body: queryArg.uploadSanctionsListDto }),
        invalidatesTags: ['admin-compliance'],
      }),
      getSanctionsHits: build.query<GetSanctionsHitsApiResponse, GetSanctionsHitsApiArg>({
        query: (queryArg) => ({
          url: `/api/admin/sanctions/hits`,
          params: {
            kind: queryArg.kind,
          },
        }),
        providesTags: ['admin-compliance'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type FreezeAccountApiResponse =
  | /** status 200 Freezes the customer (audited, the customer notified): sign-in, reading and deposits go on; sends, swaps and API-key calls needing trade or withdraw are refused with 403. */ AccountFreezeChangedDto
  | /** status 202 Four-eyes on (APPROVAL_THRESHOLD_USD above 0): nothing changes yet; another active administrator approves the request in /api/admin/approvals. */ PendingApprovalDto;
export type FreezeAccountApiArg = {
  id: string;
  accountFreezeRequestDto: AccountFreezeRequestDto;
};
export type UnfreezeAccountApiResponse =
  | /** status 200 Unfreezes the customer (audited, the customer notified). */ AccountFreezeChangedDto
  | /** status 202 Four-eyes on (APPROVAL_THRESHOLD_USD above 0): nothing changes yet; another active administrator approves the request in /api/admin/approvals. */ PendingApprovalDto;
export type UnfreezeAccountApiArg = {
  id: string;
  accountFreezeRequestDto: AccountFreezeRequestDto;
};
export type GetSanctionsListApiResponse =
  /** status 200 The sanctions list in force: where it came from, when, how many addresses per network. */ SanctionsListDto;
export type GetSanctionsListApiArg = void;
export type UploadSanctionsListApiResponse =
  /** status 200 Replaces the list in force (audited) until SANCTIONS_LIST_FILE changes again; every instance screens with it at once. */ SanctionsListDto;
export type UploadSanctionsListApiArg = {
  uploadSanctionsListDto: UploadSanctionsListDto;
};
export type GetSanctionsHitsApiResponse =
  /** status 200 What screening caught, newest first (500 at most): sends and address-book entries refused, deposits from a listed address. */ SanctionsHitDto[];
export type GetSanctionsHitsApiArg = {
  kind?: 'send' | 'address-book' | 'deposit';
};
export type AccountFreezeDto = {
  /** Why it was frozen. */
  reason: string;
  frozenAt: string;
  /** The admin who froze it; null when sanctions screening did. */
  frozenBy: string | null;
};
export type AccountFreezeChangedDto = {
  message: string;
  userId: string;
  /** The freeze now; null once unfrozen. */
  freeze: AccountFreezeDto | null;
};
export type PendingApprovalDto = {
  pendingApproval: boolean;
  approvalId: string;
  message: string;
};
export type ErrorResponseDto = {
  statusCode: number;
  error: string;
  /** Per-field validation messages */
  details?: {
    [key: string]: string[];
  };
};
export type AccountFreezeRequestDto = {
  /** Why, for the audit log and the other admins (required). */
  reason: string;
};
export type SanctionsNetworkCountDto = {
  network: string;
  entries: number;
};
export type SanctionsListDto = {
  /** Where the list in force came from: SANCTIONS_LIST_FILE, an admin upload, or none yet. */
  source: 'none' | 'file' | 'upload';
  /** Addresses on the list. */
  entries: number;
  networks: SanctionsNetworkCountDto[];
  loadedAt: string | null;
  /** SHA-256 of the list text in force. */
  sha256: string | null;
  /** SANCTIONS_LIST_FILE as configured (null: none). */
  file: string | null;
  /** Why the file could not be loaded last time (the list in force was kept). */
  fileError: string | null;
};
export type UploadSanctionsListDto = {
  /** The whole list: one `network,address` a line (network ids as in GET /api/networks); blank lines and lines starting with # are skipped. Replaces the list in force. */
  list: string;
};
export type SanctionsHitDto = {
  _id: string;
  /** A send refused, an address-book entry refused, or a deposit from a sanctioned address (credited, account frozen). */
  kind: 'send' | 'address-book' | 'deposit';
  userId: string;
  userEmail: string;
  network: string;
  /** The sanctioned address (for a deposit: the sender). */
  address: string;
  /** Deposits: the transaction hash. */
  txid: string | null;
  /** Deposits: the amount (exact decimal string) of the token. */
  amount: string | null;
  token: string | null;
  createdAt: string;
};
export const {
  useFreezeAccountMutation,
  useUnfreezeAccountMutation,
  useGetSanctionsListQuery,
  useLazyGetSanctionsListQuery,
  useUploadSanctionsListMutation,
  useGetSanctionsHitsQuery,
  useLazyGetSanctionsHitsQuery,
} = injectedRtkApi;
