import { sql } from 'drizzle-orm';
import { bigint, check, foreignKey, index, integer, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { transactions } from './ledger';
import { users } from './users';

/**
 * A customer's own deposit address on a node-connected network, derived watch-only from the operator's account key at
 * `derivation_index` (…/0/index). Allocated once per customer and network, never reused: unique per network and
 * address, per network and output script, per key and index.
 */
export const depositAddresses = pgTable(
  'deposit_addresses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    network: text('network').notNull(),
    address: text('address').notNull(),
    /** UTXO: the scriptPubKey hex paying the address; EVM: the lowercase address. Outputs are matched on it. */
    matchKey: text('match_key').notNull(),
    derivationIndex: integer('derivation_index').notNull(),
    /** The fingerprint of the account key it was derived from. */
    keyFingerprint: text('key_fingerprint').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('deposit_addresses_network_address_key').on(t.network, t.address),
    uniqueIndex('deposit_addresses_network_match_key').on(t.network, t.matchKey),
    uniqueIndex('deposit_addresses_user_network_key').on(t.userId, t.network),
    uniqueIndex('deposit_addresses_derivation_key').on(t.network, t.keyFingerprint, t.derivationIndex),
    check('deposit_addresses_index_check', sql`${t.derivationIndex} >= 0`),
    // Named as migration 0009 made them (inline REFERENCES): the snapshot describes the database as it is.
    foreignKey({ name: 'deposit_addresses_user_id_fkey', columns: [t.userId], foreignColumns: [users.id] }),
  ],
);

/** The next derivation index per account key (`utxo:<network>:<fingerprint>` or `evm:<fingerprint>`: EVM networks share one). */
export const depositAddressCounters = pgTable('deposit_address_counters', {
  scope: text('scope').primaryKey(),
  nextIndex: integer('next_index').notNull().default(0),
});

/** Where a network's watcher is: the last block read (height and hash), and what it last saw of its node. */
export const chainCursors = pgTable('chain_cursors', {
  network: text('network').primaryKey(),
  height: bigint('height', { mode: 'number' }).notNull(),
  blockHash: text('block_hash').notNull(),
  nodeHeight: bigint('node_height', { mode: 'number' }),
  nodeBlockAt: timestamp('node_block_at', { withTimezone: true }),
  lastPollAt: timestamp('last_poll_at', { withTimezone: true }),
  lastError: text('last_error'),
  lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The blocks a watcher read (recent ones kept): a reorg is found by comparing these hashes with the node's. */
export const chainBlocks = pgTable(
  'chain_blocks',
  {
    network: text('network').notNull(),
    height: bigint('height', { mode: 'number' }).notNull(),
    blockHash: text('block_hash').notNull(),
    parentHash: text('parent_hash').notNull(),
    blockTime: timestamp('block_time', { withTimezone: true }),
  },
  (t) => [primaryKey({ name: 'chain_blocks_pkey', columns: [t.network, t.height] })],
);

export const CHAIN_DEPOSIT_STATES = ['seen', 'confirming', 'held', 'credited', 'dropped', 'below_minimum'] as const;
export type ChainDepositState = (typeof CHAIN_DEPOSIT_STATES)[number];
export const CHAIN_DEPOSIT_DROP_REASONS = ['orphaned', 'replaced', 'not_mined'] as const;
export type ChainDepositDropReason = (typeof CHAIN_DEPOSIT_DROP_REASONS)[number];

/**
 * A payment to a deposit address seen on chain, one per (network, txid, output or log index). seen (not in a block of
 * the best chain) → confirming (n of N) → credited (the ledger entry posted in the same transaction), or dropped;
 * below the token's minimum: recorded, never credited. `review`: a credited deposit whose block was orphaned.
 * held (migration 0063): confirmed but kept off the balance — `hold` says why (`limit`: above the customer's
 * verification level's deposit limit, released when the limit allows it or by an admin; `sanctions`: sent from a
 * sanctioned address, released only by an admin) — then credited when released.
 */
export const chainDeposits = pgTable(
  'chain_deposits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    network: text('network').notNull(),
    txid: text('txid').notNull(),
    outputIndex: integer('output_index').notNull(),
    userId: uuid('user_id').notNull(),
    token: text('token').notNull(),
    address: text('address').notNull(),
    /** Exact amount in the chain's base unit (satoshis, wei, token units). */
    amountBase: numeric('amount_base', { precision: 78, scale: 0 }).notNull(),
    amount: numeric('amount', { precision: 38, scale: 18 }).notNull(),
    blockHeight: bigint('block_height', { mode: 'number' }),
    blockHash: text('block_hash'),
    confirmations: integer('confirmations').notNull().default(0),
    requiredConfirmations: integer('required_confirmations').notNull(),
    state: text('state', { enum: CHAIN_DEPOSIT_STATES }).notNull(),
    review: text('review', { enum: ['orphaned_after_credit'] }),
    transactionId: uuid('transaction_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    creditedAt: timestamp('credited_at', { withTimezone: true }),
    /** The cursor height where its block was orphaned before credit (back to seen); dropped if not mined again. */
    orphanedAtHeight: bigint('orphaned_at_height', { mode: 'number' }),
    /** The cursor height when it was first seen waiting in the mempool (the not-mined window counts from it). */
    seenAtHeight: bigint('seen_at_height', { mode: 'number' }),
    /**
     * Why the watcher dropped it (state dropped): orphaned (its block left the chain, not mined again), replaced (the
     * node no longer has it: replaced or conflicted before it confirmed), not_mined (not mined within the window).
     */
    dropReason: text('drop_reason', { enum: CHAIN_DEPOSIT_DROP_REASONS }),
    /** An admin's decision on a `review` (see drizzle/0017_deposit_review.sql). */
    reviewResolution: text('review_resolution', { enum: ['taken_back', 'kept'] }),
    reviewReason: text('review_reason'),
    reviewedBy: uuid('reviewed_by'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    /** Why a confirmed deposit is held off the balance (state `held`, and kept once released). */
    hold: text('hold', { enum: ['limit', 'sanctions'] }),
    heldAt: timestamp('held_at', { withTimezone: true }),
    /** When the hold was released (credited); `releasedBy`: the admin, null when the limit allowed it. */
    releasedAt: timestamp('released_at', { withTimezone: true }),
    releasedBy: uuid('released_by'),
  },
  (t) => [
    uniqueIndex('chain_deposits_output_key').on(t.network, t.txid, t.outputIndex),
    index('chain_deposits_open_idx')
      .on(t.network, t.state)
      .where(sql`${t.state} in ('seen', 'confirming')`),
    index('chain_deposits_block_idx').on(t.network, t.blockHeight),
    index('chain_deposits_user_idx').on(t.userId, t.createdAt),
    check('chain_deposits_state_check', sql`${t.state} in ('seen', 'confirming', 'held', 'credited', 'dropped', 'below_minimum')`),
    check('chain_deposits_hold_check', sql`${t.hold} is null or ${t.hold} in ('limit', 'sanctions')`),
    check('chain_deposits_held_check', sql`${t.state} <> 'held' or ${t.hold} is not null`),
    // The held deposits: the watcher's release pass and the back office's list walk only these.
    index('chain_deposits_held_idx')
      .on(t.network, t.heldAt)
      .where(sql`${t.state} = 'held'`),
    check('chain_deposits_review_check', sql`${t.review} is null or ${t.review} in ('orphaned_after_credit')`),
    check('chain_deposits_amount_check', sql`${t.amountBase} > 0`),
    check('chain_deposits_drop_reason_check', sql`${t.dropReason} is null or ${t.dropReason} in ('orphaned', 'replaced', 'not_mined')`),
    index('chain_deposits_review_idx')
      .on(t.createdAt)
      .where(sql`${t.review} is not null`),
    foreignKey({ name: 'chain_deposits_user_id_fkey', columns: [t.userId], foreignColumns: [users.id] }),
    foreignKey({ name: 'chain_deposits_transaction_id_fkey', columns: [t.transactionId], foreignColumns: [transactions.id] }),
    foreignKey({ name: 'chain_deposits_reviewed_by_fkey', columns: [t.reviewedBy], foreignColumns: [users.id] }),
    foreignKey({ name: 'chain_deposits_released_by_fkey', columns: [t.releasedBy], foreignColumns: [users.id] }),
  ],
);
