import { index, numeric, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { coins } from './market';

/**
 * Price history for charts: one row per coin and time. Appended by the market refresh job and by manual price
 * changes (custom tokens), backfilled from the provider on first demand; thinned with age (5-minute points for a
 * day, hourly for a month, daily beyond).
 */
export const pricePoints = pgTable(
  'price_points',
  {
    coinId: text('coin_id')
      .notNull()
      .references(() => coins.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull(),
    price: numeric('price', { precision: 38, scale: 18 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.coinId, t.at] }), index('price_points_at_idx').on(t.at)],
);
