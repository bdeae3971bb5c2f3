// Until the server's forgot/reset-password endpoints are generated (tag auth), these calls follow the spec's paths.
import { baseApi } from '../../../app/api/baseApi';

const api = baseApi.injectEndpoints({
  endpoints: (build) => ({
    forgotPasswordPending: build.mutation<unknown, { email: string }>({
      query: (body) => ({ url: '/api/user/forgot-password', method: 'POST', body }),
    }),
    resetPasswordPending: build.mutation<unknown, { password: string; token: string }>({
      query: ({ password, token }) => ({ url: '/api/user/reset-password', method: 'POST', body: { password }, headers: { Authorization: `Bearer ${token}` } }),
    }),
  }),
});

export const { useForgotPasswordPendingMutation, useResetPasswordPendingMutation } = api;
