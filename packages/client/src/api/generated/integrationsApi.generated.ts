import { baseApi as api } from '../baseApi';
export const addTagTypes = ['integrations'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      listApiKeys: build.query<ListApiKeysApiResponse, ListApiKeysApiArg>({
        query: () => ({ url: `/api/user/api-keys` }),
        providesTags: ['integrations'],
      }),
      createApiKey: build.mutation<CreateApiKeyApiResponse, CreateApiKeyApiArg>({
        query: (queryArg) => ({ url: `/api/user/api-keys`, method: 'POST', body: queryArg.createApiKeyDto }),
        invalidatesTags: ['integrations'],
      }),
      revokeApiKey: build.mutation<RevokeApiKeyApiResponse, RevokeApiKeyApiArg>({
        query: (queryArg) => ({ url: `/api/user/api-keys/${queryArg.id}`, method: 'DELETE' }),
        invalidatesTags: ['integrations'],
      }),
      listWebhooks: build.query<ListWebhooksApiResponse, ListWebhooksApiArg>({
        query: () => ({ url: `/api/user/webhooks` }),
        providesTags: ['integrations'],
      }),
      createWebhook: build.mutation<CreateWebhookApiResponse, CreateWebhookApiArg>({
        query: (queryArg) => ({ url: `/api/user/webhooks`, method: 'POST', body: queryArg.createWebhookDto }),
        invalidatesTags: ['integrations'],
      }),
      updateWebhook: build.mutation<UpdateWebhookApiResponse, UpdateWebhookApiArg>({
        query: (queryArg) => ({ url: `/api/user/webhooks/${queryArg.id}`, method: 'PATCH', body: queryArg.updateWebhookDto }),
        invalidatesTags: ['integrations'],
      }),
      deleteWebhook: build.mutation<DeleteWebhookApiResponse, DeleteWebhookApiArg>({
        query: (queryArg) => ({ url: `/api/user/webhooks/${queryArg.id}`, method: 'DELETE' }),
        invalidatesTags: ['integrations'],
      }),
      rotateWebhookSecret: build.mutation<RotateWebhookSecretApiResponse, RotateWebhookSecretApiArg>({
        query: (queryArg) => ({ url: `/api/user/webhooks/${queryArg.id}/rotate-secret`, method: 'POST' }),
        invalidatesTags: ['integrations'],
      }),
      listWebhookDeliveries: build.query<ListWebhookDeliveriesApiResponse, ListWebhookDeliveriesApiArg>({
        query: (queryArg) => ({
          url: `/api/user/webhooks/${queryArg.id}/deliveries`,
          params: {
            limit: queryArg.limit,
            cursor: queryArg.cursor,
          },
        }),
        providesTags: ['integrations'],
      }),
      resendWebhookDelivery: build.mutation<ResendWebhookDeliveryApiResponse, ResendWebhookDeliveryApiArg>({
        query: (queryArg) => ({ url: `/api/user/webhooks/${queryArg.id}/deliveries/${queryArg.deliveryId}/resend`, method: 'POST' }),
        invalidatesTags: ['integrations'],
      }),
      testWebhook: build.mutation<TestWebhookApiResponse, TestWebhookApiArg>({
        query: (queryArg) => ({ url: `/api/user/webhooks/${queryArg.id}/test`, method: 'POST' }),
        invalidatesTags: ['integrations'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type ListApiKeysApiResponse = /** status 200 The caller’s keys, newest first (revoked and expired ones included). */ ApiKeyDto[];
export type ListApiKeysApiArg = void;
export type CreateApiKeyApiResponse =
  /** status 201 The key, with `key` itself shown this once (only its hash is kept). `withdraw` (customers) and `operate` (administrators) need `code` when two-factor sign-in is on; `withdraw` needs the address allowlist on (409 otherwise) and mails the owner. */ CreatedApiKeyDto;
export type CreateApiKeyApiArg = {
  createApiKeyDto: CreateApiKeyDto;
};
export type RevokeApiKeyApiResponse = /** status 200 Revoked at once, on every instance: the next request with it answers 401. */ ApiKeyDto;
export type RevokeApiKeyApiArg = {
  id: string;
};
export type ListWebhooksApiResponse = /** status 200 The endpoints, newest first. */ WebhookDto[];
export type ListWebhooksApiArg = void;
export type CreateWebhookApiResponse =
  /** status 201 The endpoint with its signing secret `secret` (whsec_…), shown this once. Deliveries are signed to the Standard Webhooks specification; 400 for a URL that is not https or leads to a private, loopback or link-local address. */ CreatedWebhookDto;
export type CreateWebhookApiArg = {
  createWebhookDto: CreateWebhookDto;
};
export type UpdateWebhookApiResponse =
  /** status 200 The endpoint as changed. `enabled: true` resumes an endpoint disabled after failures: its waiting deliveries go out in order. */ WebhookDto;
export type UpdateWebhookApiArg = {
  id: string;
  updateWebhookDto: UpdateWebhookDto;
};
export type DeleteWebhookApiResponse = /** status 200 Deleted with its deliveries; nothing more is sent to it. */ OkResponseDto;
export type DeleteWebhookApiArg = {
  id: string;
};
export type RotateWebhookSecretApiResponse =
  /** status 200 The new secret, shown this once; the previous one signs too (a second signature) until `previousSecretUntil`. */ WebhookSecretDto;
export type RotateWebhookSecretApiArg = {
  id: string;
};
export type ListWebhookDeliveriesApiResponse =
  /** status 200 Each event sent (or to send) to this endpoint, newest first, with every try: its time, the HTTP status or the error, the start of the answer. */ WebhookDeliveryDto[];
export type ListWebhookDeliveriesApiArg = {
  id: string;
  /** Page size, 1 to 200 */
  limit?: number;
  /** Keyset cursor from the X-Next-Cursor response header */
  cursor?: string;
};
export type ResendWebhookDeliveryApiResponse =
  /** status 200 Queued again as a new round of tries: the same event id (`webhook-id`) and body. 409 while it is still waiting to be sent. */ WebhookDeliveryDto;
export type ResendWebhookDeliveryApiArg = {
  id: string;
  deliveryId: string;
};
export type TestWebhookApiResponse =
  /** status 200 A `webhook.test` event queued to this endpoint (delivered within a second or so; see its deliveries). */ WebhookDeliveryDto;
export type TestWebhookApiArg = {
  id: string;
};
export type ApiKeyDto = {
  id: string;
  name: string;
  /** The first 12 characters of the key: how logs and the audit log name it */
  prefix: string;
  scopes: ('read' | 'trade' | 'withdraw' | 'operate')[];
  /** Addresses or ranges the key may be used from (empty: any) */
  allowedIps: string[];
  expiresAt: string | null;
  createdAt: string;
  /** Last use (recorded at most once a minute per address) */
  lastUsedAt: string | null;
  /** The client address of the last use */
  lastUsedIp: string | null;
  revokedAt: string | null;
  status: 'active' | 'expired' | 'revoked';
};
export type ErrorResponseDto = {
  statusCode: number;
  error: string;
  /** Per-field validation messages */
  details?: {
    [key: string]: string[];
  };
};
export type CreatedApiKeyDto = {
  id: string;
  name: string;
  /** The first 12 characters of the key: how logs and the audit log name it */
  prefix: string;
  scopes: ('read' | 'trade' | 'withdraw' | 'operate')[];
  /** Addresses or ranges the key may be used from (empty: any) */
  allowedIps: string[];
  expiresAt: string | null;
  createdAt: string;
  /** Last use (recorded at most once a minute per address) */
  lastUsedAt: string | null;
  /** The client address of the last use */
  lastUsedIp: string | null;
  revokedAt: string | null;
  status: 'active' | 'expired' | 'revoked';
  /** The key itself, shown this once: only its hash is kept. Send it as `Authorization: Bearer <key>`. */
  key: string;
};
export type CreateApiKeyDto = {
  /** A name for people */
  name: string;
  /** Customers: `read`, `trade` (swaps), `withdraw` (sends; needs the address allowlist on and, with two-factor sign-in, `code`). Administrators: `read`, `operate` (back-office changes; never approving or rejecting a four-eyes request). */
  scopes: ('read' | 'trade' | 'withdraw' | 'operate')[];
  /** Client addresses (IPv4 or IPv6) or CIDR ranges the key may be used from, at most 50; empty or absent: any address. The client address is the one TRUST_PROXY makes it; an IPv4-mapped IPv6 address matches its IPv4 form. */
  allowedIps?: string[];
  /** When the key stops working (any future time); absent: never */
  expiresAt?: string;
  /** TOTP code or recovery code; required when two-factor sign-in is on. */
  code?: string;
};
export type WebhookDto = {
  id: string;
  url: string;
  description: string | null;
  events: (
    | 'deposit.pending'
    | 'deposit.confirmed'
    | 'deposit.credited'
    | 'deposit.dropped'
    | 'withdrawal.created'
    | 'withdrawal.approved'
    | 'withdrawal.broadcast'
    | 'withdrawal.completed'
    | 'withdrawal.failed'
    | 'swap.completed'
    | 'balance.adjusted'
    | 'notification.created'
    | 'approval.requested'
    | 'approval.decided'
    | 'deposit.review_required'
    | 'payout.awaiting_funds'
    | 'payout.awaiting_cold_signature'
    | 'house.exposure'
    | 'house.recovered'
  )[];
  /** Deliveries go out while enabled; after the last retry of a delivery the endpoint is disabled */
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: string | null;
  /** After a rotation: until when the previous secret signs too */
  previousSecretUntil: string | null;
  /** Deliveries waiting to be sent (or retried) */
  pending: number;
  createdAt: string;
};
export type CreatedWebhookDto = {
  id: string;
  url: string;
  description: string | null;
  events: (
    | 'deposit.pending'
    | 'deposit.confirmed'
    | 'deposit.credited'
    | 'deposit.dropped'
    | 'withdrawal.created'
    | 'withdrawal.approved'
    | 'withdrawal.broadcast'
    | 'withdrawal.completed'
    | 'withdrawal.failed'
    | 'swap.completed'
    | 'balance.adjusted'
    | 'notification.created'
    | 'approval.requested'
    | 'approval.decided'
    | 'deposit.review_required'
    | 'payout.awaiting_funds'
    | 'payout.awaiting_cold_signature'
    | 'house.exposure'
    | 'house.recovered'
  )[];
  /** Deliveries go out while enabled; after the last retry of a delivery the endpoint is disabled */
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: string | null;
  /** After a rotation: until when the previous secret signs too */
  previousSecretUntil: string | null;
  /** Deliveries waiting to be sent (or retried) */
  pending: number;
  createdAt: string;
  /** The signing secret, shown this once (rotate it to get a new one) */
  secret: string;
};
export type CreateWebhookDto = {
  /** The receiver: an https URL without user or password, reached from the server. Addresses of private, loopback and link-local networks are refused (unless the operator set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true, which also allows http). */
  url: string;
  events: (
    | 'deposit.pending'
    | 'deposit.confirmed'
    | 'deposit.credited'
    | 'deposit.dropped'
    | 'withdrawal.created'
    | 'withdrawal.approved'
    | 'withdrawal.broadcast'
    | 'withdrawal.completed'
    | 'withdrawal.failed'
    | 'swap.completed'
    | 'balance.adjusted'
    | 'notification.created'
    | 'approval.requested'
    | 'approval.decided'
    | 'deposit.review_required'
    | 'payout.awaiting_funds'
    | 'payout.awaiting_cold_signature'
    | 'house.exposure'
    | 'house.recovered'
  )[];
  description?: string;
};
export type UpdateWebhookDto = {
  /** The receiver: an https URL without user or password, reached from the server. Addresses of private, loopback and link-local networks are refused (unless the operator set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true, which also allows http). */
  url?: string;
  events?: (
    | 'deposit.pending'
    | 'deposit.confirmed'
    | 'deposit.credited'
    | 'deposit.dropped'
    | 'withdrawal.created'
    | 'withdrawal.approved'
    | 'withdrawal.broadcast'
    | 'withdrawal.completed'
    | 'withdrawal.failed'
    | 'swap.completed'
    | 'balance.adjusted'
    | 'notification.created'
    | 'approval.requested'
    | 'approval.decided'
    | 'deposit.review_required'
    | 'payout.awaiting_funds'
    | 'payout.awaiting_cold_signature'
    | 'house.exposure'
    | 'house.recovered'
  )[];
  description?: string | null;
  /** false pauses deliveries (they wait); true resumes them, also after the endpoint was disabled by failures */
  enabled?: boolean;
};
export type OkResponseDto = {
  ok: boolean;
  message?: string;
};
export type WebhookSecretDto = {
  /** The new signing secret, shown this once */
  secret: string;
  /** Until then each delivery carries a second signature made with the previous secret */
  previousSecretUntil: string;
};
export type WebhookAttemptDto = {
  attemptedAt: string;
  /** The receiver's HTTP status; null when there was no answer */
  status: number | null;
  /** Why there was no answer (timeout, refused connection, refused address) */
  error: string | null;
  /** The start of the receiver's answer (plain text, at most 512 bytes; never interpreted) */
  responseBody: string | null;
  durationMs: number;
};
export type WebhookDeliveryDto = {
  /** The delivery (one event to this endpoint); its id for resend */
  id: string;
  /** The event id: `webhook-id` and the body `id`, the same on every try */
  eventId: string;
  eventType: string;
  state: 'pending' | 'delivered' | 'failed';
  createdAt: string;
  deliveredAt: string | null;
  /** Pending: when the next try is due */
  nextAttemptAt: string | null;
  /** The JSON body sent (null until the first try) */
  body: string | null;
  /** Every try, oldest first */
  attempts: WebhookAttemptDto[];
};
export const {
  useListApiKeysQuery,
  useLazyListApiKeysQuery,
  useCreateApiKeyMutation,
  useRevokeApiKeyMutation,
  useListWebhooksQuery,
  useLazyListWebhooksQuery,
  useCreateWebhookMutation,
  useUpdateWebhookMutation,
  useDeleteWebhookMutation,
  useRotateWebhookSecretMutation,
  useListWebhookDeliveriesQuery,
  useLazyListWebhookDeliveriesQuery,
  useResendWebhookDeliveryMutation,
  useTestWebhookMutation,
} = injectedRtkApi;
