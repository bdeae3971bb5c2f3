import { sql } from 'drizzle-orm';
import { check, index, jsonb, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Four-eyes approvals: a money action at or above APPROVAL_THRESHOLD_USD is stored here instead of applied, and a
 * second admin applies it (or rejects it). It stays pending while its preconditions fail, so nobody loses sight of it.
 */
export const adminApprovals = pgTable(
  'admin_approvals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    action: text('action', { enum: ['update-balance', 'deposit', 'modify-transaction', 'delete-trx'] }).notNull(),
    status: text('status', { enum: ['pending', 'approved', 'rejected'] })
      .notNull()
      .default('pending'),
    requestedBy: uuid('requested_by')
      .notNull()
      .references(() => users.id),
    userId: uuid('user_id').references(() => users.id),
    transactionId: uuid('transaction_id'),
    /** The request body as sent; applied as is. */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    usdValue: numeric('usd_value', { precision: 38, scale: 8 }).notNull(),
    summary: text('summary').notNull(),
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedBy: uuid('decided_by').references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decisionReason: text('decision_reason'),
    lastError: text('last_error'),
  },
  (t) => [
    index('admin_approvals_status_created_idx').on(t.status, t.createdAt),
    check('admin_approvals_status_check', sql`${t.status} in ('pending', 'approved', 'rejected')`),
    check('admin_approvals_action_check', sql`${t.action} in ('update-balance', 'deposit', 'modify-transaction', 'delete-trx')`),
    check('admin_approvals_decided_check', sql`(${t.status} = 'pending') = (${t.decidedBy} is null)`),
  ],
);
