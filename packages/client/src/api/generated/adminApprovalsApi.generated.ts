import { baseApi as api } from '../baseApi';
export const addTagTypes = ['admin-approvals'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      getApprovals: build.query<GetApprovalsApiResponse, GetApprovalsApiArg>({
        query: (queryArg) => ({
          url: `/api/admin/approvals`,
          params: {
            status: queryArg.status,
          },
        }),
        providesTags: ['admin-approvals'],
      }),
      approveRequest: build.mutation<ApproveRequestApiResponse, ApproveRequestApiArg>({
        query: (queryArg) => ({ url: `/api/admin/approvals/${queryArg.id}/approve`, method: 'POST' }),
        invalidatesTags: ['admin-approvals'],
      }),
      rejectRequest: build.mutation<RejectRequestApiResponse, RejectRequestApiArg>({
        query: (queryArg) => ({ url: `/api/admin/approvals/${queryArg.id}/reject`, method: 'POST', body: queryArg.rejectApprovalDto }),
        invalidatesTags: ['admin-approvals'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type GetApprovalsApiResponse = /** status 200 Four-eyes requests, newest first (at most 200); filter with status=pending. */ ApprovalDto[];
export type GetApprovalsApiArg = {
  /** Default: every status, newest first (at most 200). */
  status?: 'pending' | 'approved' | 'rejected';
};
export type ApproveRequestApiResponse =
  /** status 200 Applies the request exactly as made, once, in one transaction, with the usual ledger entry, notification and audit rows (naming both admins). */ ApprovalDecisionDto;
export type ApproveRequestApiArg = {
  id: string;
};
export type RejectRequestApiResponse = /** status 200 Closes the request without changing anything (audited). */ ApprovalDecisionDto;
export type RejectRequestApiArg = {
  id: string;
  rejectApprovalDto: RejectApprovalDto;
};
export type ApprovalPostingLineDto = {
  /** The customer's account, or a platform account. */
  account: 'customer' | 'deposits' | 'withdrawals_pending' | 'withdrawals_settled' | 'swap_pool' | 'adjustments' | 'network_fees' | 'network_fee_margin';
  /** The customer (customer lines only). */
  userId?: string;
  /** Token (coin id). */
  token: string;
  /** Token symbol, for people (e.g. BTC). */
  symbol: string;
  /** Signed quantity of the token (exact decimal string): positive credits the account. */
  amount: string;
};
export type ApprovalAdminDto = {
  _id: string;
  name: string;
  email: string;
};
export type ApprovalDto = {
  _id: string;
  action:
    | 'update-balance'
    | 'deposit'
    | 'modify-transaction'
    | 'delete-trx'
    | 'create-admin'
    | 'reverse-chain-deposit'
    | 'change-fees'
    | 'update-verification-limits'
    | 'freeze-account'
    | 'unfreeze-account'
    | 'release-deposit-hold';
  status: 'pending' | 'approved' | 'rejected';
  /** What it does, for people. */
  summary: string;
  /** The reason given by the requester (balance adjustments). */
  reason: string | null;
  /** USD value at the prices of the request (exact decimal string). */
  usdValue: string;
  /** The request body as sent, for people; what is applied is `posting`. */
  payload: object;
  /** Why it needs a second admin: threshold (its value alone), velocity (the rolling sum of direct actions over APPROVAL_WINDOW_HOURS), settled-refund (money back from a settled withdrawal), admin-change (adding an administrator), account-freeze (freezing or unfreezing a customer). */
  gatedBecause: ('threshold' | 'velocity' | 'settled-refund' | 'admin-change' | 'fee-change' | 'account-freeze')[];
  /** Exactly what approving moves: every ledger line with its account, token and amount (empty for an administrator change). */
  posting: ApprovalPostingLineDto[];
  /** USD price per coin at the request (the value shown and the price recorded). */
  price: string | null;
  /** "Set balance": the balance it was decided from; approval applies only from this balance (else 409). */
  balanceBefore: string | null;
  /** "Set balance": the balance it sets. */
  balanceAfter: string | null;
  /** Status changes and deletions: the status the transaction had at the request. */
  fromStatus: string | null;
  userId: string | null;
  userEmail: string | null;
  transactionId: string | null;
  requestedBy: ApprovalAdminDto;
  createdAt: string;
  decidedBy: ApprovalAdminDto | null;
  decidedAt: string | null;
  /** Why it was rejected. */
  decisionReason: string | null;
  /** Why the last approval attempt failed (it stays pending). */
  lastError: string | null;
};
export type ErrorResponseDto = {
  statusCode: number;
  error: string;
  /** Per-field validation messages */
  details?: {
    [key: string]: string[];
  };
};
export type ApprovalDecisionDto = {
  message: string;
  approval: ApprovalDto;
};
export type RejectApprovalDto = {
  reason: string;
};
export const { useGetApprovalsQuery, useLazyGetApprovalsQuery, useApproveRequestMutation, useRejectRequestMutation } = injectedRtkApi;
