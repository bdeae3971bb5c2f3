import { sql } from 'drizzle-orm';
import { check, foreignKey, index, integer, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Frozen customers (migration 0058): one row while the account is frozen. Sign-in, reading and deposits go on; nothing
 * leaves it (`cp_require_unfrozen` in `cp_send` / `cp_swap`, and API keys with `trade` / `withdraw`). Unfreezing
 * deletes the row; the audit log keeps every freeze and unfreeze with its reason.
 */
export const accountFreezes = pgTable(
  'account_freezes',
  {
    userId: uuid('user_id').primaryKey(),
    reason: text('reason').notNull(),
    /** The admin who froze it; null when sanctions screening did (a deposit from a sanctioned address). */
    frozenBy: uuid('frozen_by'),
    frozenAt: timestamp('frozen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({ name: 'account_freezes_user_id_fkey', columns: [t.userId], foreignColumns: [users.id] }),
    foreignKey({ name: 'account_freezes_frozen_by_fkey', columns: [t.frozenBy], foreignColumns: [users.id] }),
  ],
);

/**
 * The sanctions list in force (migration 0058): one row per address, as normalised for its network (EVM and bech32
 * lowercase, base58 and the rest as written). Replaced whole by a load of SANCTIONS_LIST_FILE or an admin's upload.
 */
export const sanctionedAddresses = pgTable('sanctioned_addresses', { network: text('network').notNull(), address: text('address').notNull() }, (t) => [
  primaryKey({ name: 'sanctioned_addresses_pkey', columns: [t.network, t.address] }),
]);

/** Where the list in force came from (one row): every instance reads the same list from the database. */
export const sanctionsListState = pgTable(
  'sanctions_list_state',
  {
    id: integer('id').primaryKey().default(1),
    source: text('source', { enum: ['file', 'upload'] }).notNull(),
    sha256: text('sha256').notNull(),
    entries: integer('entries').notNull(),
    loadedAt: timestamp('loaded_at', { withTimezone: true }).notNull().defaultNow(),
    loadedBy: uuid('loaded_by'),
    /** The SHA-256 of SANCTIONS_LIST_FILE when it was last read: the file is loaded again only when it changes. */
    fileSha256: text('file_sha256'),
  },
  (t) => [
    check('sanctions_list_state_single_row_check', sql`${t.id} = 1`),
    check('sanctions_list_state_source_check', sql`${t.source} in ('file', 'upload')`),
    foreignKey({ name: 'sanctions_list_state_loaded_by_fkey', columns: [t.loadedBy], foreignColumns: [users.id] }),
  ],
);

/**
 * What screening caught, for the operator: a send or an address-book entry refused, or a deposit from a sanctioned
 * address (held, the account frozen: see drizzle/0063_deposit_holds.sql). Kept; never deleted.
 */
export const sanctionsHits = pgTable(
  'sanctions_hits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    kind: text('kind', { enum: ['send', 'address-book', 'deposit'] }).notNull(),
    network: text('network').notNull(),
    address: text('address').notNull(),
    token: text('token'),
    amount: numeric('amount', { precision: 38, scale: 18 }),
    txid: text('txid'),
    chainDepositId: uuid('chain_deposit_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('sanctions_hits_kind_check', sql`${t.kind} in ('send', 'address-book', 'deposit')`),
    foreignKey({ name: 'sanctions_hits_user_id_fkey', columns: [t.userId], foreignColumns: [users.id] }),
    index('sanctions_hits_created_idx').on(t.createdAt),
    uniqueIndex('sanctions_hits_deposit_key').on(t.chainDepositId, t.address),
  ],
);
