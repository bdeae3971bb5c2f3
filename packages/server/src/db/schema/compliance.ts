import { foreignKey, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Frozen customers (migration 0060): one row while the account is frozen. Sign-in, reading and deposits go on; nothing
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
