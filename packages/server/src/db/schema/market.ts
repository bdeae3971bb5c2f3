import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { boolean, index, integer, jsonb, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/** Market coins: refreshed from CoinGecko, seeded from the bundled snapshot, or priced by hand (custom tokens). */
export const coins = pgTable(
  'coins',
  {
    id: text('id').primaryKey(),
    symbol: text('symbol').notNull(),
    name: text('name').notNull(),
    image: text('image').notNull().default(''),
    currentPrice: numeric('current_price', { precision: 38, scale: 18 }).notNull(),
    marketCap: numeric('market_cap', { precision: 38, scale: 2 }),
    marketCapRank: integer('market_cap_rank'),
    low24h: numeric('low_24h', { precision: 38, scale: 18 }),
    high24h: numeric('high_24h', { precision: 38, scale: 18 }),
    priceChangePercentage24h: numeric('price_change_percentage_24h', { precision: 20, scale: 8 }),
    /** 7-day hourly prices, as CoinGecko's sparkline_in_7d.price. */
    sparkline7d: jsonb('sparkline_7d').$type<number[]>().notNull().default([]),
    lastUpdated: timestamp('last_updated', { withTimezone: true }).notNull(),
    source: text('source', { enum: ['live', 'snapshot', 'manual'] }).notNull(),
    /** Custom tokens: price set by an admin; the refresh job never overwrites these. */
    manualPrice: boolean('manual_price').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * When `current_price` last changed, by the database's clock (set by a trigger, migration 0003): a money statement
     * accepts a quote of the price just replaced only for a moment after the change (see WalletTokensRepository.priceGuard).
     */
    priceChangedAt: timestamp('price_changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('coins_market_cap_rank_idx').on(t.marketCapRank)],
);

/** Tokens customers can hold, with the deposit address set by an admin. `kind` custom = an admin-made coin. */
export const supportedTokens = pgTable(
  'supported_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    coinId: text('coin_id')
      .notNull()
      .references(() => coins.id),
    kind: text('kind', { enum: ['market', 'custom'] })
      .notNull()
      .default('market'),
    address: text('address'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Removed tokens stay for the ledger and audit; only one live row per coin. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('supported_tokens_live_coin_key').on(t.coinId).where(sqlIsNull(t.deletedAt))],
);

/** Small key/value state for jobs (market refresh status, back-off). */
export const appState = pgTable('app_state', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

function sqlIsNull(column: PgColumn): SQL {
  return sql`${column} is null`;
}
