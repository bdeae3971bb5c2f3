import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayNotEmpty, ArrayUnique, IsArray, IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { RequiredText, trim } from './text';

/** Webhook endpoints (under `/api`): customers at `user/webhooks`, administrators at `admin/webhooks`. */
export const WebhookRoutes = {
  userWebhooks: 'user/webhooks',
  userWebhook: 'user/webhooks/:id',
  userRotateSecret: 'user/webhooks/:id/rotate-secret',
  userDeliveries: 'user/webhooks/:id/deliveries',
  userResend: 'user/webhooks/:id/deliveries/:deliveryId/resend',
  userTest: 'user/webhooks/:id/test',
  adminWebhooks: 'admin/webhooks',
  adminWebhook: 'admin/webhooks/:id',
  adminRotateSecret: 'admin/webhooks/:id/rotate-secret',
  adminDeliveries: 'admin/webhooks/:id/deliveries',
  adminResend: 'admin/webhooks/:id/deliveries/:deliveryId/resend',
  adminTest: 'admin/webhooks/:id/test',
} as const;

/** The events of a customer's own account (an administrator's endpoint may take them for every customer). */
export const CUSTOMER_WEBHOOK_EVENTS = [
  'deposit.pending',
  'deposit.confirmed',
  'deposit.credited',
  'deposit.dropped',
  'withdrawal.created',
  'withdrawal.approved',
  'withdrawal.broadcast',
  'withdrawal.completed',
  'withdrawal.failed',
  'swap.completed',
  'balance.adjusted',
  'notification.created',
] as const;
/** The back office's own events, for administrators' endpoints only. */
export const ADMIN_ONLY_WEBHOOK_EVENTS = [
  'approval.requested',
  'approval.decided',
  'deposit.review_required',
  'payout.awaiting_funds',
  'payout.awaiting_cold_signature',
  'house.exposure',
  'house.recovered',
] as const;
export const WEBHOOK_EVENTS = [...CUSTOMER_WEBHOOK_EVENTS, ...ADMIN_ONLY_WEBHOOK_EVENTS] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];
/** The event `POST …/test` sends (never subscribed to; every endpoint gets it when asked). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** Endpoints one account may have at most. */
export const MAX_WEBHOOKS = 10;

const EVENTS_MESSAGE = 'Choose the events to receive.';
const URL_HELP =
  'The receiver: an https URL without user or password, reached from the server. Addresses of private, loopback and link-local networks are refused (unless the operator set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true, which also allows http).';

export class CreateWebhookDto {
  @ApiProperty({ example: 'https://example.com/coinpurse/webhooks', maxLength: 2000, description: URL_HELP })
  @RequiredText('Enter the URL of your receiver.', 2000, 'The URL must be at most 2000 characters.')
  url: string;

  @ApiProperty({ enum: WEBHOOK_EVENTS, isArray: true, example: ['deposit.credited', 'withdrawal.completed'] })
  @IsIn(WEBHOOK_EVENTS, { each: true, message: 'Unknown event type.' })
  @ArrayUnique({ message: 'Name each event once.' })
  @ArrayMaxSize(WEBHOOK_EVENTS.length, { message: EVENTS_MESSAGE })
  @ArrayNotEmpty({ message: EVENTS_MESSAGE })
  @IsArray({ message: EVENTS_MESSAGE })
  events: WebhookEventType[];

  @ApiPropertyOptional({ maxLength: 200, example: 'Accounting system' })
  @IsOptional()
  @MaxLength(200, { message: 'The description must be at most 200 characters.' })
  @IsString({ message: 'The description must be text.' })
  @Transform(trim)
  description?: string;
}

export class UpdateWebhookDto {
  @ApiPropertyOptional({ maxLength: 2000, description: URL_HELP })
  @IsOptional()
  @RequiredText('Enter the URL of your receiver.', 2000, 'The URL must be at most 2000 characters.')
  url?: string;

  @ApiPropertyOptional({ enum: WEBHOOK_EVENTS, isArray: true })
  @IsOptional()
  @IsIn(WEBHOOK_EVENTS, { each: true, message: 'Unknown event type.' })
  @ArrayUnique({ message: 'Name each event once.' })
  @ArrayMaxSize(WEBHOOK_EVENTS.length, { message: EVENTS_MESSAGE })
  @ArrayNotEmpty({ message: EVENTS_MESSAGE })
  @IsArray({ message: EVENTS_MESSAGE })
  events?: WebhookEventType[];

  @ApiPropertyOptional({ maxLength: 200, nullable: true })
  @IsOptional()
  @MaxLength(200, { message: 'The description must be at most 200 characters.' })
  @IsString({ message: 'The description must be text.' })
  @Transform(trim)
  description?: string;

  @ApiPropertyOptional({ description: 'false pauses deliveries (they wait); true resumes them, also after the endpoint was disabled by failures' })
  @IsOptional()
  @IsBoolean({ message: 'Enabled must be true or false.' })
  enabled?: boolean;
}

export class WebhookDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'https://example.com/coinpurse/webhooks' })
  url: string;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ enum: WEBHOOK_EVENTS, isArray: true })
  events: WebhookEventType[];

  @ApiProperty({ description: 'Deliveries go out while enabled; after the last retry of a delivery the endpoint is disabled' })
  enabled: boolean;

  @ApiProperty({ type: String, nullable: true, example: 'Disabled after 10 failed tries of event evt_…' })
  disabledReason: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  disabledAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'After a rotation: until when the previous secret signs too' })
  previousSecretUntil: string | null;

  @ApiProperty({ example: 0, description: 'Deliveries waiting to be sent (or retried)' })
  pending: number;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class CreatedWebhookDto extends WebhookDto {
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', description: 'The signing secret, shown this once (rotate it to get a new one)' })
  secret: string;
}

export class WebhookSecretDto {
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', description: 'The new signing secret, shown this once' })
  secret: string;

  @ApiProperty({ format: 'date-time', description: 'Until then each delivery carries a second signature made with the previous secret' })
  previousSecretUntil: string;
}

export class WebhookAttemptDto {
  @ApiProperty({ format: 'date-time' })
  attemptedAt: string;

  @ApiProperty({ type: Number, nullable: true, example: 500, description: "The receiver's HTTP status; null when there was no answer" })
  status: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'No answer within 10 s',
    description: 'Why there was no answer (timeout, refused connection, refused address)',
  })
  error: string | null;

  @ApiProperty({ type: String, nullable: true, description: "The start of the receiver's answer (plain text, at most 512 bytes; never interpreted)" })
  responseBody: string | null;

  @ApiProperty({ example: 84 })
  durationMs: number;
}

export class WebhookDeliveryDto {
  @ApiProperty({ example: '1207', description: 'The delivery (one event to this endpoint); its id for resend' })
  id: string;

  @ApiProperty({ example: 'evt_5d2c0f3e8b7a4c1d9e6f2a3b4c5d6e7f', description: 'The event id: `webhook-id` and the body `id`, the same on every try' })
  eventId: string;

  @ApiProperty({ example: 'deposit.credited' })
  eventType: string;

  @ApiProperty({ enum: ['pending', 'delivered', 'failed'] })
  state: 'pending' | 'delivered' | 'failed';

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  deliveredAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Pending: when the next try is due' })
  nextAttemptAt: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The JSON body sent (null until the first try)' })
  body: string | null;

  @ApiProperty({ type: [WebhookAttemptDto], description: 'Every try, oldest first' })
  attempts: WebhookAttemptDto[];
}
