import type { FetchBaseQueryMeta } from '@reduxjs/toolkit/query/react';
import { baseApi } from '../../../api/baseApi';
import type { GetTransactionApiArg, TransactionDto } from '../../../api/generated/walletApi.generated';

/** The contract's NEXT_CURSOR_HEADER: the keyset cursor of the next page, absent on the last page. */
const NEXT_CURSOR_HEADER = 'X-Next-Cursor';

export interface TransactionPage {
  items: TransactionDto[];
  nextCursor: string | null;
}

/**
 * The history one page at a time: the same call as the generated getTransaction, but it also reads the cursor of
 * the next page from the response header (the generated hook only gives the body).
 */
const historyApi = baseApi.enhanceEndpoints({ addTagTypes: ['wallet'] }).injectEndpoints({
  endpoints: (build) => ({
    getTransactionPage: build.query<TransactionPage, GetTransactionApiArg>({
      query: (arg) => ({
        url: '/api/user/get-transaction',
        params: { limit: arg.limit, cursor: arg.cursor, token: arg.token, type: arg.type, status: arg.status, id: arg.id },
      }),
      transformResponse: (items: TransactionDto[], meta) => ({
        items, // The base query passes fetchBaseQuery's meta through (its type does not say so).
        nextCursor: (meta as FetchBaseQueryMeta | undefined)?.response?.headers.get(NEXT_CURSOR_HEADER) ?? null,
      }),
      providesTags: ['wallet'],
    }),
  }),
});

export const { useGetTransactionPageQuery } = historyApi;
