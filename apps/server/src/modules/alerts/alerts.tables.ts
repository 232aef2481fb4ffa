import { bigint, boolean, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables.js';

/**
 * Which alerts an operator wants (docs/operator-console.md, "Alerts"). No row: every alert is on, so
 * a new operator hears about trouble without having to ask.
 */
export const alertPreferences = pgTable('alert_preferences', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id),
  withdrawalRequested: boolean('withdrawal_requested').notNull().default(true),
  syncFailing: boolean('sync_failing').notNull().default(true),
  ledgerBroken: boolean('ledger_broken').notNull().default(true),
  clockSkew: boolean('clock_skew').notNull().default(true),
  dailySummary: boolean('daily_summary').notNull().default(true),
  payoutWalletShort: boolean('payout_wallet_short').notNull().default(true),
  payoutStuck: boolean('payout_stuck').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * Alerts that must go out once per occasion however many instances or restarts ask: the daily
 * summary and the daily ledger check, keyed 'summary:<day>' / 'ledger:<day>'. The first insert wins.
 */
export const alertsSent = pgTable('alerts_sent', {
  key: text('key').primaryKey(),
  sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
});

export type AlertPreferencesRow = typeof alertPreferences.$inferSelect;
