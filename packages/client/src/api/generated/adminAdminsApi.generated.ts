import { baseApi as api } from '../baseApi';
export const addTagTypes = ['admin-admins'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      getAdmins: build.query<GetAdminsApiResponse, GetAdminsApiArg>({
        query: () => ({ url: `/api/admin/admins` }),
        providesTags: ['admin-admins'],
      }),
      createAdmin: build.mutation<CreateAdminApiResponse, CreateAdminApiArg>({
        query: (queryArg) => ({ url: `/api/admin/admins`, method: 'POST', body: queryArg.createAdminDto }),
        invalidatesTags: ['admin-admins'],
      }),
      deleteAdmin: build.mutation<DeleteAdminApiResponse, DeleteAdminApiArg>({
        query: (queryArg) => ({ url: `/api/admin/admins/${queryArg.id}`, method: 'DELETE' }),
        invalidatesTags: ['admin-admins'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type GetAdminsApiResponse = /** status 200 Every administrator, active or deactivated, oldest first. */ AdminAccountDto[];
export type GetAdminsApiArg = void;
export type CreateAdminApiResponse =
  | /** status 201 Four-eyes off (APPROVAL_THRESHOLD_USD=0): adds an administrator (audited). It signs in at /login-admin. */ AdminChangedDto
  | /** status 202 Four-eyes on: nothing is created yet; another active administrator approves the request in /api/admin/approvals (an admin added after a request cannot approve it). With one active administrator, the second one is added on the server (pnpm admin:add, or ADMIN_EMAIL). */ PendingApprovalDto;
export type CreateAdminApiArg = {
  createAdminDto: CreateAdminDto;
};
export type DeleteAdminApiResponse = /** status 200 Deactivates an administrator: sign-in refused, sessions revoked; its audit trail stays. */ AdminChangedDto;
export type DeleteAdminApiArg = {
  id: string;
};
export type AdminAccountDto = {
  _id: string;
  name: string;
  email: string;
  /** false once deactivated */
  active: boolean;
  createdAt: string;
  deactivatedAt: string | null;
};
export type ErrorResponseDto = {
  statusCode: number;
  error: string;
  /** Per-field validation messages */
  details?: {
    [key: string]: string[];
  };
};
export type AdminChangedDto = {
  ok: boolean;
  message: string;
  admin: AdminAccountDto;
};
export type PendingApprovalDto = {
  pendingApproval: boolean;
  approvalId: string;
  message: string;
};
export type CreateAdminDto = {
  name: string;
  email: string;
  /** At least 12 characters for an administrator. */
  password: string;
};
export const { useGetAdminsQuery, useLazyGetAdminsQuery, useCreateAdminMutation, useDeleteAdminMutation } = injectedRtkApi;
