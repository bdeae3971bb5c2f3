import { sql } from 'drizzle-orm';
import { check, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    /** lower(trim(email)): the identity used for sign-in and uniqueness. */
    emailNormalized: text('email_normalized').notNull(),
    passwordHash: text('password_hash').notNull(),
    country: text('country').notNull(),
    role: text('role', { enum: ['user', 'admin'] })
      .notNull()
      .default('user'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
    deactivatedBy: uuid('deactivated_by'),
    /** The verification level an admin approved (issue 35): 0 on sign-up, 1 identity, 2 address. */
    verificationLevel: smallint('verification_level').notNull().default(0),
    /** When an admin erased the closed account's personal data; the id stays as the ledger's pseudonym. */
    erasedAt: timestamp('erased_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('users_email_normalized_key').on(t.emailNormalized),
    check('users_role_check', sql`${t.role} in ('user', 'admin')`),
    check('users_verification_level_check', sql`${t.verificationLevel} in (0, 1, 2)`),
  ],
);

export const passwordResets = pgTable('password_resets', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id),
  /** sha256 of the random token; the token itself is only in the mail. */
  tokenHash: text('token_hash').notNull().unique(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
