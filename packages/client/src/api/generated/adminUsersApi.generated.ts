import { baseApi as api } from '../../app/api/baseApi';
export const addTagTypes = ['admin-users'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      deleteUser: build.mutation<DeleteUserApiResponse, DeleteUserApiArg>({
        query: (queryArg) => ({ url: `/api/admin/delete-user/${queryArg.id}`, method: 'DELETE' }),
        invalidatesTags: ['admin-users'],
      }),
      getUsers: build.query<GetUsersApiResponse, GetUsersApiArg>({
        query: (queryArg) => ({
          url: `/api/user/get-users`,
          params: {
            limit: queryArg.limit,
            cursor: queryArg.cursor,
          },
        }),
        providesTags: ['admin-users'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type DeleteUserApiResponse =
  /** status 200 Deactivates the customer: sign-in refused, sessions revoked, hidden from lists; balances, ledger and history kept. */ UserDeletedDto;
export type DeleteUserApiArg = {
  id: string;
};
export type GetUsersApiResponse =
  /** status 200 Active customers (no admins, no deactivated accounts) by email, with balances in USD; `token` is the token name. */ AdminUserDto[];
export type GetUsersApiArg = {
  /** Page size, 1 to 200 (default 50) */
  limit?: string;
  /** Keyset cursor from the X-Next-Cursor response header */
  cursor?: string;
};
export type UserDeletedDto = {
  ok: boolean;
  message: string;
};
export type AdminUserBalanceDto = {
  /** Token name */
  token: string;
  /** USD value at the current price */
  balance: number;
  tokenId: string;
  symbol: string;
  coinAmount: string;
};
export type AdminUserDto = {
  _id: string;
  name: string;
  email: string;
  balances: AdminUserBalanceDto[];
};
export const { useDeleteUserMutation, useGetUsersQuery, useLazyGetUsersQuery } = injectedRtkApi;
