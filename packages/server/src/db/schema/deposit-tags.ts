import { sql } from 'drizzle-orm';
import { bigint, check, foreignKey, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * A customer's destination tag (xrp) or memo (stellar) on the network's shared deposit address: allocated once per
 * customer and network, unique per network (an admin finds the customer of a deposit by it).
 */
export const depositTags = pgTable(
  'deposit_tags',
  {
    userId: uuid('user_id').notNull(),
    network: text('network').notNull(),
    tag: bigint('tag', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'deposit_tags_pkey', columns: [t.userId, t.network] }),
    uniqueIndex('deposit_tags_network_tag_key').on(t.network, t.tag),
    check('deposit_tags_network_check', sql`${t.network} in ('xrp', 'stellar')`),
    check('deposit_tags_tag_check', sql`${t.tag} between 0 and 4294967295`),
    // Named as migration 0017 made it (inline REFERENCES): the snapshot describes the database as it is.
    foreignKey({ name: 'deposit_tags_user_id_fkey', columns: [t.userId], foreignColumns: [users.id] }),
  ],
);
