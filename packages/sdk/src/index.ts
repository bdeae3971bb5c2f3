export { type CoinpurseClient, type CoinpurseClientOptions, createClient } from './client';
export { verifyWebhook, type WebhookEvent, type WebhookEventData, type WebhookEventType, type WebhookHeaders, WebhookVerificationError } from './webhooks';
export type { components, operations, paths } from '../generated/openapi.generated';
