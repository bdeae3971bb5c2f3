import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Double-entry ledger. Every account holds one token. Customer accounts belong to a user;
 * platform accounts (deposits, withdrawals in flight, settled withdrawals, swap pool, adjustments)
 * are the other side of every movement. Balances are the running sum of the account's lines,
 * updated in the same transaction as the lines.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: ['customer', 'platform'] }).notNull(),
    userId: uuid('user_id').references(() => users.id),
    platformCode: text('platform_code'),
    token: text('token').notNull(),
    balance: numeric('balance', { precision: 38, scale: 18 }).notNull().default('0'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ledger_accounts_customer_key')
      .on(t.userId, t.token)
      .where(sql`${t.kind} = 'customer'`),
    uniqueIndex('ledger_accounts_platform_key')
      .on(t.platformCode, t.token)
      .where(sql`${t.kind} = 'platform'`),
    check(
      'ledger_accounts_owner_check',
      sql`(${t.kind} = 'customer' and ${t.userId} is not null and ${t.platformCode} is null) or (${t.kind} = 'platform' and ${t.userId} is null and ${t.platformCode} is not null)`,
    ),
    check('ledger_accounts_customer_nonnegative', sql`${t.kind} <> 'customer' or ${t.balance} >= 0`),
    /** The house position of a token sums its platform accounts (drizzle/0050_fees.sql, cp_house_position). */
    index('ledger_accounts_platform_token_idx')
      .on(t.token)
      .where(sql`${t.kind} = 'platform'`),
  ],
);

export const journalEntries = pgTable(
  'journal_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    transactionId: uuid('transaction_id'),
    reason: text('reason'),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('journal_entries_transaction_idx').on(t.transactionId)],
);

/** Insert-only. Lines of one entry sum to zero per token. */
export const journalLines = pgTable(
  'journal_lines',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    entryId: uuid('entry_id')
      .notNull()
      .references(() => journalEntries.id),
    accountId: uuid('account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    token: text('token').notNull(),
    amount: numeric('amount', { precision: 38, scale: 18 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('journal_lines_entry_idx').on(t.entryId),
    index('journal_lines_account_idx').on(t.accountId),
    check('journal_lines_amount_nonzero', sql`${t.amount} <> 0`),
  ],
);

/** What the customer sees in history: deposits, withdrawals (sends), swaps and admin adjustments. */
export const transactions = pgTable(
  'transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Insertion order: history is listed newest first by this, and the keyset cursor is its value. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    type: text('type', { enum: ['deposit', 'withdrawal', 'swap', 'adjustment'] }).notNull(),
    token: text('token').notNull(),
    network: text('network'),
    address: text('address'),
    /** Token quantity moved (positive). */
    coinAmount: numeric('coin_amount', { precision: 38, scale: 18 }).notNull(),
    /** USD value at the time of the transaction. */
    usdAmount: numeric('usd_amount', { precision: 38, scale: 8 }).notNull(),
    price: numeric('price', { precision: 38, scale: 18 }),
    status: text('status', { enum: ['pending', 'approved', 'rejected'] }).notNull(),
    /** in: the customer receives `coinAmount` of `token`; out: the customer gives it (withdrawals, debit adjustments, swaps' from side). */
    direction: text('direction', { enum: ['in', 'out'] }).notNull(),
    /** Adjustment reason, swap details, and the like. */
    note: text('note'),
    details: jsonb('details').$type<Record<string, unknown>>(),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    voidedBy: uuid('voided_by'),
  },
  (t) => [
    uniqueIndex('transactions_seq_key').on(t.seq),
    index('transactions_user_seq_idx').on(t.userId, t.seq),
    // The verification limits' sums over a customer's last 24 hours and 30 days (cp_verification_usage, drizzle/0055).
    index('transactions_user_created_idx').on(t.userId, t.createdAt),
    // The admin list's filters, newest first: each walks only its own rows in seq order (the list hides voided rows).
    index('transactions_status_seq_idx')
      .on(t.status, t.seq)
      .where(sql`${t.voidedAt} is null`),
    index('transactions_type_seq_idx')
      .on(t.type, t.seq)
      .where(sql`${t.voidedAt} is null`),
    index('transactions_token_seq_idx')
      .on(t.token, t.seq)
      .where(sql`${t.voidedAt} is null`),
    // All three filters together, or type and status: a rare combination is found without walking its columns' rows.
    index('transactions_type_status_token_seq_idx')
      .on(t.type, t.status, t.token, t.seq)
      .where(sql`${t.voidedAt} is null`),
    // Token and status without type: a combination matching almost nothing would otherwise walk all of the token's rows.
    index('transactions_token_status_seq_idx')
      .on(t.token, t.status, t.seq)
      .where(sql`${t.voidedAt} is null`),
    // The admin search's walk down seq testing each row's customer, from the index alone (no heap page per row).
    index('transactions_seq_user_idx')
      .on(t.seq, t.userId)
      .where(sql`${t.voidedAt} is null`),
    // Withdrawals not on the chain yet (pending, or approved without a txHash): the small set the dashboard's counts and
    // the Transactions "waiting" filters walk (WithdrawalQueues.open() is this predicate, written the same way).
    index('transactions_open_withdrawals_idx')
      .on(t.seq)
      .where(
        sql`${t.type} = 'withdrawal' and ${t.voidedAt} is null and (${t.status} = 'pending' or (${t.status} = 'approved' and not (${t.details} ? 'txHash')))`,
      ),
    check('transactions_coin_amount_positive', sql`${t.coinAmount} > 0`),
    check('transactions_type_check', sql`${t.type} in ('deposit', 'withdrawal', 'swap', 'adjustment')`),
    check('transactions_status_check', sql`${t.status} in ('pending', 'approved', 'rejected')`),
  ],
);

/** Idempotency-Key records, scoped per caller and route. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    state: text('state', { enum: ['in_flight', 'done'] }).notNull(),
    responseStatus: integer('response_status'),
    /** The exact bytes sent (text, not jsonb: a replay must not reorder keys). */
    responseBody: text('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorId: uuid('actor_id'),
    actorRole: text('actor_role'),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    requestId: text('request_id'),
    /** The API key that made the change (migration 0026); null: a person's session or the system. */
    apiKeyId: uuid('api_key_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt),
    index('audit_log_actor_idx').on(t.actorId),
    index('audit_log_target_idx').on(t.targetType, t.targetId),
  ],
);
