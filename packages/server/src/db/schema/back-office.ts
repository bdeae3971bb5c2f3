import { sql } from 'drizzle-orm';
import { bigserial, check, index, jsonb, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Four-eyes approvals: a money action at or above APPROVAL_THRESHOLD_USD is stored here instead of applied, and a
 * second admin applies it (or rejects it). It stays pending while its preconditions fail, so nobody loses sight of it.
 */
export const adminApprovals = pgTable(
  'admin_approvals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    action: text('action', {
      enum: [
        'update-balance',
        'deposit',
        'modify-transaction',
        'delete-trx',
        'create-admin',
        'reverse-chain-deposit',
        'change-fees',
        'update-verification-limits',
        'freeze-account',
        'unfreeze-account',
        'release-deposit-hold',
      ],
    }).notNull(),
    status: text('status', { enum: ['pending', 'approved', 'rejected'] })
      .notNull()
      .default('pending'),
    requestedBy: uuid('requested_by')
      .notNull()
      .references(() => users.id),
    userId: uuid('user_id').references(() => users.id),
    transactionId: uuid('transaction_id'),
    /** The request body as sent (what the requester asked for, for people). */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /**
     * What the approval applies, exactly: the ledger lines and the basis they were decided from (see BoundEffect).
     * Null only on requests made before effects were bound (they are applied as requested, under the same guards).
     */
    effect: jsonb('effect').$type<Record<string, unknown>>(),
    /** Why the action needed a second admin: threshold, velocity, admin-change (see GateReason). */
    gateReasons: jsonb('gate_reasons')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
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
    check(
      'admin_approvals_action_check',
      sql`${t.action} in ('update-balance', 'deposit', 'modify-transaction', 'delete-trx', 'create-admin', 'reverse-chain-deposit', 'change-fees', 'update-verification-limits', 'freeze-account', 'unfreeze-account', 'release-deposit-hold')`,
    ),
    check('admin_approvals_decided_check', sql`(${t.status} = 'pending') = (${t.decidedBy} is null)`),
  ],
);

/**
 * Admin money actions applied without a second admin, with their USD value: the four-eyes velocity rule sums them per
 * admin and per customer over APPROVAL_WINDOW_HOURS (an action that takes either sum to the threshold is held).
 */
export const adminDirectActions = pgTable(
  'admin_direct_actions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    adminId: uuid('admin_id')
      .notNull()
      .references(() => users.id),
    userId: uuid('user_id').references(() => users.id),
    usdValue: numeric('usd_value', { precision: 38, scale: 8 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('admin_direct_actions_admin_idx').on(t.adminId, t.createdAt), index('admin_direct_actions_user_idx').on(t.userId, t.createdAt)],
);
