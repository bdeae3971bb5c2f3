import { baseApi as api } from '../baseApi';
export const addTagTypes = ['admin-exports'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      exportUsers: build.query<ExportUsersApiResponse, ExportUsersApiArg>({
        query: () => ({ url: `/api/admin/export/users` }),
        providesTags: ['admin-exports'],
      }),
      exportAdminTransactions: build.query<ExportAdminTransactionsApiResponse, ExportAdminTransactionsApiArg>({
        query: (queryArg) => ({
          url: `/api/admin/export/transactions`,
          params: {
            limit: queryArg.limit,
            cursor: queryArg.cursor,
            token: queryArg.token,
            type: queryArg['type'],
            status: queryArg.status,
            id: queryArg.id,
            userId: queryArg.userId,
            search: queryArg.search,
            waiting: queryArg.waiting,
          },
        }),
        providesTags: ['admin-exports'],
      }),
      exportAuditLog: build.query<ExportAuditLogApiResponse, ExportAuditLogApiArg>({
        query: (queryArg) => ({
          url: `/api/admin/export/audit`,
          params: {
            limit: queryArg.limit,
            cursor: queryArg.cursor,
            actor: queryArg.actor,
            action: queryArg.action,
            targetType: queryArg.targetType,
            targetId: queryArg.targetId,
          },
        }),
        providesTags: ['admin-exports'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type ExportUsersApiResponse = /** status 200 Every customer with a balance column per token held, streamed as CSV (audited). */ string;
export type ExportUsersApiArg = void;
export type ExportAdminTransactionsApiResponse =
  /** status 200 Transactions with the list filters (type, status, token, userId, search; limit and cursor ignored), oldest first, streamed as CSV (audited). */ string;
export type ExportAdminTransactionsApiArg = {
  /** Page size, 1 to 200 */
  limit?: number;
  /** Keyset cursor from the X-Next-Cursor response header */
  cursor?: string;
  /** Token id filter */
  token?: string;
  type?: 'deposit' | 'withdrawal' | 'swap' | 'adjustment';
  status?: 'pending' | 'approved' | 'rejected';
  /** One transaction by its `_id` (a notification’s `transactionId`): the list holds it, or nothing */
  id?: string;
  /** Only this customer */
  userId?: string;
  /** Part of the customer email or name (case-insensitive, prefix or substring), or a withdrawal txHash / transaction id (exact) */
  search?: string;
  /** Only the withdrawals waiting in this queue (the dashboard counts each). review: pending, the signer pays it once approved; manual-payout: no signer will pay it, an admin pays it by hand and approves it with the hash; awaiting-funds: the hot wallet cannot pay it yet; cannot-sign: the signer could not sign it (payoutReason says why); cold-signature: it waits for an offline signature. A withdrawal waiting in Approvals is in neither review nor manual-payout. */
  waiting?: 'review' | 'manual-payout' | 'awaiting-funds' | 'cannot-sign' | 'cold-signature';
};
export type ExportAuditLogApiResponse =
  /** status 200 The audit log with its filters (limit and cursor ignored), oldest first, streamed as CSV (audited). */ string;
export type ExportAuditLogApiArg = {
  /** Page size, 1 to 100 */
  limit?: number;
  /** The nextCursor of the previous page. */
  cursor?: string;
  /** Only actions by this admin (actor id). */
  actor?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
};
export type ErrorResponseDto = {
  statusCode: number;
  error: string;
  /** Per-field validation messages */
  details?: {
    [key: string]: string[];
  };
};
export const {
  useExportUsersQuery,
  useLazyExportUsersQuery,
  useExportAdminTransactionsQuery,
  useLazyExportAdminTransactionsQuery,
  useExportAuditLogQuery,
  useLazyExportAuditLogQuery,
} = injectedRtkApi;
