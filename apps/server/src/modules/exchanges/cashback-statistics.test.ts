import { CASHBACK } from '@elex/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPartners } from '../cashback/partners.js';
import { type CashbackTestContext, createCashbackTestApp, DAY_MS } from '../cashback/test-support.js';
import { accountCode, type JournalInput, postJournals } from '../ledger/ledger.service.js';
import { type CashbackStatistics, cashbackStatistics } from './cashback-statistics.js';
import { selectPublicStatistics } from './exchanges.repository.js';
import { getExchangeIndexEnvelopeJson } from './exchanges.service.js';

/**
 * The public statistics (docs/cashback.md, "Public statistics") are ranked in the database and only
 * each exchange's first UIDs travel: after random rebates, in and out of the 30-day window, on the
 * same UID text at two exchanges, taken back in full for some UIDs, beside withdrawals and an exchange
 * that is not listed, the ranking, averages and hall of fame equal a plain model of the postings.
 */
let ctx: CashbackTestContext;
beforeAll(async () => {
  ctx = await createCashbackTestApp();
});
afterAll(() => ctx.close());

const LISTED = [1, 4, 9];
const UNLISTED = 7;
const WINDOW_MS = CASHBACK.rankingWindowDays * DAY_MS;

interface Credit {
  platId: number;
  uid: number;
  amount: bigint;
  /** Milliseconds before the window's end; over the window's length falls before it. */
  ago: number;
}

const creditArb: fc.Arbitrary<Credit> = fc.record({
  platId: fc.constantFrom(...LISTED, UNLISTED),
  // Few UIDs, so equal sums, shared UID texts and more holders than the ranking shows all happen.
  uid: fc.integer({ min: 0, max: 14 }),
  amount: fc.constantFrom(1_000_000n, 2_000_000n, 5_000_000n, 7_500_000n),
  ago: fc.oneof(
    fc.integer({ min: 0, max: WINDOW_MS }),
    fc.integer({ min: WINDOW_MS + 1, max: WINDOW_MS + 10 * DAY_MS }),
  ),
});

let run = 0;

/** The figures as the statistics define them, from the postings alone. */
function model(
  credits: Credit[],
  takenBack: Set<string>,
  uidOf: (uid: number) => string,
): CashbackStatistics {
  const sums = new Map<string, { platId: number; uid: string; amountMicro: bigint }>();
  for (const credit of credits) {
    if (credit.platId === UNLISTED || credit.ago > WINDOW_MS) continue;
    const key = `${credit.platId}:${credit.uid}`;
    const entry = sums.get(key) ?? { platId: credit.platId, uid: uidOf(credit.uid), amountMicro: 0n };
    entry.amountMicro += credit.amount;
    sums.set(key, entry);
  }
  const holders = [...sums].filter(([key]) => !takenBack.has(key)).map(([, entry]) => entry);
  const order = (a: (typeof holders)[number], b: (typeof holders)[number]) =>
    a.amountMicro !== b.amountMicro
      ? a.amountMicro > b.amountMicro
        ? -1
        : 1
      : a.platId - b.platId || (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0);
  holders.sort(order);
  const personAvgMicro = new Map<number, bigint>();
  const ranking = new Map<number, Array<{ uid: string; amountMicro: bigint }>>();
  for (const platId of LISTED) {
    const own = holders.filter((entry) => entry.platId === platId);
    const total = own.reduce((sum, entry) => sum + entry.amountMicro, 0n);
    personAvgMicro.set(platId, own.length > 0 ? total / BigInt(own.length) : 0n);
    ranking.set(
      platId,
      own.slice(0, CASHBACK.rankingSize).map(({ uid, amountMicro }) => ({ uid, amountMicro })),
    );
  }
  const fames = holders.slice(0, 9).map(({ platId, amountMicro }) => ({ platId, amountMicro }));
  return { fames, personAvgMicro, ranking, commissionShareBps: new Map() };
}

describe('public statistics ranked in the database', () => {
  it('equal a model of the postings: ranking, average per exchange and hall of fame', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(creditArb, { minLength: 0, maxLength: 60 }),
        fc.array(fc.integer({ min: 0, max: 14 }), { maxLength: 4 }),
        async (credits, takeBackUids) => {
          run += 1;
          // Each run ranks a window of its own, a hundred days after the last run's.
          const end = Date.parse('2026-01-01T00:00:00Z') + run * 100 * DAY_MS;
          const uidOf = (uid: number) => `S${run}U${String(uid).padStart(2, '0')}`;
          let key = 0;
          const journal = (
            kind: string,
            at: number,
            from: string,
            to: string,
            amount: bigint,
          ): JournalInput => ({
            kind,
            key: `statistics:${run}:${key++}`,
            at: new Date(at),
            lines: [
              { account: from, amount: -amount },
              { account: to, amount },
            ],
          });
          const journals = credits.map((credit) =>
            journal(
              'rebate',
              end - credit.ago,
              accountCode.commission(credit.platId),
              accountCode.cashback(credit.platId, uidOf(credit.uid)),
              credit.amount,
            ),
          );
          // A correction takes a UID's whole window back (a rebate journal the other way): it ranks no more.
          const takenBack = new Set<string>();
          const inWindow = new Map<string, bigint>();
          for (const credit of credits) {
            if (credit.ago > WINDOW_MS) continue;
            const id = `${credit.platId}:${credit.uid}`;
            inWindow.set(id, (inWindow.get(id) ?? 0n) + credit.amount);
          }
          for (const uid of takeBackUids) {
            const id = `1:${uid}`;
            const amount = inWindow.get(id);
            if (!amount || takenBack.has(id)) continue;
            takenBack.add(id);
            journals.push(
              journal('rebate', end, accountCode.cashback(1, uidOf(uid)), accountCode.commission(1), amount),
            );
          }
          // Paid out within the window: not cashback credited, it changes no figure. (Exchange 1's
          // UIDs may have been taken back to nothing; the others keep at least a credit.)
          for (const credit of credits.filter((credit) => credit.platId !== 1).slice(0, 5)) {
            journals.push(
              journal(
                'withdrawal',
                end,
                accountCode.cashback(credit.platId, uidOf(credit.uid)),
                accountCode.payout,
                1n,
              ),
            );
          }
          await ctx.db.transaction((tx) => postJournals(tx, journals));

          const figures = await cashbackStatistics(ctx.db, LISTED, new Date(end));
          const expected = model(credits, takenBack, uidOf);
          expect(figures.ranking).toEqual(expected.ranking);
          expect(figures.personAvgMicro).toEqual(expected.personAvgMicro);
          expect(figures.fames).toEqual(expected.fames);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('rank more holders than a page of ranking shows, and average over all of them', async () => {
    // After every window of the test above (a window is open towards the future).
    const end = Date.parse('2100-01-01T00:00:00Z');
    const journals: JournalInput[] = Array.from({ length: 25 }, (_, index) => ({
      kind: 'rebate',
      key: `statistics:many:${index}`,
      at: new Date(end - DAY_MS),
      lines: [
        { account: accountCode.commission(4), amount: -BigInt(index + 1) * 1_000_000n },
        {
          account: accountCode.cashback(4, `MANY${String(index).padStart(2, '0')}`),
          amount: BigInt(index + 1) * 1_000_000n,
        },
      ],
    }));
    await ctx.db.transaction((tx) => postJournals(tx, journals));

    const figures = await cashbackStatistics(ctx.db, [4], new Date(end));
    expect(figures.ranking.get(4)?.map((entry) => entry.uid)).toEqual(
      Array.from({ length: 10 }, (_, index) => `MANY${String(24 - index)}`),
    );
    // 1 + 2 + … + 25 USDT over 25 holders: 13 USDT.
    expect(figures.personAvgMicro.get(4)).toBe(13_000_000n);
    expect(figures.fames.map((fame) => fame.amountMicro)).toEqual(
      Array.from({ length: 9 }, (_, index) => BigInt(25 - index) * 1_000_000n),
    );
  });
});

describe('the catalog inside a transaction', () => {
  it('gives the cashback engine its partners without computing the public statistics', async () => {
    // A rebate import reads its partner in its own transaction: an executor the statistics have never
    // seen, for which the statistics would be computed first.
    const ranked = await ctx.db.transaction(async (tx) => {
      const deps = { db: tx, clock: ctx.clock };
      expect((await loadPartners(deps)).get(4)?.name).toBe('Bitget');
      // Computed figures are stored (statistics-cache.ts): none yet.
      const beforeIndex = (await selectPublicStatistics(tx)) !== undefined;
      // The public index shows them: they are computed then.
      await getExchangeIndexEnvelopeJson(deps, 'en');
      return { beforeIndex, afterIndex: (await selectPublicStatistics(tx)) !== undefined };
    });
    expect(ranked).toEqual({ beforeIndex: false, afterIndex: true });
  });
});
