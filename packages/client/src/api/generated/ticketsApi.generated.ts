import { baseApi as api } from '../baseApi';
export const addTagTypes = ['tickets'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      createTicket: build.mutation<CreateTicketApiResponse, CreateTicketApiArg>({
        query: (queryArg) => ({ url: `/api/user/create-ticket`, method: 'POST', body: queryArg.createTicketDto }),
        invalidatesTags: ['tickets'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type CreateTicketApiResponse =
  /** status 201 Signed in: linked to the account. The image (optional) must be PNG, JPEG, WebP or GIF by its bytes, ≤ 5 MB (413 above, 415 other types). */ TicketCreatedDto;
export type CreateTicketApiArg = {
  createTicketDto: CreateTicketDto;
};
export type TicketCreatedDto = {
  _id: string;
  message: string;
};
export type ErrorResponseDto = {
  statusCode: number;
  error: string;
  /** Per-field validation messages */
  details?: {
    [key: string]: string[];
  };
};
export type CreateTicketDto = {
  subject: string;
  /** The message. */
  note: string;
  email: string;
  /** Optional PNG, JPEG, WebP or GIF image, at most 5 MB. */
  image?: Blob;
};
export const { useCreateTicketMutation } = injectedRtkApi;
