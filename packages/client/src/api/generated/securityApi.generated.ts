import { baseApi as api } from '../baseApi';
export const addTagTypes = ['security'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      twoFactorStatus: build.query<TwoFactorStatusApiResponse, TwoFactorStatusApiArg>({
        query: () => ({ url: `/api/user/2fa` }),
        providesTags: ['security'],
      }),
      setupTwoFactor: build.mutation<SetupTwoFactorApiResponse, SetupTwoFactorApiArg>({
        query: () => ({ url: `/api/user/2fa/setup`, method: 'POST' }),
        invalidatesTags: ['security'],
      }),
      enableTwoFactor: build.mutation<EnableTwoFactorApiResponse, EnableTwoFactorApiArg>({
        query: (queryArg) => ({ url: `/api/user/2fa/enable`, method: 'POST', body: queryArg.twoFactorCodeDto }),
        invalidatesTags: ['security'],
      }),
      disableTwoFactor: build.mutation<DisableTwoFactorApiResponse, DisableTwoFactorApiArg>({
        query: (queryArg) => ({ url: `/api/user/2fa/disable`, method: 'POST', body: queryArg.twoFactorCodeDto }),
        invalidatesTags: ['security'],
      }),
      regenerateRecoveryCodes: build.mutation<RegenerateRecoveryCodesApiResponse, RegenerateRecoveryCodesApiArg>({
        query: (queryArg) => ({ url: `/api/user/2fa/recovery-codes`, method: 'POST', body: queryArg.twoFactorCodeDto }),
        invalidatesTags: ['security'],
      }),
      logoutAll: build.mutation<LogoutAllApiResponse, LogoutAllApiArg>({
        query: () => ({ url: `/api/user/logout-all`, method: 'POST' }),
        invalidatesTags: ['security'],
      }),
      listSessions: build.query<ListSessionsApiResponse, ListSessionsApiArg>({
        query: () => ({ url: `/api/user/sessions` }),
        providesTags: ['security'],
      }),
      deleteSession: build.mutation<DeleteSessionApiResponse, DeleteSessionApiArg>({
        query: (queryArg) => ({ url: `/api/user/sessions/${queryArg.id}`, method: 'DELETE' }),
        invalidatesTags: ['security'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type TwoFactorStatusApiResponse = /** status 200  */ TwoFactorStatusDto;
export type TwoFactorStatusApiArg = void;
export type SetupTwoFactorApiResponse =
  /** status 200 A new secret to scan (pending until enabled); 409 when two-factor sign-in is already on. */ TwoFactorSetupDto;
export type SetupTwoFactorApiArg = void;
export type EnableTwoFactorApiResponse =
  /** status 200 Confirms the setup with a code from the app; returns 10 single-use recovery codes (shown once). */ RecoveryCodesDto;
export type EnableTwoFactorApiArg = {
  twoFactorCodeDto: TwoFactorCodeDto;
};
export type DisableTwoFactorApiResponse = /** status 200 Needs a current code or a recovery code; every other session ends. */ OkResponseDto;
export type DisableTwoFactorApiArg = {
  twoFactorCodeDto: TwoFactorCodeDto;
};
export type RegenerateRecoveryCodesApiResponse = /** status 200 A new set of 10 recovery codes; the old ones stop working. */ RecoveryCodesDto;
export type RegenerateRecoveryCodesApiArg = {
  twoFactorCodeDto: TwoFactorCodeDto;
};
export type LogoutAllApiResponse = /** status 200 Ends every session of the account, this one included. */ OkResponseDto;
export type LogoutAllApiArg = void;
export type ListSessionsApiResponse = /** status 200 Live sessions, most recently used first; `current` marks this device. */ SessionInfoDto[];
export type ListSessionsApiArg = void;
export type DeleteSessionApiResponse = /** status 200  */ OkResponseDto;
export type DeleteSessionApiArg = {
  id: string;
};
export type TwoFactorStatusDto = {
  enabled: boolean;
  /** Unused recovery codes left */
  recoveryCodesLeft: number;
  /** True when this account must enrol before anything else (administrators under ADMIN_REQUIRE_2FA) */
  required: boolean;
};
export type ErrorResponseDto = {
  statusCode: number;
  error: string;
  /** Per-field validation messages */
  details?: {
    [key: string]: string[];
  };
};
export type TwoFactorSetupDto = {
  /** Base32 secret for manual entry */
  secret: string;
  /** For the QR code */
  otpauthUrl: string;
};
export type RecoveryCodesDto = {
  /** 10 single-use recovery codes, shown once */
  recoveryCodes: string[];
};
export type TwoFactorCodeDto = {
  /** TOTP code (or, to disable or renew codes, a recovery code) */
  code: string;
};
export type OkResponseDto = {
  ok: boolean;
  message?: string;
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
export const {
  useTwoFactorStatusQuery,
  useLazyTwoFactorStatusQuery,
  useSetupTwoFactorMutation,
  useEnableTwoFactorMutation,
  useDisableTwoFactorMutation,
  useRegenerateRecoveryCodesMutation,
  useLogoutAllMutation,
  useListSessionsQuery,
  useLazyListSessionsQuery,
  useDeleteSessionMutation,
} = injectedRtkApi;
