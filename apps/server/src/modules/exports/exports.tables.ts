import { sql } from 'drizzle-orm';
import { bigint, check, date, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables.js';

/**
 * One-time download links of the console's CSV exports (docs/operator-console.md, "Exports"). Only
 * the SHA-256 of the random token is kept, so the table alone cannot download anything. In the
 * database rather than in memory: with several instances the download may reach another instance
 * than the one that made the link.
 */
export const exportLinks = pgTable(
  'export_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    operatorId: bigint('operator_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    kind: text('kind').notNull(),
    fromDay: date('from_day', { mode: 'string' }).notNull(),
    toDay: date('to_day', { mode: 'string' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set by the one download the link allows. */
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [
    index('export_links_expires_idx').on(table.expiresAt),
    check(
      'export_links_kind_check',
      sql`${table.kind} in ('withdrawals', 'members', 'ledger', 'rebates', 'audit')`,
    ),
    check('export_links_range_check', sql`${table.toDay} >= ${table.fromDay}`),
  ],
);

export type ExportLinkRow = typeof exportLinks.$inferSelect;
