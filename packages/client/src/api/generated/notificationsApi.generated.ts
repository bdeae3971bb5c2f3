import { baseApi as api } from '../baseApi';
export const addTagTypes = ['notifications'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      getNotifications: build.query<GetNotificationsApiResponse, GetNotificationsApiArg>({
        query: () => ({ url: `/api/user/get-notifications` }),
        providesTags: ['notifications'],
      }),
      readNotification: build.mutation<ReadNotificationApiResponse, ReadNotificationApiArg>({
        query: (queryArg) => ({ url: `/api/user/read-notification/${queryArg.id}`, method: 'PUT' }),
        invalidatesTags: ['notifications'],
      }),
      userEvents: build.query<UserEventsApiResponse, UserEventsApiArg>({
        query: () => ({ url: `/api/user/events` }),
        providesTags: ['notifications'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type GetNotificationsApiResponse = /** status 200 The caller's notifications, newest first (at most 500). */ NotificationDto[];
export type GetNotificationsApiArg = void;
export type ReadNotificationApiResponse = /** status 200 The notification, now read. */ NotificationDto;
export type ReadNotificationApiArg = {
  id: string;
};
export type UserEventsApiResponse = unknown;
export type UserEventsApiArg = void;
export type NotificationDto = {
  _id: string;
  title: string;
  message: string;
  createdAt: string;
  /** false until the customer opens it */
  read: boolean;
  /** Present when the notification is about a transaction. */
  status?: 'pending' | 'approved' | 'rejected';
  /** The transaction (History row, `_id` of GET /user/get-transaction) the notification is about, when it is about one. */
  transactionId?: string;
};
export type ErrorResponseDto = {
  statusCode: number;
  error: string;
  /** Per-field validation messages */
  details?: {
    [key: string]: string[];
  };
};
export const { useGetNotificationsQuery, useLazyGetNotificationsQuery, useReadNotificationMutation, useUserEventsQuery, useLazyUserEventsQuery } =
  injectedRtkApi;
