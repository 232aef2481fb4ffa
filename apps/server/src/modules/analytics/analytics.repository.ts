import { inArray, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { analyticsEvents } from './analytics.tables.js';

export type NewAnalyticsEvent = typeof analyticsEvents.$inferInsert;

export async function insertAnalyticsEvent(db: Executor, event: NewAnalyticsEvent) {
  await db.insert(analyticsEvents).values(event);
}

/** Deletes up to `limit` events received before `cutoff` (housekeeping); answers how many went. */
export async function deleteEventsReceivedBefore(db: Executor, cutoff: Date, limit: number): Promise<number> {
  const old = lt(analyticsEvents.receivedAt, cutoff);
  const batch = db
    .select({ id: analyticsEvents.id })
    .from(analyticsEvents)
    .where(old)
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await db
    .delete(analyticsEvents)
    .where(inArray(analyticsEvents.id, batch))
    .returning({ id: analyticsEvents.id });
  return rows.length;
}
