import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { supportedTokens } from './market';
import { users } from './users';

/**
 * Which network a supported token lives on, with the deposit address there (the network ids are the registry's in
 * `common/networks.ts`). A token on two networks has two rows; its first row (oldest) is its default network, and
 * `supported_tokens.address` mirrors that row's address for the code that reads one address per token.
 */
export const tokenNetworks = pgTable(
  'token_networks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenId: uuid('token_id')
      .notNull()
      .references(() => supportedTokens.id),
    network: text('network').notNull(),
    address: text('address'),
    /** EVM networks: the token's contract (ERC-20 Transfer logs are read for it); null for the native coin. */
    contractAddress: text('contract_address'),
    /** The contract's `decimals()`, read from the chain when the contract is set. */
    contractDecimals: integer('contract_decimals'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('token_networks_token_network_key').on(t.tokenId, t.network)],
);

/** A customer's saved withdrawal addresses. `usable_at`: when the hold of a newly saved address ends. */
export const addressBook = pgTable(
  'address_book',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    label: text('label').notNull(),
    token: text('token').notNull(),
    network: text('network').notNull(),
    address: text('address').notNull(),
    memo: text('memo'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    usableAt: timestamp('usable_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('address_book_entry_key').on(t.userId, t.token, t.network, t.address, sql`coalesce(${t.memo}, '')`),
    index('address_book_user_idx').on(t.userId, t.createdAt),
  ],
);

/** Per-customer withdrawal settings: allowlist mode sends only to saved addresses. No row = off. */
export const withdrawalSettings = pgTable('withdrawal_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id),
  allowlistEnabled: boolean('allowlist_enabled').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
