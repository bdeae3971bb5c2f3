import { baseApi as api } from '../baseApi';
export const addTagTypes = ['auth'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      createUser: build.mutation<CreateUserApiResponse, CreateUserApiArg>({
        query: (queryArg) => ({ url: `/api/user/create-user`, method: 'POST', body: queryArg.createUserDto }),
        invalidatesTags: ['auth'],
      }),
      loginUser: build.mutation<LoginUserApiResponse, LoginUserApiArg>({
        query: (queryArg) => ({ url: `/api/user/login-user`, method: 'POST', body: queryArg.loginDto }),
        invalidatesTags: ['auth'],
      }),
      logout: build.mutation<LogoutApiResponse, LogoutApiArg>({
        query: () => ({ url: `/api/user/logout`, method: 'POST' }),
        invalidatesTags: ['auth'],
      }),
      me: build.query<MeApiResponse, MeApiArg>({
        query: () => ({ url: `/api/user/me` }),
        providesTags: ['auth'],
      }),
      updateProfile: build.mutation<UpdateProfileApiResponse, UpdateProfileApiArg>({
        query: (queryArg) => ({ url: `/api/user/profile`, method: 'PATCH', body: queryArg.updateProfileDto }),
        invalidatesTags: ['auth'],
      }),
      changePassword: build.mutation<ChangePasswordApiResponse, ChangePasswordApiArg>({
        query: (queryArg) => ({ url: `/api/user/change-password`, method: 'POST', body: queryArg.changePasswordDto }),
        invalidatesTags: ['auth'],
      }),
      loginAdmin: build.mutation<LoginAdminApiResponse, LoginAdminApiArg>({
        query: (queryArg) => ({ url: `/api/admin/login-admin`, method: 'POST', body: queryArg.loginDto }),
        invalidatesTags: ['auth'],
      }),
      forgotPassword: build.mutation<ForgotPasswordApiResponse, ForgotPasswordApiArg>({
        query: (queryArg) => ({ url: `/api/user/forgot-password`, method: 'POST', body: queryArg.forgotPasswordDto }),
        invalidatesTags: ['auth'],
      }),
      resetPassword: build.mutation<ResetPasswordApiResponse, ResetPasswordApiArg>({
        query: (queryArg) => ({ url: `/api/user/reset-password`, method: 'POST', body: queryArg.resetPasswordDto }),
        invalidatesTags: ['auth'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type CreateUserApiResponse = /** status 201 The session object of the new customer. */ SessionDto;
export type CreateUserApiArg = {
  createUserDto: CreateUserDto;
};
export type LoginUserApiResponse =
  /** status 200 With two-factor sign-in on and no or a wrong `code`: 401 `{ error, twoFactorRequired: true }` (the password is checked first). */ SessionDto;
export type LoginUserApiArg = {
  loginDto: LoginDto;
};
export type LogoutApiResponse = /** status 200 Ends this device's session only (see logout-all). */ OkResponseDto;
export type LogoutApiArg = void;
export type MeApiResponse = /** status 200  */ ProfileDto;
export type MeApiArg = void;
export type UpdateProfileApiResponse = /** status 200  */ ProfileDto;
export type UpdateProfileApiArg = {
  updateProfileDto: UpdateProfileDto;
};
export type ChangePasswordApiResponse =
  /** status 200 Every session ends; the returned session replaces the stored one. Needs `code` when two-factor sign-in is on. */ SessionDto;
export type ChangePasswordApiArg = {
  changePasswordDto: ChangePasswordDto;
};
export type LoginAdminApiResponse = /** status 200 Administrators only: a customer account gets 401. `code` as for login-user. */ SessionDto;
export type LoginAdminApiArg = {
  loginDto: LoginDto;
};
export type ForgotPasswordApiResponse = /** status 200 The same answer for every email; a known customer gets a link valid for 30 minutes. */ SupportMessageDto;
export type ForgotPasswordApiArg = {
  forgotPasswordDto: ForgotPasswordDto;
};
export type ResetPasswordApiResponse =
  /** status 200 Send the token from the mailed link as `Authorization: Bearer <token>`. Every older session ends. */ SupportMessageDto;
export type ResetPasswordApiArg = {
  resetPasswordDto: ResetPasswordDto;
};
export type SessionDto = {
  /** JWT (HS256) bearer token with sub, role, iat, exp */
  token: string;
  _id: string;
  name: string;
  email: string;
  /** The English name of the country (`United Kingdom`); a value kept from before countries were checked is answered as stored. */
  country: string;
  role: 'user' | 'admin';
};
export type ErrorResponseDto = {
  statusCode: number;
  error: string;
  /** Per-field validation messages */
  details?: {
    [key: string]: string[];
  };
};
export type CreateUserDto = {
  name: string;
  email: string;
  password: string;
  /** A country of ISO 3166-1: its alpha-2 code (`GB`) or its English name (`United Kingdom`), as the sign-up list sends it. Stored as the code; anything else is refused with "Select a country from the list." */
  country: string;
};
export type LoginDto = {
  email: string;
  password: string;
  /** TOTP code or recovery code; required when two-factor sign-in is on. */
  code?: string;
};
export type OkResponseDto = {
  ok: boolean;
  message?: string;
};
export type ProfileDto = {
  _id: string;
  name: string;
  email: string;
  /** The English name of the country (`United Kingdom`); a value kept from before countries were checked is answered as stored. */
  country: string;
  role: 'user' | 'admin';
  createdAt: string;
};
export type UpdateProfileDto = {
  name?: string;
  /** A country of ISO 3166-1: its alpha-2 code (`GB`) or its English name (`United Kingdom`), as the sign-up list sends it. Stored as the code; anything else is refused with "Select a country from the list." */
  country?: string;
  /** A new sign-in email; needs the two-factor code when two-factor sign-in is on. */
  email?: string;
  /** TOTP code or recovery code; required when two-factor sign-in is on. */
  code?: string;
};
export type ChangePasswordDto = {
  currentPassword: string;
  newPassword: string;
  /** TOTP code or recovery code; required when two-factor sign-in is on. */
  code?: string;
};
export type SupportMessageDto = {
  message: string;
};
export type ForgotPasswordDto = {
  email: string;
};
export type ResetPasswordDto = {
  password: string;
};
export const {
  useCreateUserMutation,
  useLoginUserMutation,
  useLogoutMutation,
  useMeQuery,
  useLazyMeQuery,
  useUpdateProfileMutation,
  useChangePasswordMutation,
  useLoginAdminMutation,
  useForgotPasswordMutation,
  useResetPasswordMutation,
} = injectedRtkApi;
