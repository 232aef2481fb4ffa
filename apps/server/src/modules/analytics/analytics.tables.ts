import { bigserial, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** First-party analytics: page views and named events (spec section 2 and 7). */
export const analyticsEvents = pgTable(
  'analytics_events',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    event: text('event').notNull(),
    page: text('page').notNull(),
    channel: text('channel').notNull(),
    agent: text('agent').notNull(),
    locale: text('locale').notNull(),
    clientTime: timestamp('client_time', { withTimezone: true }),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('analytics_events_received_at_idx').on(table.receivedAt),
    index('analytics_events_page_idx').on(table.page),
  ],
);
