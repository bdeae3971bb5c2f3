import { baseApi as api } from '../../../app/api/baseApi';
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
            userId: queryArg.userId,
            search: queryArg.search,
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
export type ExportUsersApiResponse = unknown;
export type ExportUsersApiArg = void;
export type ExportAdminTransactionsApiResponse = unknown;
export type ExportAdminTransactionsApiArg = {
  /** Page size, 1 to 200 (default 50) */
  limit?: string;
  /** Keyset cursor from the X-Next-Cursor response header */
  cursor?: string;
  /** Token id filter */
  token?: string;
  type?: 'deposit' | 'withdrawal' | 'swap' | 'adjustment';
  status?: 'pending' | 'approved' | 'rejected';
  /** Only this customer */
  userId?: string;
  /** Part of the customer email or name (case-insensitive, prefix or substring), or a withdrawal txHash / transaction id (exact) */
  search?: string;
};
export type ExportAuditLogApiResponse = unknown;
export type ExportAuditLogApiArg = {
  /** 1 to 100, default 50 */
  limit?: string;
  /** The nextCursor of the previous page. */
  cursor?: string;
  /** Only actions by this admin (actor id). */
  actor?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
};
export const {
  useExportUsersQuery,
  useLazyExportUsersQuery,
  useExportAdminTransactionsQuery,
  useLazyExportAdminTransactionsQuery,
  useExportAuditLogQuery,
  useLazyExportAuditLogQuery,
} = injectedRtkApi;
