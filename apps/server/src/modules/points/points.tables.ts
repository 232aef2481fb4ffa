import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables.js';

/**
 * The points and XME energy ledger: append-only (a trigger refuses UPDATE, DELETE and TRUNCATE), a
 * balance is the sum of a member's entries. The natural key (user, currency, reason, reference) makes a
 * grant idempotent: the same reward cannot be booked twice, whatever the interleaving of requests.
 */
export const pointsEntries = pgTable(
  'points_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    currency: text('currency', { enum: ['points', 'xme'] }).notNull(),
    amount: integer('amount').notNull(),
    reason: text('reason').notNull(),
    reference: text('reference').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /**
     * A trade task's entry: the cumulative volume (micro-USDT) the tier asked when it was claimed, which
     * its history label shows; the definition's threshold is operator-editable (migration 0045).
     */
    thresholdMicro: bigint('threshold_micro', { mode: 'bigint' }),
  },
  (table) => [
    uniqueIndex('points_entries_grant_unique').on(
      table.userId,
      table.currency,
      table.reason,
      table.reference,
    ),
    check('points_entries_currency_check', sql`${table.currency} in ('points', 'xme')`),
    check(
      'points_entries_threshold_check',
      sql`${table.thresholdMicro} is null or (${table.reason} = 'task' and ${table.thresholdMicro} > 0)`,
    ),
  ],
);
