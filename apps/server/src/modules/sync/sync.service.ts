import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { CASHBACK } from '@elex/contract';
import type { Database, Executor } from '../../db/client.js';
import type { SyncableExchangeAdapter } from '../../integrations/exchanges/adapter.js';
import type { CommissionEntry, ReferralEntry, TimeWindow } from '../../integrations/exchanges/types.js';
import { ceilToSegment, DAY_MS, floorToSegment, HOUR_MS } from '../../integrations/exchanges/windows.js';
import type { Clock } from '../../lib/clock.js';
import { getExchangeDictionary } from '../exchanges/exchanges.service.js';
import { type LeftOutRow, type RestatedUid, runErrorText, storedRunError } from './run-error.js';
import {
  claimCursorRow,
  ensureCursorRow,
  failAbandonedRunRows,
  findCursorRow,
  insertRunRow,
  releaseCursorRow,
  renewCursorLease,
  selectCursorRows,
  selectRunRows,
  selectSegmentSkipRows,
  skipCursorRow,
  updateRunRow,
} from './sync.repository.js';
import type { SyncCursorRow, SyncRunRow, SyncRunStatus, SyncTrigger } from './sync.tables.js';

/** spec: exchange data arrive in 6-hour segments (CASHBACK.dataSegmentHours), aligned on UTC midnight. */
export const SEGMENT_MS = CASHBACK.dataSegmentHours * HOUR_MS;

/**
 * What the sync hands its pages to: the cashback module's ingest functions with their dependencies
 * bound (wired in sync.wiring.ts). Both are idempotent: a page seen twice is "already known" or
 * "duplicates", which is what makes a retried segment safe.
 */
export interface SyncIngest {
  ingestReferrals(
    platId: number,
    entries: ReferralEntry[],
    source: IngestSource,
  ): Promise<{
    inserted: number;
    alreadyKnown: number;
    /** Known UIDs the page lists with another registration time (counted as known; stored time stays). */
    restated?: RestatedUid[];
  }>;
  ingestRebates(
    platId: number,
    rows: CommissionEntry[],
    source: IngestSource,
  ): Promise<{
    inserted: number;
    duplicates: number;
    settled: number;
    /** Rows left out because a stored record of their UID clashes (kept as stored). */
    leftOut?: LeftOutRow[];
  }>;
}

export interface IngestSource {
  kind: 'csv' | 'api';
  label: string;
}

export interface SyncLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface SyncDeps {
  db: Database;
  clock: Clock;
  ingest: SyncIngest;
  log?: SyncLog;
}

export interface SyncTarget {
  platId: number;
  adapter: SyncableExchangeAdapter;
}

interface SyncTotals {
  referralsInserted: number;
  referralsKnown: number;
  rebatesInserted: number;
  rebatesDuplicates: number;
  rebatesSettled: number;
}

interface SyncProgress extends SyncTotals {
  segmentsDone: number;
  segmentsTotal: number;
  /** The segment just finished. */
  segment: TimeWindow;
}

export interface SyncOptions {
  trigger: SyncTrigger;
  /**
   * An operator's window (the CLI): widened to segment boundaries, limited to what has settled; the
   * cursor is neither read nor moved. Without it the run resumes from the exchange's cursor.
   */
  window?: { from: Date; to?: Date };
  /** Where a first run starts: this many days back (SYNC_BACKFILL_DAYS). */
  backfillDays: number;
  /** Segments per run at most: a long backlog is worked off over several runs. */
  maxSegments?: number;
  /** How long a claim holds without renewal; renewed after each segment. */
  leaseMs?: number;
  onProgress?(progress: SyncProgress): void;
  /** Called once the window is known, before the first segment. */
  onStart?(plan: { window: TimeWindow; segmentsTotal: number }): void;
}

export interface SyncRunSummary extends SyncTotals {
  runId: number;
  exchange: string;
  platId: number;
  status: Exclude<SyncRunStatus, 'running'>;
  window: TimeWindow;
  segmentsTotal: number;
  segmentsDone: number;
  failedSegmentStart?: Date;
  error?: string;
}

const DEFAULT_LEASE_MS = 10 * 60_000;
const DEFAULT_MAX_SEGMENTS = 4 * 60;

/** host:pid:random, shown in sync_runs so an operator can tell instances apart. */
const INSTANCE_ID = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

/**
 * Pulls one exchange, segment by segment: the roster first, then (when the API has settlement
 * figures) the commissions, each page handed to the cashback ingest. The cursor moves after each
 * segment, so a run that fails mid-way leaves the next run to start at the failed segment: nothing
 * done twice on purpose, nothing skipped. Only segments whose figures have settled are pulled
 * (the adapter's settleHours), because the engine keeps the first figures it sees for a period.
 *
 * Safe to run from several processes at once: the run claims the exchange's cursor row (a lease);
 * a run that cannot claim it records itself as skipped and leaves.
 */
export async function syncExchange(
  deps: SyncDeps,
  target: SyncTarget,
  options: SyncOptions,
): Promise<SyncRunSummary> {
  const { db, clock } = deps;
  const { platId, adapter } = target;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const token = `${INSTANCE_ID}:${randomBytes(4).toString('hex')}`;
  const startedAt = clock.now();

  await ensureCursorRow(db, platId, firstSegmentStart(startedAt, adapter, options.backfillDays), startedAt);
  const cursor = await claimCursorRow(db, platId, token, startedAt, new Date(startedAt.getTime() + leaseMs));
  if (!cursor) {
    const holder = await findCursorRow(db, platId);
    const error = `another sync of ${adapter.exchange} is running (${holder?.lockedBy ?? 'unknown'}, lease until ${holder?.lockedUntil?.toISOString() ?? '?'})`;
    const run = await insertRunRow(db, {
      platId,
      exchange: adapter.exchange,
      trigger: options.trigger,
      status: 'skipped',
      windowStart: startedAt,
      windowEnd: startedAt,
      error,
      instance: INSTANCE_ID,
      startedAt,
      finishedAt: startedAt,
    });
    return { ...emptySummary(run, target), status: 'skipped', error };
  }

  try {
    await failAbandonedRunRows(db, platId, startedAt);
    const window = planWindow(cursor, adapter, options, startedAt, deps.log);
    const segments = segmentsOf(window).slice(0, options.maxSegments ?? DEFAULT_MAX_SEGMENTS);
    const planned: TimeWindow = { from: window.from, to: segments.at(-1)?.to ?? window.from };
    const run = await insertRunRow(db, {
      platId,
      exchange: adapter.exchange,
      trigger: options.trigger,
      status: 'running',
      windowStart: planned.from,
      windowEnd: planned.to,
      segmentsTotal: segments.length,
      instance: INSTANCE_ID,
      startedAt,
    });
    options.onStart?.({ window: planned, segmentsTotal: segments.length });
    const totals: SyncTotals = {
      referralsInserted: 0,
      referralsKnown: 0,
      rebatesInserted: 0,
      rebatesDuplicates: 0,
      rebatesSettled: 0,
    };
    let segmentsDone = 0;
    let failure: { segment: TimeWindow; error: string } | undefined;
    const leftOut: LeftOutRow[] = [];
    const restated: RestatedUid[] = [];

    for (const segment of segments) {
      try {
        const notes = { leftOut, restated };
        await pullSegment(deps, target, segment, totals, notes, `${adapter.exchange} sync run ${run.id}`);
        const now = clock.now();
        const held = await renewCursorLease(
          db,
          platId,
          token,
          now,
          new Date(now.getTime() + leaseMs),
          options.window ? undefined : segment.to,
        );
        if (!held) throw new Error('the lease on the cursor was lost (the run took longer than its lease)');
        segmentsDone += 1;
        await updateRunRow(db, run.id, { segmentsDone, ...totals });
        options.onProgress?.({ ...totals, segmentsDone, segmentsTotal: segments.length, segment });
      } catch (error) {
        failure = { segment, error: describeError(error) };
        break;
      }
    }

    const status = failure ? 'failed' : 'succeeded';
    // Rows left out for a clash with stored figures, and known UIDs listed with another registration
    // time: the run names them (as facts, so the console says them in the operator's language), so an
    // operator can look; the log has every row.
    const stored = storedRunError(failure?.error, leftOut, restated);
    const error = runErrorText(stored ?? null, 'en') ?? undefined;
    await updateRunRow(db, run.id, {
      status,
      segmentsDone,
      ...totals,
      ...(failure ? { failedSegmentStart: failure.segment.from } : {}),
      ...(stored ? { error: stored } : {}),
      finishedAt: clock.now(),
    });
    if (leftOut.length > 0) {
      deps.log?.warn(
        { exchange: adapter.exchange, runId: run.id, leftOut },
        runErrorText(storedRunError(undefined, leftOut) ?? null, 'en') ?? '',
      );
    }
    if (restated.length > 0) {
      deps.log?.warn(
        { exchange: adapter.exchange, runId: run.id, restated },
        runErrorText(storedRunError(undefined, [], restated) ?? null, 'en') ?? '',
      );
    }
    if (failure) {
      deps.log?.warn(
        {
          exchange: adapter.exchange,
          runId: run.id,
          segment: failure.segment.from.toISOString(),
          error: failure.error,
        },
        'exchange sync failed; the next run resumes at the failed segment',
      );
    }
    return {
      runId: run.id,
      exchange: adapter.exchange,
      platId,
      status,
      window: planned,
      segmentsTotal: segments.length,
      segmentsDone,
      ...totals,
      ...(failure ? { failedSegmentStart: failure.segment.from } : {}),
      ...(error ? { error } : {}),
    };
  } finally {
    await releaseCursorRow(db, platId, token, clock.now());
  }
}

async function pullSegment(
  deps: SyncDeps,
  { platId, adapter }: SyncTarget,
  segment: TimeWindow,
  totals: SyncTotals,
  notes: { leftOut: LeftOutRow[]; restated: RestatedUid[] },
  label: string,
) {
  const source: IngestSource = {
    kind: 'api',
    label: `${label} ${segment.from.toISOString()}..${segment.to.toISOString()}`,
  };
  // The roster first: a rebate's UID is then known when its period settles.
  for await (const page of adapter.listReferrals(segment)) {
    if (page.length === 0) continue;
    const result = await deps.ingest.ingestReferrals(platId, page, source);
    totals.referralsInserted += result.inserted;
    totals.referralsKnown += result.alreadyKnown;
    notes.restated.push(...(result.restated ?? []));
  }
  if (adapter.profile.commissionSource !== 'api') return;
  for await (const page of adapter.listCommissions(segment)) {
    if (page.length === 0) continue;
    const result = await deps.ingest.ingestRebates(platId, page, source);
    totals.rebatesInserted += result.inserted;
    totals.rebatesDuplicates += result.duplicates;
    totals.rebatesSettled += result.settled;
    notes.leftOut.push(...(result.leftOut ?? []));
  }
}

/** The newest segment end whose figures have settled at `now`. */
function settledUntil(now: Date, adapter: SyncableExchangeAdapter): Date {
  return floorToSegment(new Date(now.getTime() - adapter.profile.settleHours * HOUR_MS), SEGMENT_MS);
}

/** How far back the exchange answers, on a segment boundary (a day of margin for the clock). */
function earliestAllowed(now: Date, adapter: SyncableExchangeAdapter): Date | undefined {
  const { lookbackDays } = adapter.profile;
  if (lookbackDays === undefined) return undefined;
  return ceilToSegment(new Date(now.getTime() - (lookbackDays - 1) * DAY_MS), SEGMENT_MS);
}

function firstSegmentStart(now: Date, adapter: SyncableExchangeAdapter, backfillDays: number): Date {
  const start = floorToSegment(new Date(now.getTime() - backfillDays * DAY_MS), SEGMENT_MS);
  const earliest = earliestAllowed(now, adapter);
  return earliest && earliest > start ? earliest : start;
}

function planWindow(
  cursor: SyncCursorRow,
  adapter: SyncableExchangeAdapter,
  options: SyncOptions,
  now: Date,
  log: SyncLog | undefined,
): TimeWindow {
  const until = settledUntil(now, adapter);
  if (options.window) {
    const from = floorToSegment(options.window.from, SEGMENT_MS);
    const askedTo = ceilToSegment(options.window.to ?? now, SEGMENT_MS);
    const to = askedTo < until ? askedTo : until;
    return { from, to: to > from ? to : from };
  }
  let from = cursor.nextSegmentStart;
  const earliest = earliestAllowed(now, adapter);
  if (earliest && from < earliest) {
    // The sync was off longer than the API looks back: what lies before must come by CSV.
    log?.warn(
      { exchange: adapter.exchange, from: from.toISOString(), resumesAt: earliest.toISOString() },
      'exchange sync fell behind the API’s look-back; import the gap by CSV',
    );
    from = earliest;
  }
  return { from, to: until > from ? until : from };
}

function segmentsOf(window: TimeWindow): TimeWindow[] {
  const segments: TimeWindow[] = [];
  for (let start = window.from.getTime(); start < window.to.getTime(); start += SEGMENT_MS) {
    segments.push({ from: new Date(start), to: new Date(Math.min(start + SEGMENT_MS, window.to.getTime())) });
  }
  return segments;
}

function emptySummary(run: SyncRunRow, target: SyncTarget): Omit<SyncRunSummary, 'status'> {
  return {
    runId: run.id,
    exchange: target.adapter.exchange,
    platId: target.platId,
    window: { from: run.windowStart, to: run.windowEnd },
    segmentsTotal: 0,
    segmentsDone: 0,
    referralsInserted: 0,
    referralsKnown: 0,
    rebatesInserted: 0,
    rebatesDuplicates: 0,
    rebatesSettled: 0,
  };
}

function describeError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}

// ---------------------------------------------------------------------------------------------------
// Targets and the operator console

/**
 * The configured adapters matched to catalog exchanges by name ('bitget' = Bitget). An adapter whose
 * exchange is not in the catalog is reported and left out.
 */
export async function resolveSyncTargets(
  deps: { db: Database; clock: Clock; log?: SyncLog },
  adapters: ReadonlyMap<string, SyncableExchangeAdapter>,
): Promise<SyncTarget[]> {
  const { exchangeList } = await getExchangeDictionary(deps);
  const targets: SyncTarget[] = [];
  for (const adapter of adapters.values()) {
    const entry = exchangeList.find((exchange) => exchange.name.toLowerCase() === adapter.exchange);
    // issue 12: a retired partner's sync stops (its configured API is left alone, not called).
    if (entry?.retired) deps.log?.info({ exchange: adapter.exchange }, 'exchange retired; not synced');
    else if (entry) targets.push({ platId: entry.id, adapter });
    else
      deps.log?.warn(
        { exchange: adapter.exchange },
        'configured exchange API has no catalog entry; not synced',
      );
  }
  return targets;
}

/** An exchange by catalog id, name or abbreviation, among the configured adapters. */
export async function findSyncTarget(
  deps: { db: Database; clock: Clock },
  adapters: ReadonlyMap<string, SyncableExchangeAdapter>,
  nameOrId: string,
): Promise<SyncTarget | { error: string }> {
  const wanted = nameOrId.trim().toLowerCase();
  const { exchangeList } = await getExchangeDictionary(deps);
  const entry = exchangeList.find(
    (exchange) =>
      String(exchange.id) === wanted ||
      exchange.name.toLowerCase() === wanted ||
      exchange.Abbreviation.toLowerCase() === wanted,
  );
  if (!entry) return { error: `no exchange "${nameOrId}" in the catalog` };
  if (entry.retired) return { error: `${entry.name} is retired: reinstate it in the console to sync it` };
  const adapter = adapters.get(entry.name.toLowerCase());
  if (!adapter) {
    return {
      error:
        entry.name.toLowerCase() === 'binance'
          ? 'Binance has no affiliate API for regular affiliates: import its CSV export with rebates:import'
          : `${entry.name} has no API configured: set ${entry.name.toUpperCase()}_API_KEY and _API_SECRET (see docs/exchange-integrations.md)`,
    };
  }
  return { platId: entry.id, adapter };
}

// ---------------------------------------------------------------------------------------------------
// An operator's skip of a segment the exchange refuses for good

/**
 * A run that records an operator's skip: status 'skipped' with the segment as its window (one
 * segment, none done). A run skipped because another held the cursor has an empty window.
 */
export function isSegmentSkip(run: Pick<SyncRunRow, 'status' | 'segmentsTotal'>): boolean {
  return run.status === 'skipped' && run.segmentsTotal > 0;
}

/** The operator's command that pulls a skipped segment later (it leaves the cursor alone). */
export function pullSegmentCommand(exchange: string, segment: TimeWindow): string {
  const text = (date: Date) => date.toISOString().replace('.000Z', 'Z');
  return `npm run ops -- sync ${exchange} --from ${text(segment.from)} --to ${text(segment.to)}`;
}

/** Why `start` cannot start a segment, or undefined when it does. */
export function segmentStartProblem(start: Date): string | undefined {
  return start.getTime() % SEGMENT_MS === 0
    ? undefined
    : `${start.toISOString()} is not the start of a 6-hour segment (00:00, 06:00, 12:00 or 18:00 UTC)`;
}

export type SegmentSkip =
  | { skipped: true; run: SyncRunRow; segment: TimeWindow; cursor: SyncCursorRow }
  | { skipped: false; refusal: string };

/**
 * Moves an exchange's cursor past the one segment it points at, for an exchange that refuses that
 * segment for good (a malformed row): every later segment waits behind it otherwise. Refused unless
 * `segmentStart` is where the cursor is, the segment has settled (so the sync has tried it), and no
 * run holds the cursor; the cursor check and the move are one conditional UPDATE. Records a
 * 'skipped' run with the segment as its window and `by: reason` as its error. Pass the transaction
 * the caller audits in.
 */
export async function skipSyncSegment(
  deps: { db: Executor; clock: Clock },
  target: SyncTarget,
  segmentStart: Date,
  skip: { by: string; reason: string },
): Promise<SegmentSkip> {
  const { db } = deps;
  const { platId, adapter } = target;
  const now = deps.clock.now();
  const at = (date: Date) => date.toISOString();
  const misaligned = segmentStartProblem(segmentStart);
  if (misaligned) return { skipped: false, refusal: misaligned };
  const segment: TimeWindow = { from: segmentStart, to: new Date(segmentStart.getTime() + SEGMENT_MS) };
  const cursor = await findCursorRow(db, platId);
  if (!cursor)
    return { skipped: false, refusal: `${adapter.exchange} has not been synced yet: no cursor to move` };
  if (cursor.nextSegmentStart.getTime() !== segmentStart.getTime()) {
    return {
      skipped: false,
      refusal: `the cursor of ${adapter.exchange} is at ${at(cursor.nextSegmentStart)}, not at ${at(segmentStart)}: only the segment the sync is stuck at can be skipped (a segment behind the cursor is re-pulled with sync --from … --to …)`,
    };
  }
  if (cursor.lockedUntil && cursor.lockedUntil >= now) {
    return {
      skipped: false,
      refusal: `a sync of ${adapter.exchange} holds the cursor (${cursor.lockedBy ?? 'unknown'}, lease until ${at(cursor.lockedUntil)}): wait for it to finish, then try again`,
    };
  }
  if (segment.to > settledUntil(now, adapter)) {
    return {
      skipped: false,
      refusal: `segment ${at(segment.from)} has not settled yet, so the sync has not tried it: nothing is stuck there`,
    };
  }
  const moved = await skipCursorRow(db, platId, segment.from, segment.to, now);
  if (!moved) {
    return {
      skipped: false,
      refusal: `a sync of ${adapter.exchange} claimed the cursor meanwhile: look at sync:status and try again`,
    };
  }
  const run = await insertRunRow(db, {
    platId,
    exchange: adapter.exchange,
    trigger: 'cli',
    status: 'skipped',
    windowStart: segment.from,
    windowEnd: segment.to,
    segmentsTotal: 1,
    segmentsDone: 0,
    error: `segment skipped by ${skip.by}: ${skip.reason}`,
    instance: INSTANCE_ID,
    startedAt: now,
    finishedAt: now,
  });
  return { skipped: true, run, segment, cursor: moved };
}

interface SegmentSkipView {
  run: SyncRunRow;
  /** The later run that pulled the segment after all, or null while it is missing. */
  pulledByRunId: number | null;
}

export interface SyncStatus {
  cursors: SyncCursorRow[];
  runs: SyncRunRow[];
  /** Operators' skips, newest first (at most 50). */
  skippedSegments: SegmentSkipView[];
}

/** For the operator console: each exchange's resume point and lock, and the latest runs (newest first). */
export async function getSyncStatus(
  deps: { db: Database },
  filter: { platId?: number; beforeId?: number; limit?: number } = {},
): Promise<SyncStatus> {
  const limit = Math.min(Math.max(filter.limit ?? 50, 1), 200);
  return {
    cursors: await selectCursorRows(deps.db),
    runs: await selectRunRows(deps.db, { ...filter, limit }),
    skippedSegments: await selectSegmentSkipRows(deps.db, {
      ...(filter.platId === undefined ? {} : { platId: filter.platId }),
      limit: 50,
    }),
  };
}

// Housekeeping prunes empty runs through this service (docs/architecture.md, "Boundaries").
export { deleteEmptyRunRowsBefore } from './sync.repository.js';
