import { DECIMALS, fromScaled } from '@elex/contract';
import type { Executor } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import type { CommissionEntry, ReferralEntry } from '../../integrations/exchanges/types.js';
import { because, explained, type Reason } from '../../lib/reasons.js';
import { notifyListedUids } from '../bindings/uid-owners.js';
import {
  findReferral,
  insertRebateRows,
  insertReferralRows,
  lockExchangeLedger,
  selectPeriodsTouching,
  selectRegistrations,
} from './cashback.repository.js';
import type { IngestSourceKind } from './cashback.tables.js';
import {
  findOverlaps,
  IngestRejectedError,
  periodKey,
  type RowProblem,
  validateCommissionEntries,
  validateReferralEntries,
} from './ingest-validation.js';
import { loadPartners, type Partner } from './partners.js';
import { noSettlement, type SettlementResult, settleExchange } from './settlement.service.js';

/** For a bind that must wait for an import of the exchange in flight (bindings.service.ts). */
export { keepCheckForMember, lockExchangeLedger } from './cashback.repository.js';
export { IngestRejectedError } from './ingest-validation.js';
export { resolvePlatId } from './partners.js';
export { type SettlementResult, settleRebates, settleUidSoon } from './settlement.service.js';

/** Where rows came from: a CSV file (its name) or an adapter call. */
export interface IngestSource {
  kind: IngestSourceKind;
  label: string;
}

export interface IngestOptions {
  /** Called as rows are written, with the rows done and the total: the CLI's progress bar. */
  onProgress?: (done: number, total: number) => void;
  /** false: record the referrals only; the next import or `rebates:settle` settles what they unblock. */
  settle?: boolean;
  /**
   * Asked first in the batch's transaction, which it rolls back by throwing: an operator's command
   * asks for the operator's role there (confirmOperatorRole).
   */
  confirm?: (tx: Executor) => Promise<void>;
}

/** A row a sync page left out because a stored record of its UID clashes with it (kept as stored). */
export interface LeftOutRow extends Reason {
  uid: string;
  periodStart: Date;
  periodEnd: Date;
}

export interface IngestRebatesOptions extends IngestOptions {
  /**
   * The sync's pages: a row overlapping a different stored period of its UID, or repeating a stored
   * period with other figures, is left out and returned in `leftOut` instead of refusing the page. A
   * page is every UID of a segment, and a refusal there repeats on every run: one UID's period imported
   * by CSV would hold back every other UID's figures of the segment for good.
   */
  leaveOutStored?: boolean;
}

export class UnknownExchangeError extends Error {
  constructor(readonly platId: number) {
    super(`no exchange with platId ${platId} in the catalog`);
    this.name = 'UnknownExchangeError';
  }
}

async function partnerOf(deps: AppDeps, platId: number): Promise<Partner> {
  const partner = (await loadPartners(deps)).get(platId);
  if (!partner) throw new UnknownExchangeError(platId);
  return partner;
}

/** When a UID registered at the exchange, as its roster says; null when the roster does not list it. */
export async function registrationOf(db: Executor, platId: number, uid: string): Promise<Date | null> {
  return (await findReferral(db, platId, uid))?.registeredAt ?? null;
}

/** Whether a UID is in an exchange's roster. */
export async function isReferred(db: Executor, platId: number, uid: string): Promise<boolean> {
  return (await findReferral(db, platId, uid)) !== undefined;
}

/** A roster entry for a UID already in the roster that states another registration time. */
export interface RestatedRegistration {
  /** The entry's position in the batch (0-based). */
  index: number;
  uid: string;
  stated: Date;
  stored: Date;
}

const DAY = 24 * 60 * 60_000;

/**
 * Whether `stated` is another registration time than `stored`: any other time, except midnight UTC of
 * the stored time's day (a roster that gives the day alone, e.g. a portal's date column, restates the
 * registration an API synced to the second).
 */
function statesAnotherTime(stated: Date, stored: Date): boolean {
  const at = stated.getTime();
  const day = at % DAY === 0 && stored.getTime() >= at && stored.getTime() < at + DAY;
  return at !== stored.getTime() && !day;
}

/** The batch's entries for UIDs now in the roster with another registration time (read after the insert). */
async function restatedRegistrations(
  tx: Executor,
  platId: number,
  entries: readonly ReferralEntry[],
): Promise<RestatedRegistration[]> {
  const stored = await selectRegistrations(
    tx,
    platId,
    entries.map((entry) => entry.uid),
  );
  const restated: RestatedRegistration[] = [];
  entries.forEach((entry, index) => {
    const at = stored.get(entry.uid);
    if (at && statesAnotherTime(entry.registeredAt, at)) {
      restated.push({ index, uid: entry.uid, stated: entry.registeredAt, stored: at });
    }
  });
  return restated;
}

/**
 * Adds UIDs to an exchange's roster, in one transaction, idempotent by (platId, uid): a UID already
 * known keeps its first registration time and source (first seen wins: the time decides which of the
 * UID's trades count, and records may be settled on it). An entry that states another time for a known
 * UID is counted as known and returned in `restated`, so the import can name it. Then settles the
 * exchange's due records (a UID that just joined the roster lets its waiting records settle). A batch
 * with a bad row imports nothing and throws IngestRejectedError listing every problem.
 */
export async function ingestReferrals(
  deps: AppDeps,
  platId: number,
  entries: readonly ReferralEntry[],
  source: IngestSource,
  options: IngestOptions = {},
): Promise<{
  inserted: number;
  alreadyKnown: number;
  restated: RestatedRegistration[];
  settlement: SettlementResult;
}> {
  const now = deps.clock.now();
  const problems = validateReferralEntries(entries, now);
  if (problems.length > 0) throw new IngestRejectedError(problems);
  const partner = await partnerOf(deps, platId);
  const seen = new Set<string>();
  const unique = entries.filter((entry) => !seen.has(entry.uid) && seen.add(entry.uid));

  if (options.settle === false) {
    // Idempotent inserts need no exchange lock: a bind call must not wait for a long import.
    return deps.db.transaction(async (tx) => {
      await options.confirm?.(tx);
      const inserted = await insertReferralRows(tx, platId, unique, source, now);
      if (inserted > 0) await notifyListedUids(tx, deps, platId);
      const restated = await restatedRegistrations(tx, platId, entries);
      return { inserted, alreadyKnown: entries.length - inserted, restated, settlement: noSettlement() };
    });
  }
  return deps.db.transaction(async (tx) => {
    await options.confirm?.(tx);
    await lockExchangeLedger(tx, platId);
    const inserted = await insertReferralRows(tx, platId, unique, source, now);
    if (inserted > 0) await notifyListedUids(tx, deps, platId);
    const restated = await restatedRegistrations(tx, platId, entries);
    options.onProgress?.(entries.length, entries.length);
    const settlement = await settleExchange(tx, deps, partner, now);
    return { inserted, alreadyKnown: entries.length - inserted, restated, settlement };
  });
}

/**
 * Records what an exchange reported per UID and period, in one transaction, idempotent by
 * (platId, uid, periodStart, periodEnd): importing the same rows twice records (and credits) them
 * once; a repeated key keeps its first figures. Then settles the exchange's due records.
 *
 * Refused, importing nothing (IngestRejectedError with every problem): a malformed row (UID, times,
 * negative amounts), a period that has not ended, a period starting more than 5 years ago, or a
 * period that overlaps a different period of the same UID (in the batch or already stored), which
 * would pay the same trades twice.
 */
export async function ingestRebates(
  deps: AppDeps,
  platId: number,
  rows: readonly CommissionEntry[],
  source: IngestSource,
  options: IngestRebatesOptions = {},
): Promise<{
  inserted: number;
  duplicates: number;
  settled: number;
  settlement: SettlementResult;
  leftOut: LeftOutRow[];
}> {
  const now = deps.clock.now();
  const problems = validateCommissionEntries(rows, now);
  if (problems.length > 0) throw new IngestRejectedError(problems);
  const batchOverlaps = findOverlaps(rows.map((entry, index) => ({ index, entry })));
  if (batchOverlaps.length > 0) {
    throw new IngestRejectedError(
      batchOverlaps.map(({ index, otherIndex }) => ({
        index,
        field: 'period_start',
        ...explained(because('importOverlapsRow', { row: otherIndex })),
      })),
    );
  }
  const partner = await partnerOf(deps, platId);
  const seen = new Set<string>();
  const unique = rows.filter((row) => {
    const key = periodKey(row);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });

  return deps.db.transaction(async (tx) => {
    await options.confirm?.(tx);
    await lockExchangeLedger(tx, platId);
    const stored = await storedClashes(tx, platId, rows, options.leaveOutStored === true);
    if (stored.length > 0 && !options.leaveOutStored) throw new IngestRejectedError(stored);
    const leftOut = stored.map(({ index, key, params }): LeftOutRow => {
      const row = rows[index] as CommissionEntry;
      return {
        uid: row.uid,
        periodStart: row.periodStart,
        periodEnd: row.periodEnd,
        key,
        ...(params ? { params } : {}),
      };
    });
    const leftOutKeys = new Set(leftOut.map(periodKey));
    const kept = unique.filter((row) => !leftOutKeys.has(periodKey(row)));
    const inserted = await insertRebateRows(tx, platId, kept, source, now, (done) =>
      options.onProgress?.(done, kept.length),
    );
    const settlement = await settleExchange(tx, deps, partner, now);
    return {
      inserted,
      duplicates: rows.length - inserted - leftOut.length,
      settled: settlement.completed + settlement.failed,
      settlement,
      leftOut,
    };
  });
}

/**
 * Rows whose period overlaps a different stored period of the same UID; with `restatements`, also
 * rows that repeat a stored period with other figures (otherwise those are duplicates).
 */
async function storedClashes(
  tx: Executor,
  platId: number,
  rows: readonly CommissionEntry[],
  restatements: boolean,
): Promise<Array<RowProblem & Reason>> {
  if (rows.length === 0) return [];
  let from = rows[0]?.periodStart ?? new Date(0);
  let to = rows[0]?.periodEnd ?? new Date(0);
  for (const row of rows) {
    if (row.periodStart < from) from = row.periodStart;
    if (row.periodEnd > to) to = row.periodEnd;
  }
  const stored = await selectPeriodsTouching(
    tx,
    platId,
    rows.map((row) => row.uid),
    from,
    to,
  );
  if (stored.length === 0) return [];
  const byUid = new Map<string, typeof stored>();
  for (const period of stored) byUid.set(period.uid, [...(byUid.get(period.uid) ?? []), period]);
  const problems: Array<RowProblem & Reason> = [];
  rows.forEach((row, index) => {
    const clash = byUid
      .get(row.uid)
      ?.find(
        (period) =>
          period.periodStart < row.periodEnd &&
          period.periodEnd > row.periodStart &&
          periodKey(period) !== periodKey(row),
      );
    const restated = restatements
      ? byUid
          .get(row.uid)
          ?.find(
            (period) =>
              periodKey(period) === periodKey(row) &&
              (period.tradingVolumeMicro !== row.tradingVolumeMicro ||
                period.feeMicro !== row.feeMicro ||
                period.commissionMicro !== row.commissionMicro),
          )
      : undefined;
    if (restated) {
      problems.push({
        index,
        field: 'row',
        ...explained(
          // Only the sync asks for restatements: there is no file line to remove, as for a CSV.
          because('syncRestatesStored', {
            volume: fromScaled(restated.tradingVolumeMicro, DECIMALS.usdt),
            fee: fromScaled(restated.feeMicro, DECIMALS.usdt),
            commission: fromScaled(restated.commissionMicro, DECIMALS.usdt),
          }),
        ),
      });
    } else if (clash) {
      problems.push({
        index,
        field: 'period_start',
        ...explained(
          because('importOverlapsStored', {
            start: clash.periodStart.toISOString(),
            end: clash.periodEnd.toISOString(),
          }),
        ),
      });
    }
  });
  return problems;
}
