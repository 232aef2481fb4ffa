/**
 * The console dashboard's money figures on a ledger of daily imports (issue 14), figures not verdicts.
 * A daily import books one journal per UID and day: BENCH_LEDGER_UIDS UIDs (default 17,604, the
 * bench:data file's) over BENCH_LEDGER_DAYS days (default 50) are 880,000 journals and 1.76 million
 * lines, posted a statement per page of BENCH_LEDGER_PAGE UIDs (default 5,000) as an import's pages
 * are, with a hundred withdrawals a day.
 * Measured, in BENCH_ROUNDS interleaved rounds (default 5), median (min–max):
 *  - the dashboard's accrued and paid cashback for 7, 30 and 90 days read from the sums the ledger keeps
 *    by day (`sumLinesByDayAndKind`) against the same figures summed from the lines (the statement it
 *    replaced, kept here as the baseline); both answers must be equal;
 *  - what the day sums' trigger costs a posting: one more day's journals in a rolled-back transaction,
 *    with the trigger and with it disabled;
 *  - housekeeping's fold of every day's rows, and the reads after it.
 * PostgreSQL on a scratch database when BENCH_DATABASE_URL names a server, else embedded PGlite (use
 * smaller sizes there); BENCH_KEEP=1 keeps the PostgreSQL database. `npm run bench:ledger-days -w @elex/bench`;
 * not part of `npm test`.
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client.js';
import { foldLedgerDaySumsBefore } from '../apps/server/src/modules/ledger/day-sums.js';
import { sumLinesByDayAndKind } from '../apps/server/src/read-models/console-reports.js';
import { postDay, seedAccounts, WITHDRAWALS_PER_DAY } from './daily-ledger.js';
import { fmt, scratchDatabase, shownMs, timed } from './scratch.js';
import { spread } from './spread.js';

const UIDS = Number(process.env.BENCH_LEDGER_UIDS ?? 17_604);
const DAYS = Number(process.env.BENCH_LEDGER_DAYS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DAY_MS = 24 * 60 * 60 * 1000;
const PERIODS = [7, 30, 90] as const;

/** The statement the dashboard ran before the day sums: every line of the period, joined and summed. */
async function sumFromLines(
  db: Database,
  filter: { accountKind: string; journalKind?: string; from: string; to: string },
) {
  const rows = (await db.execute(sql`
    select to_char(j.created_at at time zone 'UTC', 'YYYY-MM-DD') as day, sum(l.amount)::text as total
    from ledger_lines l
    join ledger_journals j on j.id = l.journal_id
    join ledger_accounts a on a.id = l.account_id
    where a.kind = ${filter.accountKind}
      ${filter.journalKind ? sql`and j.kind = ${filter.journalKind}` : sql``}
      and j.created_at >= ${filter.from}::date and j.created_at < ${filter.to}::date
    group by 1`)) as unknown as { rows: Array<{ day: string; total: string }> };
  return new Map(rows.rows.map((row) => [row.day, BigInt(row.total)]));
}

const sameMap = (a: Map<string, bigint>, b: Map<string, bigint>) =>
  a.size === b.size && [...a].every(([key, value]) => b.get(key) === value);

async function measureReads(db: Database, today: number, label: string) {
  for (const days of PERIODS) {
    const from = new Date(today - (days - 1) * DAY_MS).toISOString().slice(0, 10);
    const to = new Date(today + DAY_MS).toISOString().slice(0, 10);
    const kept: number[] = [];
    const lines: number[] = [];
    for (let round = 0; round < ROUNDS + 1; round += 1) {
      // Both figures the dashboard shows, as it asks them (one after the other here).
      const fromKept = await timed(async () => [
        await sumLinesByDayAndKind(db, { accountKind: 'cashback', journalKinds: ['rebate'], from, to }),
        await sumLinesByDayAndKind(db, { accountKind: 'payout', from, to }),
      ]);
      const fromLines = await timed(async () => [
        await sumFromLines(db, { accountKind: 'cashback', journalKind: 'rebate', from, to }),
        await sumFromLines(db, { accountKind: 'payout', from, to }),
      ]);
      if (
        !fromKept.value.every((map, index) => sameMap(map, fromLines.value[index] as Map<string, bigint>))
      ) {
        throw new Error(`the kept sums and the lines' differ for ${days} days`);
      }
      if (round === 0) continue; // warm-up
      kept.push(fromKept.ms);
      lines.push(fromLines.ms);
    }
    const ratio = spread(lines).median / spread(kept).median;
    console.log(
      `  ${label}, ${days} days: kept sums ${shownMs(kept)}, lines ${shownMs(lines)}; ${fmt(ratio)}x faster`,
    );
  }
}

/** One more day posted and rolled back, with the day sums' trigger and without it, in turns. */
async function measureTriggerCost(db: Database, day: number, start: Date) {
  const withTrigger: number[] = [];
  const without: number[] = [];
  class RolledBack extends Error {}
  const postRolledBack = async (enabled: boolean) => {
    let ms = 0;
    await db
      .transaction(async (tx) => {
        if (!enabled) await tx.execute(sql`alter table ledger_lines disable trigger ledger_lines_keep_days`);
        const started = performance.now();
        await postDay(tx as unknown as Database, UIDS, day, start);
        ms = performance.now() - started;
        throw new RolledBack();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      });
    return ms;
  };
  await postRolledBack(true);
  for (let round = 0; round < ROUNDS; round += 1) {
    withTrigger.push(await postRolledBack(true));
    without.push(await postRolledBack(false));
  }
  const ratio = spread(withTrigger).median / spread(without).median;
  console.log(
    `  posting a day (${fmt(UIDS + WITHDRAWALS_PER_DAY, 0)} journals, rolled back): with the trigger ${shownMs(withTrigger)}, without ${shownMs(without)}; ${fmt(ratio, 2)}x`,
  );
}

async function main() {
  const database = await scratchDatabase();
  const { db } = database;
  try {
    const now = new Date();
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const first = today - (DAYS - 1) * DAY_MS;
    console.log(
      `Ledger by day, ${database.label}: ${fmt(UIDS, 0)} UIDs x ${DAYS} days, load ${os.loadavg()[0]?.toFixed(1)}`,
    );
    await seedAccounts(db, UIDS, new Date(first));
    const seeded = performance.now();
    for (let day = 0; day < DAYS; day += 1)
      await postDay(db, UIDS, day, new Date(first + day * DAY_MS + 3_600_000));
    await db.execute(sql`analyze`);
    const counts = (await db.execute(sql`
      select (select count(*) from ledger_journals)::int as journals, (select count(*) from ledger_lines)::int as lines,
        (select count(*) from ledger_day_sums)::int as kept`)) as unknown as {
      rows: Array<{ journals: number; lines: number; kept: number }>;
    };
    const count = counts.rows[0];
    console.log(
      `  posted ${fmt(count?.journals ?? 0, 0)} journals, ${fmt(count?.lines ?? 0, 0)} lines in ${fmt((performance.now() - seeded) / 1000)} s; ${fmt(count?.kept ?? 0, 0)} day-sum rows`,
    );
    await measureReads(db, today, 'as posted');
    await measureTriggerCost(db, DAYS, new Date(today + DAY_MS + 3_600_000));
    const fold = await timed(async () => {
      let taken = 0;
      for (;;) {
        const batch = await foldLedgerDaySumsBefore(db, new Date(today + 2 * DAY_MS), 1000);
        taken += batch;
        if (batch < 1000) return taken;
      }
    });
    console.log(`  housekeeping's fold of every day: ${fmt(fold.value, 0)} rows in ${fmt(fold.ms)} ms`);
    await measureReads(db, today, 'folded');
  } finally {
    await database.close();
  }
}

await main();
