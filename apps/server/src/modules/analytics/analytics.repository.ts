import type { Executor } from '../../db/client.js';
import { analyticsEvents } from './analytics.tables.js';

export type NewAnalyticsEvent = typeof analyticsEvents.$inferInsert;

export async function insertAnalyticsEvent(db: Executor, event: NewAnalyticsEvent) {
  await db.insert(analyticsEvents).values(event);
}
