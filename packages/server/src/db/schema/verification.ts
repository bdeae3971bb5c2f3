import { sql } from 'drizzle-orm';
import { boolean, check, customType, foreignKey, index, integer, numeric, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/** bytea as a Node Buffer (node-postgres returns Buffer, PGlite a Uint8Array: both are normalised to Buffer). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

export const SUBMISSION_STATUSES = ['in_review', 'approved', 'rejected'] as const;
export const DOCUMENT_KINDS = ['id_front', 'id_back', 'selfie', 'proof_of_address'] as const;

/**
 * A customer's request for a verification level (issue 35): level 1 with their personal details (sealed with
 * ENCRYPTION_KEY: legal name, date of birth, address, country, document type) and identity documents, level 2 with a
 * proof of address. One in review per customer at a time; decided by an admin with a reason when rejected.
 */
export const verificationSubmissions = pgTable(
  'verification_submissions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    level: smallint('level').notNull(),
    status: text('status', { enum: SUBMISSION_STATUSES }).notNull().default('in_review'),
    /** AES-256-GCM (SecretBox) of the personal details' JSON, the submission's id as context; null for a level-2 request. */
    detailsSealed: text('details_sealed'),
    assignedTo: uuid('assigned_to'),
    decidedBy: uuid('decided_by'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('verification_submissions_status_created_idx').on(t.status, t.createdAt),
    index('verification_submissions_user_created_idx').on(t.userId, t.createdAt),
    uniqueIndex('verification_submissions_one_in_review_key')
      .on(t.userId)
      .where(sql`${t.status} = 'in_review'`),
    check('verification_submissions_status_check', sql`${t.status} in ('in_review', 'approved', 'rejected')`),
    check('verification_submissions_level_check', sql`${t.level} in (1, 2)`),
  ],
);

/**
 * An uploaded verification document, encrypted (AES-256-GCM: iv, tag, ciphertext in `sealed`). Uploaded before the
 * submission (one draft per kind, replaced by a new upload), attached to it when the customer submits.
 */
export const verificationDocuments = pgTable(
  'verification_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    submissionId: uuid('submission_id'),
    kind: text('kind', { enum: DOCUMENT_KINDS }).notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sealed: bytea('sealed').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Named: the name drizzle would make is past PostgreSQL's 63 characters.
    foreignKey({ name: 'verification_documents_submission_id_fkey', columns: [t.submissionId], foreignColumns: [verificationSubmissions.id] }),
    index('verification_documents_submission_idx').on(t.submissionId),
    uniqueIndex('verification_documents_draft_key')
      .on(t.userId, t.kind)
      .where(sql`${t.submissionId} is null`),
    check('verification_documents_kind_check', sql`${t.kind} in ('id_front', 'id_back', 'selfie', 'proof_of_address')`),
  ],
);

/** What each level may move, in USD (null: no limit); seeded from configuration, changed in the back office. */
export const verificationLimits = pgTable(
  'verification_limits',
  {
    level: smallint('level').primaryKey(),
    depositDay: numeric('deposit_day'),
    depositMonth: numeric('deposit_month'),
    withdrawalDay: numeric('withdrawal_day'),
    withdrawalMonth: numeric('withdrawal_month'),
    withdrawalSingle: numeric('withdrawal_single'),
    swapDay: numeric('swap_day'),
    swapMonth: numeric('swap_month'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: uuid('updated_by'),
  },
  (t) => [check('verification_limits_level_check', sql`${t.level} in (0, 1, 2)`)],
);

/** One row: whether the money functions enforce the limits (KYC_LIMITS, written at every start). */
export const verificationSettings = pgTable(
  'verification_settings',
  {
    id: smallint('id').primaryKey().default(1),
    limitsEnabled: boolean('limits_enabled').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('verification_settings_one_row_check', sql`${t.id} = 1`)],
);
