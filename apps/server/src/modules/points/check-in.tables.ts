import { bigint, date, integer, pgTable, primaryKey, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables.js';

/**
 * One row per member and UTC day: the primary key is what makes "one check-in per day" hold when two
 * requests race, on one instance or several.
 */
export const checkIns = pgTable(
  'check_ins',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    day: date('day', { mode: 'string' }).notNull(),
    points: integer('points').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.day] })],
);
