// The generated resetPassword sends the stored session's bearer; a reset must send the mailed token instead.
import { baseApi } from '../../../api/baseApi';
import type { ResetPasswordApiResponse, ResetPasswordDto } from '../../../api/generated/authApi.generated';

const api = baseApi.injectEndpoints({
  endpoints: (build) => ({
    resetPasswordWithToken: build.mutation<ResetPasswordApiResponse, { token: string; resetPasswordDto: ResetPasswordDto }>({
      query: ({ token, resetPasswordDto }) => ({
        url: '/api/user/reset-password',
        method: 'POST',
        body: resetPasswordDto,
        headers: { Authorization: `Bearer ${token}` },
      }),
    }),
  }),
});

export const { useResetPasswordWithTokenMutation } = api;
