import { customType, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

/** bytea as a Node Buffer (node-postgres returns Buffer, PGlite a Uint8Array: both are normalised to Buffer). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => value,
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Rate-limit counters shared by every instance: one row per throttler key (already hashed by the throttler), a
 * fixed window, and a block that outlives the window when the limit was exceeded. Purged by a job.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    windowEndsAt: timestamp('window_ends_at', { withTimezone: true }).notNull(),
    blockedUntil: timestamp('blocked_until', { withTimezone: true }),
  },
  (t) => [index('rate_limits_window_ends_idx').on(t.windowEndsAt)],
);

/** Uploaded images (ticket images, custom-token icons), served at /images/<name> by every instance. */
export const storedImages = pgTable('stored_images', {
  /** Server-made name: 32 hex characters and the extension of the detected type. */
  name: text('name').primaryKey(),
  contentType: text('content_type').notNull(),
  /** sha-256 of the bytes, hex; also the ETag. */
  sha256: text('sha256').notNull(),
  size: integer('size').notNull(),
  data: bytea('data').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Transactional mail outbox: a row is written in the same transaction as its cause and delivered by a job. A row is
 * marked sent only after SMTP (or the .eml outbox) accepted it: delivery is at least once.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    attempts: integer('attempts').notNull().default(0),
    /** Due time of the next attempt; also the lease of a claimed row (a crashed sender's row comes due again). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('mail_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`sent_at is null`),
    index('mail_outbox_sent_idx').on(t.sentAt),
  ],
);

/**
 * forgot-password requests, queued as they come (known or unknown email alike) and worked off by a job, so the
 * request path does the same work for every email.
 */
export const passwordResetRequests = pgTable('password_reset_requests', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull(),
  requestId: text('request_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
