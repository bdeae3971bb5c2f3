/**
 * The admin screens' one entry to the server: the generated RTK Query endpoints of the admin OpenAPI tags, with the
 * screens' types as aliases of the generated ones. Only the two money lists that page through an `X-Next-Cursor`
 * response header (users, transactions) get a thin query here, because generated hooks do not expose headers.
 */
import { baseApi } from '../../../api/baseApi';
import { enhancedApi as approvalsApi } from '../../../api/generated/adminApprovalsApi.generated';
import { enhancedApi as transactionsApi } from '../../../api/generated/adminTransactionsApi.generated';
import type { DashboardDto } from '../../../api/generated/adminApi.generated';
import type { AuditEntryDto, GetAuditLogApiArg } from '../../../api/generated/adminAuditApi.generated';
import type { TicketDetailDto, TicketSummaryDto } from '../../../api/generated/adminTicketsApi.generated';
import type { AddCustomTokenApiArg, AdminTokenListItemDto, CustomTokenDto } from '../../../api/generated/adminTokensApi.generated';
import type { GetAdminTransactionsApiArg, LedgerCheckDto, LiabilitiesDto, TransactionDto } from '../../../api/generated/adminTransactionsApi.generated';
import type { AdminAccountDto } from '../../../api/generated/adminAdminsApi.generated';
import type { ApprovalDto } from '../../../api/generated/adminApprovalsApi.generated';
import type { AdminUserDto, GetUsersApiArg, UserDetailDto } from '../../../api/generated/adminUsersApi.generated';

export { useGetDashboardQuery as useDashboardQuery } from '../../../api/generated/adminApi.generated';
export { useGetAuditLogQuery as useAuditQuery } from '../../../api/generated/adminAuditApi.generated';
export { useBroadcastNotificationMutation as useBroadcastMutation, useSendNotificationMutation } from '../../../api/generated/adminNotificationsApi.generated';
export {
  useCloseTicketMutation,
  useGetTicketQuery as useTicketQuery,
  useGetTicketsQuery as useTicketsQuery,
  useReplyTicketMutation,
} from '../../../api/generated/adminTicketsApi.generated';
export {
  useAddCustomTokenMutation,
  useAddTokenMutation,
  useDeleteCustomTokenMutation,
  useDeleteTokenMutation,
  useEditCustomTokenMutation,
  useEditTokenMutation,
  useGetCustomTokensQuery as useCustomTokensQuery,
  useGetTokensQuery as useAdminTokensQuery,
} from '../../../api/generated/adminTokensApi.generated';
export {
  useCheckLedgerQuery as useLedgerCheckQuery,
  useDeleteTrxMutation as useDeleteTransactionMutation,
  useDepositCryptoMutation as useCreateDepositMutation,
  useGetLedgerLiabilitiesQuery as useLiabilitiesQuery,
  useModifyTransactionMutation,
  useUpdateBalanceMutation,
} from '../../../api/generated/adminTransactionsApi.generated';
export { useDeleteUserMutation, useGetUserDetailQuery as useUserDetailQuery } from '../../../api/generated/adminUsersApi.generated';
export { useFreezeAccountMutation, useUnfreezeAccountMutation } from '../../../api/generated/adminComplianceApi.generated';
export { useEraseUserMutation } from '../../../api/generated/adminVerificationApi.generated';
export { useCreateAdminMutation, useDeleteAdminMutation, useGetAdminsQuery as useAdminsQuery } from '../../../api/generated/adminAdminsApi.generated';
export {
  useApproveRequestMutation,
  useGetApprovalsQuery as useApprovalsQuery,
  useRejectRequestMutation,
} from '../../../api/generated/adminApprovalsApi.generated';

export type AdminUser = AdminUserDto;
export type AdminAccount = AdminAccountDto;
export type Approval = ApprovalDto;
export type UserDetail = UserDetailDto;
export type AdminToken = AdminTokenListItemDto;
export type CustomToken = CustomTokenDto;
export type AdminTransaction = TransactionDto;
export type TransactionStatus = TransactionDto['status'];
export type DashboardData = DashboardDto;
export type Liabilities = LiabilitiesDto;
export type LedgerCheck = LedgerCheckDto;
export type TicketSummary = TicketSummaryDto;
export type TicketDetail = TicketDetailDto;
export type AuditRow = AuditEntryDto;
export type AuditFilters = GetAuditLogApiArg;
/** The multipart body of POST /crypto/custom-token: built as FormData (the generated type describes its fields). */
export type CustomTokenUpload = AddCustomTokenApiArg['body'];

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Response header of the money lists' keyset paging (absent on the last page). */
const NEXT_CURSOR_HEADER = 'X-Next-Cursor';

function headerPage<T>(raw: unknown, meta?: { response?: Response }): Page<T> {
  return { items: Array.isArray(raw) ? (raw as T[]) : [], nextCursor: meta?.response?.headers.get(NEXT_CURSOR_HEADER) || null };
}

const definedParams = (params: object) => Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined && value !== ''));

// A money action may come back as a four-eyes hold (202): the Approvals list and its badge reload with it; an approval
// changes balances and transactions.
transactionsApi.enhanceEndpoints({
  addTagTypes: ['admin-approvals', 'admin-users'],
  endpoints: {
    depositCrypto: { invalidatesTags: ['admin-transactions', 'admin-approvals'] },
    modifyTransaction: { invalidatesTags: ['admin-transactions', 'admin-approvals'] },
    deleteTrx: { invalidatesTags: ['admin-transactions', 'admin-approvals'] },
    updateBalance: { invalidatesTags: ['admin-transactions', 'admin-approvals', 'admin-users'] },
  },
});
approvalsApi.enhanceEndpoints({
  addTagTypes: ['admin-transactions', 'admin-users'],
  endpoints: { approveRequest: { invalidatesTags: ['admin-approvals', 'admin-transactions', 'admin-users'] } },
});

const pagedApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    adminUsersPage: build.query<Page<AdminUser>, GetUsersApiArg>({
      query: (args) => ({ url: '/api/user/get-users', params: definedParams(args) }),
      transformResponse: (raw, meta) => headerPage<AdminUser>(raw, meta),
      providesTags: ['admin-users'],
    }),
    adminTransactionsPage: build.query<Page<AdminTransaction>, GetAdminTransactionsApiArg>({
      query: (args) => ({ url: '/api/admin/transaction', params: definedParams(args) }),
      transformResponse: (raw, meta) => headerPage<AdminTransaction>(raw, meta),
      providesTags: ['admin-transactions'],
    }),
  }),
  overrideExisting: false,
});

export const {
  useAdminUsersPageQuery: useAdminUsersQuery,
  useLazyAdminUsersPageQuery: useLazyAdminUsersQuery,
  useAdminTransactionsPageQuery: useAdminTransactionsQuery,
} = pagedApi;

/** One key per submitted form: a retried or double-clicked money action is applied once (Idempotency-Key). */
export function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}
