import { and, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { qualified } from '../../db/qualified.js';
import { type SyncCursorRow, type SyncRunRow, syncCursors, syncRuns } from './sync.tables.js';

/** Creates the exchange's cursor at `start` unless it exists. */
export async function ensureCursorRow(db: Executor, platId: number, start: Date, now: Date): Promise<void> {
  await db
    .insert(syncCursors)
    .values({ platId, nextSegmentStart: start, updatedAt: now })
    .onConflictDoNothing({ target: syncCursors.platId });
}

/**
 * Claims the cursor for one run: one conditional UPDATE, so of two runs racing (one process or
 * several) exactly one gets the row. A lease that ran out (a crashed run) may be taken over.
 */
export async function claimCursorRow(
  db: Executor,
  platId: number,
  token: string,
  now: Date,
  leaseUntil: Date,
): Promise<SyncCursorRow | undefined> {
  const [row] = await db
    .update(syncCursors)
    .set({ lockedBy: token, lockedUntil: leaseUntil, updatedAt: now })
    .where(
      and(
        eq(syncCursors.platId, platId),
        or(isNull(syncCursors.lockedUntil), lt(syncCursors.lockedUntil, now)),
      ),
    )
    .returning();
  return row;
}

export async function findCursorRow(db: Executor, platId: number): Promise<SyncCursorRow | undefined> {
  const [row] = await db.select().from(syncCursors).where(eq(syncCursors.platId, platId));
  return row;
}

/**
 * Renews the lease and, when given, moves the cursor: only while this run still holds the lease.
 * Answers false when the lease was lost (it ran out and another run took the row).
 */
export async function renewCursorLease(
  db: Executor,
  platId: number,
  token: string,
  now: Date,
  leaseUntil: Date,
  nextSegmentStart?: Date,
): Promise<boolean> {
  const rows = await db
    .update(syncCursors)
    .set({ lockedUntil: leaseUntil, updatedAt: now, ...(nextSegmentStart ? { nextSegmentStart } : {}) })
    .where(and(eq(syncCursors.platId, platId), eq(syncCursors.lockedBy, token)))
    .returning({ platId: syncCursors.platId });
  return rows.length > 0;
}

/**
 * An operator's skip: moves the cursor from `from` to `to` only while it still points at `from` and
 * no run holds a live lease, in one conditional UPDATE (a run claiming the row at the same moment
 * either sees the moved cursor or makes this answer nothing). Answers the moved row, or undefined.
 */
export async function skipCursorRow(
  db: Executor,
  platId: number,
  from: Date,
  to: Date,
  now: Date,
): Promise<SyncCursorRow | undefined> {
  const [row] = await db
    .update(syncCursors)
    .set({ nextSegmentStart: to, updatedAt: now })
    .where(
      and(
        eq(syncCursors.platId, platId),
        eq(syncCursors.nextSegmentStart, from),
        or(isNull(syncCursors.lockedUntil), lt(syncCursors.lockedUntil, now)),
      ),
    )
    .returning();
  return row;
}

export async function releaseCursorRow(
  db: Executor,
  platId: number,
  token: string,
  now: Date,
): Promise<void> {
  await db
    .update(syncCursors)
    .set({ lockedBy: null, lockedUntil: null, updatedAt: now })
    .where(and(eq(syncCursors.platId, platId), eq(syncCursors.lockedBy, token)));
}

export type NewSyncRun = Omit<typeof syncRuns.$inferInsert, 'id'>;

export async function insertRunRow(db: Executor, run: NewSyncRun): Promise<SyncRunRow> {
  const [row] = await db.insert(syncRuns).values(run).returning();
  if (!row) throw new Error('sync_runs insert returned nothing');
  return row;
}

export async function updateRunRow(
  db: Executor,
  id: number,
  patch: Partial<Omit<NewSyncRun, 'platId' | 'startedAt'>>,
): Promise<void> {
  await db.update(syncRuns).set(patch).where(eq(syncRuns.id, id));
}

/** Runs left 'running' by a run whose lease ran out (its process died): marked failed. */
export async function failAbandonedRunRows(db: Executor, platId: number, now: Date): Promise<number> {
  const rows = await db
    .update(syncRuns)
    .set({
      status: 'failed',
      finishedAt: now,
      error: sql`'abandoned: the run stopped without finishing (its lease ran out)'`,
    })
    .where(and(eq(syncRuns.platId, platId), eq(syncRuns.status, 'running')))
    .returning({ id: syncRuns.id });
  return rows.length;
}

export async function selectRunRows(
  db: Executor,
  filter: { platId?: number; beforeId?: number; limit: number },
): Promise<SyncRunRow[]> {
  return db
    .select()
    .from(syncRuns)
    .where(
      and(
        filter.platId === undefined ? undefined : eq(syncRuns.platId, filter.platId),
        filter.beforeId === undefined ? undefined : lt(syncRuns.id, filter.beforeId),
      ),
    )
    .orderBy(desc(syncRuns.id))
    .limit(filter.limit);
}

/**
 * Operators' skips (a 'skipped' run with a segment in its window; a run skipped for the lease has
 * none), newest first, each with the first later run that succeeded over a window covering it (the
 * operator's `sync --from … --to …` that pulled it after all), or null while it is still missing.
 */
export async function selectSegmentSkipRows(
  db: Executor,
  filter: { platId?: number; limit: number },
): Promise<Array<{ run: SyncRunRow; pulledByRunId: number | null }>> {
  return db
    .select({
      run: syncRuns,
      // Spelled out: in a select list drizzle writes a column unqualified, which would mean `later`'s.
      pulledByRunId: sql<number | null>`(
        select min(later.id) from sync_runs as later
        where later.plat_id = sync_runs.plat_id and later.id > sync_runs.id and later.status = 'succeeded'
          and later.window_start <= sync_runs.window_start and later.window_end >= sync_runs.window_end)`.mapWith(
        Number,
      ),
    })
    .from(syncRuns)
    .where(
      and(
        filter.platId === undefined ? undefined : eq(syncRuns.platId, filter.platId),
        eq(syncRuns.status, 'skipped'),
        sql`${syncRuns.segmentsTotal} > 0`,
      ),
    )
    .orderBy(desc(syncRuns.id))
    .limit(filter.limit);
}

export async function selectCursorRows(db: Executor): Promise<SyncCursorRow[]> {
  return db.select().from(syncCursors).orderBy(syncCursors.platId);
}

/**
 * Housekeeping: deletes up to `limit` runs that finished before `cutoff` having had nothing to do (a
 * succeeded run with no segment due, or a run skipped because another held the cursor). Runs that
 * pulled something and failed runs stay, and so does each exchange's newest run, so the history
 * still says when an exchange was last synced.
 */
export async function deleteEmptyRunRowsBefore(db: Executor, cutoff: Date, limit: number): Promise<number> {
  const empty = and(
    inArray(syncRuns.status, ['succeeded', 'skipped']),
    eq(syncRuns.segmentsTotal, 0),
    lt(syncRuns.finishedAt, cutoff),
    sql`exists (select 1 from ${syncRuns} as newer where newer.plat_id = ${qualified(syncRuns.platId)} and newer.started_at > ${qualified(syncRuns.startedAt)})`,
  );
  const batch = db
    .select({ id: syncRuns.id })
    .from(syncRuns)
    .where(empty)
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await db
    .delete(syncRuns)
    .where(and(inArray(syncRuns.id, batch), empty))
    .returning({ id: syncRuns.id });
  return rows.length;
}
