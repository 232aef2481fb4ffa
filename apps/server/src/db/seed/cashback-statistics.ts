import { DECIMALS, toScaled } from '@elex/contract';

/**
 * Illustrative cashback statistics shown until the cashback ledger exists: average cashback per
 * trader, the hall of fame and each exchange's 30-day ranking. They are marketing placeholders, not
 * measurements; `cashbackStatistics` in modules/exchanges is the one place that reads them, and it
 * switches to the ledger when the cashback issue lands.
 */

/** Average 30-day cashback per trader, USDT, by platId. */
export const SEED_PERSON_AVG_USDT: Record<number, string> = {
  1: '412.35',
  2: '356.80',
  3: '389.10',
  4: '402.55',
  5: '318.40',
  6: '297.25',
  7: '265.90',
  8: '341.60',
  9: '288.75',
  10: '276.30',
};

/** Hall of fame: the largest 30-day cashback paid, USDT (9 entries: three slides of three). */
export const SEED_FAMES: ReadonlyArray<{ platId: number; amount: string }> = [
  { platId: 3, amount: '18452.37' },
  { platId: 1, amount: '16210.08' },
  { platId: 4, amount: '14987.66' },
  { platId: 2, amount: '12640.12' },
  { platId: 6, amount: '9870.45' },
  { platId: 8, amount: '8433.90' },
  { platId: 5, amount: '7615.27' },
  { platId: 9, amount: '6120.74' },
  { platId: 7, amount: '5308.19' },
];

/** Rows of each exchange's 30-day ranking. */
export const SEED_RANKING_SIZE = 10;

/**
 * A deterministic 30-day ranking for an exchange: the same UIDs and amounts on every start, so
 * pages and tests agree. Amounts fall from the exchange's hall-of-fame figure (or 4,000 USDT).
 */
export function seedRanking(platId: number): Array<{ uid: string; amountMicro: bigint }> {
  // mulberry32: a tiny deterministic generator, 32-bit integer arithmetic only.
  let state = platId >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  const top = SEED_FAMES.find((fame) => fame.platId === platId)?.amount ?? '4000';
  let amountMicro = toScaled(top, DECIMALS.usdt);
  return Array.from({ length: SEED_RANKING_SIZE }, () => {
    const uid = String(10_000_000 + (next() % 890_000_000));
    const row = { uid, amountMicro };
    // Each next row earns 55-90 % of the one above, rounded to the cent.
    const share = 55n + BigInt(next() % 36);
    amountMicro = ((amountMicro * share) / 100n / 10_000n) * 10_000n;
    return row;
  });
}
