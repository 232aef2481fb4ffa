import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../cashback/cashback.repository.js';
import { type CashbackTestContext, createCashbackTestApp } from '../cashback/test-support.js';
import { checkLedgerInvariants } from './ledger.check.js';
import {
  accountCode,
  balanceOf,
  InsufficientBalanceError,
  type JournalInput,
  postJournals,
} from './ledger.service.js';

/**
 * Kept balances (docs/ledger.md): after random journals, posted in batches, some concurrently, some
 * repeated, some refused as overdrafts, every account's kept balance equals the sum of its lines and
 * a plain model of the postings, and ledger:check finds nothing. On PostgreSQL the concurrent batches
 * really run at once on separate connections.
 */
let ctx: CashbackTestContext;
beforeAll(async () => {
  ctx = await createCashbackTestApp();
});
afterAll(() => ctx.close());

const MEMBERS = ['cashback:1:KEPT0001', 'cashback:1:KEPT0002', 'cashback:4:KEPT0003'];
const SOURCES = [accountCode.commission(1), accountCode.commission(4), accountCode.rewardsExpense];

interface Move {
  from: number;
  to: number;
  amount: bigint;
  /** Take from a member account (may be refused) instead of paying one from a source. */
  debit: boolean;
  /** Reuse an earlier key: posts nothing. */
  repeat: boolean;
}

const moveArb: fc.Arbitrary<Move> = fc.record({
  from: fc.integer({ min: 0, max: 2 }),
  to: fc.integer({ min: 0, max: 2 }),
  amount: fc.bigInt({ min: 1n, max: 5_000_000n }),
  debit: fc.boolean(),
  repeat: fc.integer({ min: 0, max: 9 }).map((roll) => roll === 0),
});

let run = 0;

describe('kept balances', () => {
  it('equal the sum of the lines and a model of the postings, whatever the journals', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.array(fc.array(moveArb, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }),
          {
            minLength: 1,
            maxLength: 6,
          },
        ),
        async (rounds) => {
          run += 1;
          const codes = [...MEMBERS, ...SOURCES];
          const model = new Map<string, bigint>();
          for (const code of codes) model.set(code, await balanceOf(ctx.db, code));
          const booked: string[] = [];
          let next = 0;
          for (const round of rounds) {
            // The batches of a round go at once, each one transaction of postJournals; a repeated key
            // is one booked in an earlier round (it books nothing again).
            const batches = round.map((moves) => {
              const used = new Set<string>();
              return moves.flatMap((move): JournalInput[] => {
                const key =
                  move.repeat && booked.length > 0
                    ? (booked[move.from % booked.length] as string)
                    : `kept:${run}:${next++}`;
                if (used.has(key)) return [];
                used.add(key);
                const from = move.debit ? (MEMBERS[move.from] as string) : (SOURCES[move.from] as string);
                const to =
                  from === MEMBERS[move.to] ? (SOURCES[move.to] as string) : (MEMBERS[move.to] as string);
                return [
                  {
                    kind: 'rebate',
                    key,
                    at: ctx.clock.now(),
                    lines: [
                      { account: from, amount: -move.amount },
                      { account: to, amount: move.amount },
                    ],
                  },
                ];
              });
            });
            const outcomes = await Promise.allSettled(
              batches.map((journals) => ctx.db.transaction((tx) => postJournals(tx, journals))),
            );
            outcomes.forEach((outcome, index) => {
              if (outcome.status === 'rejected') {
                // Only an overdraft may refuse a batch, and then it books nothing.
                expect(outcome.reason).toBeInstanceOf(InsufficientBalanceError);
                return;
              }
              for (const journal of batches[index] ?? []) {
                if (booked.includes(journal.key)) continue;
                booked.push(journal.key);
                for (const line of journal.lines) {
                  model.set(line.account, (model.get(line.account) ?? 0n) + line.amount);
                }
              }
            });
          }
          const sums = new Map(
            rowsOf<{ code: string; total: string }>(
              await ctx.db.execute(sql`
                select a.code, coalesce(sum(l.amount), 0)::text as total
                from ledger_accounts a left join ledger_lines l on l.account_id = a.id
                group by a.code`),
            ).map((row) => [row.code, BigInt(row.total)]),
          );
          for (const code of codes) {
            const kept = await balanceOf(ctx.db, code);
            expect({ code, kept }).toEqual({ code, kept: model.get(code) });
            expect({ code, kept }).toEqual({ code, kept: sums.get(code) ?? 0n });
            if (MEMBERS.includes(code)) expect(kept >= 0n).toBe(true);
          }
          expect(await checkLedgerInvariants(ctx.db)).toEqual([]);
        },
      ),
      { numRuns: 15 },
    );
  }, 300_000);
});
