import { createAction } from '@reduxjs/toolkit';
import { createApi, fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react';

/**
 * The one base API: the generated endpoints (`./generated`) and the features' own inject into it. It sits below the
 * session (core/session), so it names only what it reads of the state, the stored session's token, and tells of a
 * refused token with its own action, which the session slice answers by clearing the session.
 */
interface SessionTokenState {
  session: { user: { token: string } | null };
}

/** The server refused the stored session's token (a 401 that is not a two-factor question). */
export const sessionRefused = createAction('api/sessionRefused');

/** Tags every generated endpoint may provide or invalidate (the OpenAPI tags of the server's controllers). */
export const TAG_TYPES = [
  'auth',
  'market',
  'wallet',
  'wallet-addresses',
  'transactions',
  'notifications',
  'tickets',
  'profile',
  'admin',
  'admin-users',
  'admin-tokens',
  'admin-custom-tokens',
  'admin-transactions',
  'admin-notifications',
  'admin-tickets',
  'admin-audit',
  'security',
  'security-admin',
] as const;

const rawBaseQuery = fetchBaseQuery({
  baseUrl: '/',
  prepareHeaders: (headers, { getState }) => {
    const token = (getState() as SessionTokenState).session.user?.token;
    if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
    return headers;
  },
});

/** A 401 on a call made with the stored session means the session is gone: clear it so the guards redirect. */
const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, api, extraOptions) => {
  const tokenUsed = (api.getState() as SessionTokenState).session.user?.token;
  const result = await rawBaseQuery(args, api, extraOptions);
  // Only when the refused token is still the stored one: a call that raced a password change (which replaces the
  // session) must not sign the user out of the new session.
  const current = (api.getState() as SessionTokenState).session.user?.token;
  // A 401 asking for the two-factor code is a question to the user, not the end of the session.
  if (result.error?.status === 401 && !isTwoFactorRequired(result.error) && tokenUsed && current === tokenUsed) api.dispatch(sessionRefused());
  return result;
};

export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: TAG_TYPES,
  endpoints: () => ({}),
});

/** The `error` text of the server's `{ statusCode, error }` body, for toasts. */
export function errorMessage(error: unknown, fallback: string): string {
  const data = (error as { data?: { error?: unknown } } | undefined)?.data;
  return typeof data?.error === 'string' && data.error ? data.error : fallback;
}

/** True for the server's 401 `{ twoFactorRequired: true }`: show the code step and send again with `code`. */
export function isTwoFactorRequired(error: unknown): boolean {
  const data = (error as { data?: { twoFactorRequired?: unknown } } | undefined)?.data;
  return data?.twoFactorRequired === true;
}
