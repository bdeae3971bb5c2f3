import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/** Webhook endpoints (migration 0027); the triggers there write their deliveries. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    ownerRole: text('owner_role', { enum: ['user', 'admin'] }).notNull(),
    url: text('url').notNull(),
    description: text('description'),
    events: text('events').array().notNull(),
    secretSealed: text('secret_sealed').notNull(),
    previousSecretSealed: text('previous_secret_sealed'),
    previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true }),
    enabled: boolean('enabled').notNull().default(true),
    disabledReason: text('disabled_reason'),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_endpoints_user_idx').on(t.userId, t.createdAt),
    // The triggers' lookup of the administrators' endpoints (every customer's events go to them).
    index('webhook_endpoints_admin_idx')
      .on(t.id)
      .where(sql`${t.enabled} and ${t.ownerRole} = 'admin'`),
    check('webhook_endpoints_owner_role_check', sql`${t.ownerRole} in ('user', 'admin')`),
    check('webhook_endpoints_events_check', sql`cardinality(${t.events}) > 0`),
  ],
);

/** The webhook outbox: one row per (event, endpoint), delivered in `id` order per endpoint. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id').notNull(),
    eventType: text('event_type').notNull(),
    sourceKind: text('source_kind').notNull(),
    source: jsonb('source').$type<Record<string, unknown>>().notNull(),
    body: text('body'),
    state: text('state', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    tries: integer('tries').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    leasedUntil: timestamp('leased_until', { withTimezone: true }),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    // The job's heads: per endpoint its oldest pending delivery.
    index('webhook_deliveries_pending_idx')
      .on(t.endpointId, t.id)
      .where(sql`${t.state} = 'pending'`),
    // The purge of finished deliveries.
    index('webhook_deliveries_done_idx')
      .on(t.updatedAt)
      .where(sql`${t.state} <> 'pending'`),
    check('webhook_deliveries_state_check', sql`${t.state} in ('pending', 'delivered', 'failed')`),
  ],
);

/** Every try of a delivery: the receiver's status (or the error) and the start of its answer. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: bigint('delivery_id', { mode: 'number' })
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
    status: integer('status'),
    error: text('error'),
    responseBody: text('response_body'),
    durationMs: integer('duration_ms').notNull(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.id)],
);
