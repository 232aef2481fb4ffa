import { CASHBACK, DECIMALS, HOME, toScaled } from '@elex/contract';
import type { Executor } from '../../db/client.js';
import {
  SEED_FAMES,
  SEED_PERSON_AVG_USDT,
  SEED_RANKING_SIZE,
  seedRanking,
} from '../../db/seed/cashback-statistics.js';
import { cashbackCreditedSince } from '../ledger/ledger.service.js';

export interface CashbackStatistics {
  /** Hall of fame: the largest 30-day cashback paid, largest first. */
  fames: Array<{ platId: number; amountMicro: bigint }>;
  /** Average 30-day cashback per trader of each exchange. */
  personAvgMicro: Map<number, bigint>;
  /** Each exchange's 30-day ranking, largest first, with whole UIDs (mask them before sending). */
  ranking: Map<number, Array<{ uid: string; amountMicro: bigint }>>;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Three slides of three on the home page. */
const FAMES = HOME.famesPerSlide * 3;

const byAmountDescending = (a: { amountMicro: bigint }, b: { amountMicro: bigint }) =>
  a.amountMicro === b.amountMicro ? 0 : a.amountMicro > b.amountMicro ? -1 : 1;

/**
 * THE one place the public pages get fames, personAvg and the 30-day ranking from
 * (docs/cashback.md, "Public statistics").
 *
 * From the ledger: the cashback credited by rebate journals in the last 30 days (CASHBACK
 * .rankingWindowDays), summed per UID.
 * - ranking: an exchange's UIDs by that sum, largest first (the top SEED_RANKING_SIZE);
 * - personAvg: that sum averaged over the exchange's UIDs that received cashback in the window, floored;
 * - fames: the largest such 30-day sums across all exchanges (one entry per UID), largest first.
 * An exchange with no cashback in the window keeps the seed's illustrative figures
 * (db/seed/cashback-statistics.ts), and so do the fames while the whole ledger has none.
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
  const credited = (await cashbackCreditedSince(db, since)).filter((row) => known.has(row.platId));

  const perExchange = new Map<number, Array<{ uid: string; amountMicro: bigint }>>();
  for (const row of credited) {
    const list = perExchange.get(row.platId) ?? [];
    list.push({ uid: row.uid, amountMicro: row.amountMicro });
    perExchange.set(row.platId, list);
  }

  const personAvgMicro = new Map<number, bigint>();
  const ranking = new Map<number, Array<{ uid: string; amountMicro: bigint }>>();
  for (const platId of platIds) {
    const list = perExchange.get(platId);
    if (list && list.length > 0) {
      const total = list.reduce((sum, entry) => sum + entry.amountMicro, 0n);
      personAvgMicro.set(platId, total / BigInt(list.length));
      ranking.set(platId, [...list].sort(byAmountDescending).slice(0, SEED_RANKING_SIZE));
      continue;
    }
    const average = SEED_PERSON_AVG_USDT[platId];
    personAvgMicro.set(platId, average ? toScaled(average, DECIMALS.usdt) : 0n);
    ranking.set(platId, average ? seedRanking(platId) : []);
  }

  const fames =
    credited.length > 0
      ? credited
          .map((row) => ({ platId: row.platId, amountMicro: row.amountMicro }))
          .sort(byAmountDescending)
          .slice(0, FAMES)
      : SEED_FAMES.filter((fame) => known.has(fame.platId))
          .map((fame) => ({ platId: fame.platId, amountMicro: toScaled(fame.amount, DECIMALS.usdt) }))
          .sort(byAmountDescending);
  return { fames, personAvgMicro, ranking };
}
