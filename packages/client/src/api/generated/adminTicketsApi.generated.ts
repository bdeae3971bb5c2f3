import { baseApi as api } from '../baseApi';
export const addTagTypes = ['admin-tickets'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      getTickets: build.query<GetTicketsApiResponse, GetTicketsApiArg>({
        query: (queryArg) => ({
          url: `/api/admin/tickets`,
          params: {
            limit: queryArg.limit,
            cursor: queryArg.cursor,
            status: queryArg.status,
          },
        }),
        providesTags: ['admin-tickets'],
      }),
      getTicket: build.query<GetTicketApiResponse, GetTicketApiArg>({
        query: (queryArg) => ({ url: `/api/admin/tickets/${queryArg.id}` }),
        providesTags: ['admin-tickets'],
      }),
      replyTicket: build.mutation<ReplyTicketApiResponse, ReplyTicketApiArg>({
        query: (queryArg) => ({ url: `/api/admin/tickets/${queryArg.id}/reply`, method: 'POST', body: queryArg.replyTicketDto }),
        invalidatesTags: ['admin-tickets'],
      }),
      closeTicket: build.mutation<CloseTicketApiResponse, CloseTicketApiArg>({
        query: (queryArg) => ({ url: `/api/admin/tickets/${queryArg.id}/close`, method: 'POST' }),
        invalidatesTags: ['admin-tickets'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type GetTicketsApiResponse = /** status 200 Newest first; pass nextCursor as cursor for the next page. */ TicketPageDto;
export type GetTicketsApiArg = {
  /** Page size, 1 to 100 */
  limit?: number;
  /** The nextCursor of the previous page. */
  cursor?: string;
  status?: 'open' | 'closed';
};
export type GetTicketApiResponse = /** status 200  */ TicketDetailDto;
export type GetTicketApiArg = {
  id: string;
};
export type ReplyTicketApiResponse =
  /** status 200 Mailed to the ticket's email and, when linked to a customer, sent as a notification. 409 when closed. */ TicketDetailDto;
export type ReplyTicketApiArg = {
  id: string;
  replyTicketDto: ReplyTicketDto;
};
export type CloseTicketApiResponse = /** status 200 409 when already closed. */ TicketDetailDto;
export type CloseTicketApiArg = {
  id: string;
};
export type TicketSummaryDto = {
  _id: string;
  subject: string;
  email: string;
  /** The customer account when sent signed in. */
  userId: string | null;
  status: 'open' | 'closed';
  createdAt: string;
  /** URL path of the image (/images/<name>) or null. */
  image: string | null;
  replies: number;
};
export type TicketPageDto = {
  items: TicketSummaryDto[];
  nextCursor: string | null;
};
export type ErrorResponseDto = {
  statusCode: number;
  error: string;
  /** Per-field validation messages */
  details?: {
    [key: string]: string[];
  };
};
export type TicketReplyDto = {
  _id: string;
  message: string;
  adminId: string | null;
  author: string | null;
  createdAt: string;
};
export type TicketDetailDto = {
  _id: string;
  subject: string;
  note: string;
  email: string;
  userId: string | null;
  /** The customer's name when linked to an account. */
  userName: string | null;
  status: 'open' | 'closed';
  /** URL path of the image (/images/<name>) or null. */
  image: string | null;
  createdAt: string;
  closedAt: string | null;
  replies: TicketReplyDto[];
};
export type ReplyTicketDto = {
  message: string;
};
export const { useGetTicketsQuery, useLazyGetTicketsQuery, useGetTicketQuery, useLazyGetTicketQuery, useReplyTicketMutation, useCloseTicketMutation } =
  injectedRtkApi;
