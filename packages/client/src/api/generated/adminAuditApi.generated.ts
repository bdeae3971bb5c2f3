import { baseApi as api } from '../baseApi';
export const addTagTypes = ['admin-audit'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      getAuditLog: build.query<GetAuditLogApiResponse, GetAuditLogApiArg>({
        query: (queryArg) => ({
          url: `/api/admin/audit`,
          params: {
            limit: queryArg.limit,
            cursor: queryArg.cursor,
            actor: queryArg.actor,
            action: queryArg.action,
            targetType: queryArg.targetType,
            targetId: queryArg.targetId,
          },
        }),
        providesTags: ['admin-audit'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type GetAuditLogApiResponse =
  /** status 200 Newest first. Filters: actor (admin id), action, targetType, targetId. Pass nextCursor as cursor for the next page. */ AuditPageDto;
export type GetAuditLogApiArg = {
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
export type AuditEntryDto = {
  /** Sequential id (as a string). */
  _id: string;
  actorId: string | null;
  actorRole: string | null;
  actorEmail: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  /** State before (JSON) */
  before: object | null;
  /** State after (JSON) */
  after: object | null;
  requestId: string | null;
  /** The prefix of the API key the actor used; null: a session */
  apiKey: string | null;
  createdAt: string;
};
export type AuditPageDto = {
  items: AuditEntryDto[];
  nextCursor: string | null;
};
export type ErrorResponseDto = {
  statusCode: number;
  error: string;
  /** Per-field validation messages */
  details?: {
    [key: string]: string[];
  };
};
export const { useGetAuditLogQuery, useLazyGetAuditLogQuery } = injectedRtkApi;
