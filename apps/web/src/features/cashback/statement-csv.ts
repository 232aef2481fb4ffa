import type { AdjustmentRecord, RebateRecord, RewardRecord } from '@elex/contract';
import type { TFunction } from 'i18next';

/**
 * The cells of the members' CSV statements (docs/decisions.md, "Statements a trader can read and add
 * up"). A person opens them in a spreadsheet: headers, statuses and kinds are in the member's language,
 * as the pages say them; amounts stay the exact decimal strings of the server (no grouping, no
 * rounding) and times ISO 8601 in UTC, so the columns still sum and sort. Our team's corrections are
 * rows of their own with the reason, so each file adds up to the total its page shows.
 */
interface Statement {
  header: string[];
  rows: string[][];
}

/**
 * `records` as the server listed them (newest period end first) and `adjustments` newest first: each
 * correction goes before the first record whose period ended before it was posted, so the file keeps
 * one order of time. A correction is an instant, not a period: its posting time is both its start and
 * its end, and it has no trading volume or fee.
 */
export function recordsStatement(
  t: TFunction,
  exchangeName: (platId: number) => string,
  records: readonly RebateRecord[],
  adjustments: readonly AdjustmentRecord[],
): Statement {
  const adjustmentLabel = t('cashback.adjustments.label');
  const recordRow = (record: RebateRecord) => [
    exchangeName(record.platId),
    record.uid,
    record.periodStart,
    record.periodEnd,
    record.tradingVolume,
    record.fee,
    record.amount,
    t(`cashback.statuses.${record.status}`),
    record.failureReason ? t(`msg:${record.failureReason}`, { defaultValue: record.failureReason }) : '',
  ];
  const adjustmentRow = (adjustment: AdjustmentRecord) => [
    adjustment.platId === null ? '' : exchangeName(adjustment.platId),
    adjustment.uid ?? '',
    adjustment.postedAt,
    adjustment.postedAt,
    '',
    '',
    adjustment.amount,
    adjustmentLabel,
    adjustment.reason,
  ];
  return {
    header: [
      t('cashback.csvColumns.exchange'),
      t('cashback.csvColumns.uid'),
      t('cashback.csvColumns.periodStart'),
      t('cashback.csvColumns.periodEnd'),
      t('cashback.csvColumns.tradingVolume'),
      t('cashback.csvColumns.fee'),
      t('cashback.csvColumns.cashback'),
      t('cashback.csvColumns.status'),
      t('cashback.csvColumns.reason'),
    ],
    rows: mergeNewestFirst(records, (record) => record.periodEnd, recordRow, adjustments, adjustmentRow),
  };
}

/** Rewards and the corrections of the rewards, newest first. */
export function rewardsStatement(
  t: TFunction,
  rewards: readonly RewardRecord[],
  adjustments: readonly AdjustmentRecord[],
): Statement {
  const adjustmentLabel = t('cashback.adjustments.label');
  return {
    header: [
      t('cashback.csvColumns.time'),
      t('cashback.csvColumns.kind'),
      t('cashback.csvColumns.amount'),
      t('cashback.csvColumns.details'),
    ],
    rows: mergeNewestFirst(
      rewards,
      (reward) => reward.createdAt,
      (reward) => [
        reward.createdAt,
        t(`cashback.rewardKinds.${reward.kind}`, { defaultValue: reward.kind }),
        reward.amount,
        reward.source ?? '',
      ],
      adjustments,
      (adjustment) => [adjustment.postedAt, adjustmentLabel, adjustment.amount, adjustment.reason],
    ),
  };
}

/**
 * The entries in the server's order with each correction placed before the first entry older than it
 * (ISO times in UTC compare as text). The entries' own order is kept as the server gave it.
 */
function mergeNewestFirst<T>(
  entries: readonly T[],
  timeOf: (entry: T) => string,
  entryRow: (entry: T) => string[],
  adjustments: readonly AdjustmentRecord[],
  adjustmentRow: (adjustment: AdjustmentRecord) => string[],
): string[][] {
  const pending = [...adjustments].sort((a, b) => b.postedAt.localeCompare(a.postedAt));
  const rows: string[][] = [];
  let next = 0;
  /** The corrections not placed yet that were posted after `time` (all of them without one). */
  const placeNewerThan = (time?: string) => {
    for (
      let adjustment = pending[next];
      adjustment && (time === undefined || adjustment.postedAt > time);
      adjustment = pending[next]
    ) {
      rows.push(adjustmentRow(adjustment));
      next += 1;
    }
  };
  for (const entry of entries) {
    placeNewerThan(timeOf(entry));
    rows.push(entryRow(entry));
  }
  placeNewerThan();
  return rows;
}
