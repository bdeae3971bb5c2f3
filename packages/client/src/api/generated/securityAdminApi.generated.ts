import { baseApi as api } from '../baseApi';
export const addTagTypes = ['security-admin'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      listAdminSessions: build.query<ListAdminSessionsApiResponse, ListAdminSessionsApiArg>({
        query: () => ({ url: `/api/admin/sessions` }),
        providesTags: ['security-admin'],
      }),
      deleteAdminSession: build.mutation<DeleteAdminSessionApiResponse, DeleteAdminSessionApiArg>({
        query: (queryArg) => ({ url: `/api/admin/sessions/${queryArg.id}`, method: 'DELETE' }),
        invalidatesTags: ['security-admin'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type ListAdminSessionsApiResponse = /** status 200 The administrator's own live sessions. */ SessionInfoDto[];
export type ListAdminSessionsApiArg = void;
export type DeleteAdminSessionApiResponse = /** status 200  */ OkResponseDto;
export type DeleteAdminSessionApiArg = {
  id: string;
};
export type SessionInfoDto = {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  ip: string | null;
  userAgent: string | null;
  /** The session of this request ("This device") */
  current: boolean;
};
export type ErrorResponseDto = {
  statusCode: number;
  error: string;
  /** Per-field validation messages */
  details?: {
    [key: string]: string[];
  };
};
export type OkResponseDto = {
  ok: boolean;
  message?: string;
};
export const { useListAdminSessionsQuery, useLazyListAdminSessionsQuery, useDeleteAdminSessionMutation } = injectedRtkApi;
