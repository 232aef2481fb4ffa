import * as z from 'zod';
import type { CashbackStatistics } from './cashback-statistics.js';

/**
 * The public statistics as `public_statistics.figures` holds them: JSON has no bigint and no Map, so
 * amounts are decimal strings of micro-USDT and maps are [key, value] pairs. A row written by another
 * version of this shape fails to read and is computed again, so the shape can change without a
 * migration.
 */
const micro = z
  .string()
  .regex(/^-?\d{1,30}$/)
  .transform((text) => BigInt(text));
const platId = z.number().int();

const StoredFigures = z.object({
  shape: z.literal(1),
  fames: z.array(z.tuple([platId, micro])),
  personAvg: z.array(z.tuple([platId, micro])),
  ranking: z.array(z.tuple([platId, z.array(z.tuple([z.string(), micro]))])),
  commissionShareBps: z.array(z.tuple([platId, z.number().int()])),
});

export function figuresToStore(statistics: CashbackStatistics): z.input<typeof StoredFigures> {
  return {
    shape: 1,
    fames: statistics.fames.map((fame) => [fame.platId, fame.amountMicro.toString()]),
    personAvg: [...statistics.personAvgMicro].map(([id, amount]) => [id, amount.toString()]),
    ranking: [...statistics.ranking].map(([id, list]) => [
      id,
      list.map((entry) => [entry.uid, entry.amountMicro.toString()]),
    ]),
    commissionShareBps: [...statistics.commissionShareBps],
  };
}

/** The figures a row holds, or undefined when it holds no figures of this shape. */
export function figuresFromStore(stored: unknown): CashbackStatistics | undefined {
  const parsed = StoredFigures.safeParse(stored);
  if (!parsed.success) return undefined;
  const figures = parsed.data;
  return {
    fames: figures.fames.map(([id, amountMicro]) => ({ platId: id, amountMicro })),
    personAvgMicro: new Map(figures.personAvg),
    ranking: new Map(
      figures.ranking.map(([id, list]) => [id, list.map(([uid, amountMicro]) => ({ uid, amountMicro }))]),
    ),
    commissionShareBps: new Map(figures.commissionShareBps),
  };
}
