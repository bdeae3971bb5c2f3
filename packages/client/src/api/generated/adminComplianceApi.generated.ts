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
export const { useFreezeAccountMutation, useUnfreezeAccountMutation } = injectedRtkApi;
