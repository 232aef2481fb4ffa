import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { exchanges } from '../exchanges/exchanges.tables.js';

/**
 * Where each exchange's sync resumes, and who is working on it. One row per exchange: the next
 * 6-hour segment to pull starts at `nextSegmentStart`. A run claims the row by setting `lockedBy`
 * and `lockedUntil` in one conditional UPDATE (a lease, renewed after each segment) so two runs, in
 * one process or in several instances, never pull the same segment; a crashed run's lease expires.
 */
export const syncCursors = pgTable('sync_cursors', {
  platId: integer('plat_id')
    .primaryKey()
    .references(() => exchanges.id, { onDelete: 'cascade' }),
  nextSegmentStart: timestamp('next_segment_start', { withTimezone: true }).notNull(),
  lockedBy: text('locked_by'),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

export const SYNC_RUN_STATUSES = ['running', 'succeeded', 'failed', 'skipped'] as const;
export type SyncRunStatus = (typeof SYNC_RUN_STATUSES)[number];
export const SYNC_TRIGGERS = ['job', 'cli'] as const;
export type SyncTrigger = (typeof SYNC_TRIGGERS)[number];

/**
 * One sync run of one exchange, for the operator console: what it pulled, or why it stopped. A
 * 'skipped' run with a segment in its window is an operator's `sync:skip` of that segment (its error
 * says who and why); one skipped because another run held the cursor has an empty window.
 */
export const syncRuns = pgTable(
  'sync_runs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    platId: integer('plat_id')
      .notNull()
      .references(() => exchanges.id, { onDelete: 'cascade' }),
    /** The adapter's name ('bitget'), kept as it was at the time of the run. */
    exchange: text('exchange').notNull(),
    trigger: text('trigger').$type<SyncTrigger>().notNull(),
    status: text('status').$type<SyncRunStatus>().notNull(),
    /** The window asked for, [start, end), on 6-hour boundaries; equal when nothing was due. */
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    windowEnd: timestamp('window_end', { withTimezone: true }).notNull(),
    segmentsTotal: integer('segments_total').notNull().default(0),
    segmentsDone: integer('segments_done').notNull().default(0),
    referralsInserted: integer('referrals_inserted').notNull().default(0),
    referralsKnown: integer('referrals_known').notNull().default(0),
    rebatesInserted: integer('rebates_inserted').notNull().default(0),
    rebatesDuplicates: integer('rebates_duplicates').notNull().default(0),
    rebatesSettled: integer('rebates_settled').notNull().default(0),
    /** The segment that failed; the next run starts there. */
    failedSegmentStart: timestamp('failed_segment_start', { withTimezone: true }),
    error: text('error'),
    /** Which server instance (host:pid:random) ran it. */
    instance: text('instance').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    index('sync_runs_plat_started_idx').on(table.platId, table.startedAt),
    index('sync_runs_started_idx').on(table.startedAt),
    check('sync_runs_status_check', sql`${table.status} in ('running', 'succeeded', 'failed', 'skipped')`),
    check('sync_runs_trigger_check', sql`${table.trigger} in ('job', 'cli')`),
    check('sync_runs_window_check', sql`${table.windowEnd} >= ${table.windowStart}`),
  ],
);

export type SyncCursorRow = typeof syncCursors.$inferSelect;
export type SyncRunRow = typeof syncRuns.$inferSelect;
