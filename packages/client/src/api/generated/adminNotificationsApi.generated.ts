import { baseApi as api } from '../baseApi';
export const addTagTypes = ['admin-notifications'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      sendNotification: build.mutation<SendNotificationApiResponse, SendNotificationApiArg>({
        query: (queryArg) => ({ url: `/api/admin/send-notifiction/${queryArg.userId}`, method: 'POST', body: queryArg.sendNotificationDto }),
        invalidatesTags: ['admin-notifications'],
      }),
      broadcastNotification: build.mutation<BroadcastNotificationApiResponse, BroadcastNotificationApiArg>({
        query: (queryArg) => ({ url: `/api/admin/broadcast`, method: 'POST', body: queryArg.broadcastNotificationDto }),
        invalidatesTags: ['admin-notifications'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type SendNotificationApiResponse = /** status 200  */ NotificationSentDto;
export type SendNotificationApiArg = {
  userId: string;
  sendNotificationDto: SendNotificationDto;
};
export type BroadcastNotificationApiResponse = /** status 200 One notification to every active customer; `sent` is how many. */ NotificationSentDto;
export type BroadcastNotificationApiArg = {
  broadcastNotificationDto: BroadcastNotificationDto;
};
export type NotificationSentDto = {
  ok: boolean;
  message: string;
  /** How many customers got it (1 for a single notification). */
  sent: number;
};
export type ErrorResponseDto = {
  statusCode: number;
  error: string;
  /** Per-field validation messages */
  details?: {
    [key: string]: string[];
  };
};
export type SendNotificationDto = {
  title: string;
  message: string;
  /** Sent by the spec's client; must match the path when present. */
  userId?: string;
};
export type BroadcastNotificationDto = {
  title: string;
  message: string;
};
export const { useSendNotificationMutation, useBroadcastNotificationMutation } = injectedRtkApi;
