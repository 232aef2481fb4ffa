import { EXCHANGE_UID_PATTERN } from '@elex/contract';
import type { CommissionEntry, ReferralEntry } from '../../integrations/exchanges/types.js';
import { because, type Explained, explained, type Reason } from '../../lib/reasons.js';
import { oldestAccruablePeriodStart } from './rebate-rule.js';

/**
 * The checks every imported row passes, from an adapter or a CSV file alike. A batch with any bad
 * row imports nothing: the caller hears every problem at once (IngestRejectedError).
 */
export interface RowProblem extends Explained {
  /** The row's position in the batch (0-based); the CSV command turns it into a line number. */
  index: number;
  field: string;
}

const problem = (index: number, field: string, reason: Reason): RowProblem => ({
  index,
  field,
  ...explained(reason),
});

export class IngestRejectedError extends Error {
  constructor(readonly problems: RowProblem[]) {
    super(
      `${problems.length} bad row(s), nothing imported: ${problems
        .slice(0, 5)
        .map((problem) => `#${problem.index} ${problem.field}: ${problem.reason}`)
        .join('; ')}`,
    );
    this.name = 'IngestRejectedError';
  }
}

/** Largest amount a bigint column holds. */
export const MAX_MICRO = 2n ** 63n - 1n;

const isValidDate = (value: unknown): value is Date =>
  value instanceof Date && !Number.isNaN(value.getTime());

/** Whether `uid` is no UID an exchange gives (the contract's pattern). */
export function isBadUid(uid: unknown): boolean {
  return typeof uid !== 'string' || !EXCHANGE_UID_PATTERN.test(uid);
}

export function validateReferralEntries(entries: readonly ReferralEntry[], now: Date): RowProblem[] {
  const problems: RowProblem[] = [];
  entries.forEach((entry, index) => {
    if (isBadUid(entry.uid)) problems.push(problem(index, 'uid', because('importNotUid')));
    if (!isValidDate(entry.registeredAt)) {
      problems.push(problem(index, 'registered_at', because('importNotTime')));
    } else if (entry.registeredAt.getTime() > now.getTime()) {
      problems.push(problem(index, 'registered_at', because('importInFuture')));
    }
  });
  return problems;
}

export function validateCommissionEntries(entries: readonly CommissionEntry[], now: Date): RowProblem[] {
  const problems: RowProblem[] = [];
  const oldest = oldestAccruablePeriodStart(now);
  entries.forEach((entry, index) => {
    if (isBadUid(entry.uid)) problems.push(problem(index, 'uid', because('importNotUid')));
    const startOk = isValidDate(entry.periodStart);
    const endOk = isValidDate(entry.periodEnd);
    if (!startOk) problems.push(problem(index, 'period_start', because('importNotTime')));
    if (!endOk) problems.push(problem(index, 'period_end', because('importNotTime')));
    if (startOk && endOk) {
      if (entry.periodEnd.getTime() <= entry.periodStart.getTime()) {
        problems.push(problem(index, 'period_end', because('importNotAfterStart')));
      } else if (entry.periodEnd.getTime() > now.getTime()) {
        problems.push(problem(index, 'period_end', because('importPeriodNotEnded')));
      }
      if (entry.periodStart.getTime() < oldest.getTime()) {
        // spec: cashback is accruable for trades up to 5 years old
        problems.push(problem(index, 'period_start', because('importTooOld')));
      }
    }
    for (const [field, value] of [
      ['trading_volume', entry.tradingVolumeMicro],
      ['fee', entry.feeMicro],
      ['commission', entry.commissionMicro],
    ] as const) {
      if (typeof value !== 'bigint') problems.push(problem(index, field, because('importNotAmount')));
      else if (value < 0n) problems.push(problem(index, field, because('importNegative')));
      else if (value > MAX_MICRO) problems.push(problem(index, field, because('importAmountTooLarge')));
    }
  });
  return problems;
}

/** The natural key of a commission entry within one exchange. */
export function periodKey(entry: Pick<CommissionEntry, 'uid' | 'periodStart' | 'periodEnd'>): string {
  return `${entry.uid}\u0000${entry.periodStart.getTime()}\u0000${entry.periodEnd.getTime()}`;
}

export interface PeriodItem {
  index: number;
  entry: Pick<CommissionEntry, 'uid' | 'periodStart' | 'periodEnd'>;
}

/**
 * Two different periods of one UID that overlap would pay the same trades twice, so they are refused.
 * Identical periods are not overlaps: they are the same natural key (a duplicate). Answers, for each
 * row that overlaps an earlier one, the earlier row's index.
 */
export function findOverlaps(entries: readonly PeriodItem[]): Array<{ index: number; otherIndex: number }> {
  const byUid = new Map<string, PeriodItem[]>();
  for (const item of entries) {
    const list = byUid.get(item.entry.uid) ?? [];
    list.push(item);
    byUid.set(item.entry.uid, list);
  }
  const overlaps: Array<{ index: number; otherIndex: number }> = [];
  for (const list of byUid.values()) {
    list.sort(
      (a, b) =>
        a.entry.periodStart.getTime() - b.entry.periodStart.getTime() ||
        a.entry.periodEnd.getTime() - b.entry.periodEnd.getTime() ||
        a.index - b.index,
    );
    let reach: PeriodItem | undefined;
    for (const item of list) {
      if (reach && item.entry.periodStart.getTime() < reach.entry.periodEnd.getTime()) {
        if (periodKey(item.entry) !== periodKey(reach.entry)) {
          overlaps.push({
            index: Math.max(item.index, reach.index),
            otherIndex: Math.min(item.index, reach.index),
          });
        }
      }
      if (!reach || item.entry.periodEnd.getTime() > reach.entry.periodEnd.getTime()) reach = item;
    }
  }
  return overlaps;
}
