import { baseApi as api } from '../baseApi';
export const addTagTypes = ['admin-users'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      getUsers: build.query<GetUsersApiResponse, GetUsersApiArg>({
        query: (queryArg) => ({
          url: `/api/user/get-users`,
          params: {
            limit: queryArg.limit,
            cursor: queryArg.cursor,
            search: queryArg.search,
          },
        }),
        providesTags: ['admin-users'],
      }),
      deleteUser: build.mutation<DeleteUserApiResponse, DeleteUserApiArg>({
        query: (queryArg) => ({ url: `/api/admin/delete-user/${queryArg.id}`, method: 'DELETE' }),
        invalidatesTags: ['admin-users'],
      }),
      getUserDetail: build.query<GetUserDetailApiResponse, GetUserDetailApiArg>({
        query: (queryArg) => ({ url: `/api/admin/users/${queryArg.id}` }),
        providesTags: ['admin-users'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type GetUsersApiResponse =
  /** status 200 Active customers (no admins, no deactivated accounts) by email, with balances in USD; `token` is the token name. */ AdminUserDto[];
export type GetUsersApiArg = {
  /** Page size, 1 to 200 */
  limit?: number;
  /** Keyset cursor from the X-Next-Cursor response header */
  cursor?: string;
  /** Part of the customer email or name (case-insensitive, prefix or substring) */
  search?: string;
};
export type DeleteUserApiResponse =
  /** status 200 Deactivates the customer: sign-in refused, sessions revoked, hidden from lists; balances, ledger and history kept. */ UserDeletedDto;
export type DeleteUserApiArg = {
  id: string;
};
export type GetUserDetailApiResponse =
  /** status 200 One customer: profile, balances, latest notifications, tickets, audit entries and approval requests. */ UserDetailDto;
export type GetUserDetailApiArg = {
  id: string;
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
  /** The English name of the country (`United Kingdom`); a value kept from before countries were checked is answered as stored. */
  country: string;
  balances: AdminUserBalanceDto[];
};
export type ErrorResponseDto = {
  statusCode: number;
  error: string;
  /** Per-field validation messages */
  details?: {
    [key: string]: string[];
  };
};
export type UserDeletedDto = {
  ok: boolean;
  message: string;
};
export type AccountFreezeDto = {
  /** Why it was frozen. */
  reason: string;
  frozenAt: string;
  /** The admin who froze it; null when sanctions screening did. */
  frozenBy: string | null;
};
export type UserDetailProfileDto = {
  _id: string;
  name: string;
  email: string;
  /** The English name of the country (`United Kingdom`); a value kept from before countries were checked is answered as stored. */
  country: string;
  role: 'user' | 'admin';
  createdAt: string;
  deactivatedAt: string | null;
  /** When an admin erased the closed account’s personal data (POST /api/admin/users/{id}/erase); null otherwise. */
  erasedAt: string | null;
  /** The freeze while the account is frozen (nothing leaves it); null otherwise. */
  freeze: AccountFreezeDto | null;
};
export type UserDetailBalanceDto = {
  tokenId: string;
  symbol: string;
  name: string;
  coinAmount: string;
  /** USD value at the current price */
  balance: number;
};
export type UserDetailNotificationDto = {
  _id: string;
  title: string;
  message: string;
  read: boolean;
  createdAt: string;
};
export type UserDetailTicketDto = {
  _id: string;
  subject: string;
  status: 'open' | 'closed';
  createdAt: string;
};
export type UserDetailAuditDto = {
  _id: string;
  action: string;
  actorEmail: string | null;
  after: object | null;
  createdAt: string;
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
export type SessionInfoDto = {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  ip: string | null;
  userAgent: string | null;
  /** The session of this request ("This device") */
  current: boolean;
};
export type UserDetailDto = {
  profile: UserDetailProfileDto;
  balances: UserDetailBalanceDto[];
  totalBalance: number;
  /** The 20 newest. */
  notifications: UserDetailNotificationDto[];
  /** The 20 newest. */
  tickets: UserDetailTicketDto[];
  /** The 50 newest audit entries about this user. */
  audit: UserDetailAuditDto[];
  /** Approval requests about this user (newest 20). */
  approvals: ApprovalDto[];
  /** The live sessions (signed-in devices) of this user; `current` is always false here. */
  sessions: SessionInfoDto[];
};
export const { useGetUsersQuery, useLazyGetUsersQuery, useDeleteUserMutation, useGetUserDetailQuery, useLazyGetUserDetailQuery } = injectedRtkApi;
