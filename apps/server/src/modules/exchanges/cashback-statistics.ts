import { CASHBACK, HOME } from '@elex/contract';
import type { Executor } from '../../db/client.js';
import { cashbackRankingSince } from '../ledger/ledger.service.js';
import { sumFeesAndCommissionsSince } from './exchanges.repository.js';

export interface CashbackStatistics {
  /** Hall of fame: the largest 30-day cashback paid, largest first. */
  fames: Array<{ platId: number; amountMicro: bigint }>;
  /** Average 30-day cashback per trader of each exchange. */
  personAvgMicro: Map<number, bigint>;
  /** Each exchange's 30-day ranking, largest first, with whole UIDs (mask them before sending). */
  ranking: Map<number, Array<{ uid: string; amountMicro: bigint }>>;
  /**
   * What each exchange paid us in the last 30 days as a share of its traders' fees, basis points
   * (floored); absent for an exchange whose traders paid no fee in the window. The calculator caps
   * its cash rates at it: a trader is never promised more than we receive.
   */
  commissionShareBps: Map<number, number>;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Three slides of three on the home page. */
const FAMES = HOME.famesPerSlide * 3;

/** Largest first; among equal amounts by exchange, then UID, so the hall of fame does not shuffle. */
const byAmountDescending = (
  a: { amountMicro: bigint; platId: number; uid: string },
  b: { amountMicro: bigint; platId: number; uid: string },
) =>
  a.amountMicro !== b.amountMicro
    ? a.amountMicro > b.amountMicro
      ? -1
      : 1
    : a.platId !== b.platId
      ? a.platId - b.platId
      : a.uid < b.uid
        ? -1
        : a.uid > b.uid
          ? 1
          : 0;

/**
 * THE one place the public pages get fames, personAvg and the 30-day ranking from
 * (docs/cashback.md, "Public statistics").
 *
 * From the ledger: the cashback credited by rebate journals in the last 30 days (CASHBACK
 * .rankingWindowDays), summed and ranked per UID in the database, which sends each exchange's first
 * few UIDs with its count and total (a daily-import ledger holds a line per UID and day).
 * - ranking: an exchange's UIDs by that sum, largest first (the top CASHBACK.rankingSize; equal sums
 *   in UID order);
 * - personAvg: that sum averaged over the exchange's UIDs that received cashback in the window, floored;
 * - fames: the largest such 30-day sums across all exchanges (one entry per UID), largest first.
 * Measured figures only: an exchange with no cashback in the window has an average of 0 and an empty
 * ranking, and the hall of fame is empty while the whole window is (the pages say "no cashback yet").
 * Invented figures would tell traders something untrue about money (docs/decisions.md).
 *
 * The catalog cache calls this on each reload, so the figures are at most 30 s old (the cache TTL).
 * The catalog cache passes its clock as `now`; other callers get the system time.
 */
export async function cashbackStatistics(
  db: Executor,
  platIds: readonly number[],
  now: Date = new Date(),
): Promise<CashbackStatistics> {
  const known = new Set(platIds);
  const since = new Date(now.getTime() - CASHBACK.rankingWindowDays * DAY_MS);
  // Every fame is among its own exchange's first FAMES, so ranking that many per exchange is enough.
  const ranked = await cashbackRankingSince(db, platIds, since, Math.max(CASHBACK.rankingSize, FAMES));
  const commissionShareBps = new Map<number, number>();
  for (const row of await sumFeesAndCommissionsSince(db, since)) {
    if (known.has(row.platId) && row.feeMicro > 0n) {
      commissionShareBps.set(row.platId, Number((row.commissionMicro * 10_000n) / row.feeMicro));
    }
  }

  const personAvgMicro = new Map<number, bigint>(platIds.map((platId) => [platId, 0n]));
  const ranking = new Map<number, Array<{ uid: string; amountMicro: bigint }>>(
    platIds.map((platId) => [platId, []]),
  );
  for (const row of ranked) {
    personAvgMicro.set(row.platId, row.exchangeTotalMicro / BigInt(row.holders));
    const list = ranking.get(row.platId);
    if (list && list.length < CASHBACK.rankingSize) list.push({ uid: row.uid, amountMicro: row.amountMicro });
  }

  const fames = [...ranked]
    .sort(byAmountDescending)
    .slice(0, FAMES)
    .map((row) => ({ platId: row.platId, amountMicro: row.amountMicro }));
  return { fames, personAvgMicro, ranking, commissionShareBps };
}
