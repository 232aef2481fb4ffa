/**
 * The public statistics' background refresh on a ledger of daily imports (issue 14), figures not
 * verdicts. BENCH_STAT_UIDS UIDs (default 50,000) credited once a day for BENCH_STAT_DAYS days (default
 * 35: the 30-day window and days before it), posted as bench/daily-ledger.ts posts an import's pages.
 * Measured in BENCH_ROUNDS interleaved rounds (default 5) after a warm-up, median (min–max):
 *  - `cashbackStatistics` as the server runs it every 30 s per process: the ledger's credits ranked per
 *    exchange in the database, each exchange's first ten UIDs, count and total sent;
 *  - the baseline it replaced, kept here: the same sums per UID, every UID's row sent to the process
 *    and ranked there.
 * Both answers must agree (amounts, counts and averages; equal sums may list their UIDs apart).
 * Then the processes' sharing (statistics-cache.ts): a process that starts and ranks the window itself
 * (the lock, the ranking, the store) against one that takes what another stored a second before.
 * PostgreSQL on a scratch database when BENCH_DATABASE_URL names a server, else embedded PGlite (use
 * smaller sizes there); BENCH_KEEP=1 keeps the PostgreSQL database, BENCH_REUSE=<its url> measures it
 * again without posting. `npm run bench:statistics -w @elex/bench`; not part of `npm test`.
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client.js';
import { cashbackStatistics } from '../apps/server/src/modules/exchanges/cashback-statistics.js';
import { sumFeesAndCommissionsSince } from '../apps/server/src/modules/exchanges/exchanges.repository.js';
import { BITGET, postDay, seedAccounts } from './daily-ledger.js';
import { fmt, scratchDatabase, shownMs, timed } from './scratch.js';
import { spread } from './spread.js';

const UIDS = Number(process.env.BENCH_STAT_UIDS ?? 50_000);
const DAYS = Number(process.env.BENCH_STAT_DAYS ?? 35);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DAY_MS = 24 * 60 * 60 * 1000;
const WINDOW_DAYS = 30;
const LISTED = [1, 2, 3, BITGET];

type Db = Parameters<typeof cashbackStatistics>[0];

/** What the refresh computed before: every UID's 30-day sum sent over, ranked and averaged here. */
async function statisticsBefore(db: Db, now: Date) {
  const since = new Date(now.getTime() - WINDOW_DAYS * DAY_MS);
  // The statement the server ran before migration 0063, kept here as the baseline.
  const sums = (await db.execute(sql`
    select a.plat_id, a.uid, sum(l.amount)::text as total
    from ledger_lines l
    join ledger_journals j on j.id = l.journal_id
    join ledger_accounts a on a.id = l.account_id
    where j.kind = 'rebate' and a.kind = 'cashback' and j.created_at >= ${since}
    group by a.code, a.plat_id, a.uid`)) as unknown as {
    rows: Array<{ plat_id: number | null; uid: string | null; total: string }>;
  };
  const rows = sums.rows.map((row) => ({
    platId: row.plat_id === null ? null : Number(row.plat_id),
    uid: row.uid,
    total: BigInt(row.total),
  }));
  // The commission share is read as the server reads it now, so both sides pay for it.
  await sumFeesAndCommissionsSince(db, since);
  const credited = rows.filter((row) => row.platId !== null && row.uid !== null && row.total > 0n);
  const perExchange = new Map<number, bigint[]>();
  for (const row of credited) {
    const list = perExchange.get(row.platId as number) ?? [];
    list.push(row.total);
    perExchange.set(row.platId as number, list);
  }
  const descending = (a: bigint, b: bigint) => (a === b ? 0 : a > b ? -1 : 1);
  return {
    sent: rows.length,
    exchanges: LISTED.map((platId) => {
      const list = perExchange.get(platId) ?? [];
      const total = list.reduce((sum, amount) => sum + amount, 0n);
      return {
        average: list.length > 0 ? total / BigInt(list.length) : 0n,
        top: [...list].sort(descending).slice(0, 10),
      };
    }),
    fames: credited
      .map((row) => row.total)
      .sort(descending)
      .slice(0, 9),
  };
}

async function statisticsNow(db: Db, now: Date) {
  const figures = await cashbackStatistics(db, LISTED, now);
  return {
    exchanges: LISTED.map((platId) => ({
      average: figures.personAvgMicro.get(platId) ?? 0n,
      top: (figures.ranking.get(platId) ?? []).map((entry) => entry.amountMicro),
    })),
    fames: figures.fames.map((fame) => fame.amountMicro),
  };
}

async function main() {
  const reuse = process.env.BENCH_REUSE;
  const database = reuse
    ? await openDatabase({ kind: 'postgres', url: reuse, poolSize: 2 }).then((handle) => ({
        db: handle.db,
        label: 'PostgreSQL (BENCH_REUSE)',
        close: () => handle.close(),
      }))
    : await scratchDatabase();
  const { db } = database;
  try {
    const now = new Date();
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    if (!reuse) {
      const first = today - (DAYS - 1) * DAY_MS;
      await seedAccounts(db, UIDS, new Date(first));
      for (let day = 0; day < DAYS; day += 1)
        await postDay(db, UIDS, day, new Date(first + day * DAY_MS + 3_600_000));
      await db.execute(sql`analyze`);
    }
    const counted = (await db.execute(sql`
      select (select count(*) from ledger_journals where kind = 'rebate')::int as journals,
        (select count(*) from ledger_lines)::int as lines`)) as unknown as {
      rows: Array<{ journals: number; lines: number }>;
    };
    const counts = counted.rows[0];
    console.log(
      `Public statistics, ${database.label}: ${fmt(counts?.journals ?? 0, 0)} rebate journals, ${fmt(counts?.lines ?? 0, 0)} lines; load ${os.loadavg()[0]?.toFixed(1)}`,
    );
    const kept: number[] = [];
    const before: number[] = [];
    let sent = 0;
    for (let round = 0; round < ROUNDS + 1; round += 1) {
      const fromDatabase = await timed(() => statisticsNow(db, now));
      const fromProcess = await timed(() => statisticsBefore(db, now));
      const { sent: rows, ...baseline } = fromProcess.value;
      sent = rows;
      if (JSON.stringify(fromDatabase.value, bigints) !== JSON.stringify(baseline, bigints)) {
        throw new Error('the ranked statistics and the baseline differ');
      }
      if (round === 0) continue; // warm-up
      kept.push(fromDatabase.ms);
      before.push(fromProcess.ms);
    }
    const ratio = spread(before).median / spread(kept).median;
    console.log(`  ranked in the database: ${shownMs(kept)} (each exchange's first ten UIDs sent)`);
    console.log(`  every UID sent and ranked in the process: ${shownMs(before)} (${fmt(sent, 0)} rows sent)`);
    console.log(`  ${fmt(ratio, 2)}x; load ${os.loadavg()[0]?.toFixed(1)}`);
    await measureStart(db, now);
  } finally {
    await database.close();
  }
}

type StatisticsCache = typeof import('../apps/server/src/modules/exchanges/statistics-cache.js');

/** A copy of the statistics cache with its own state, as a second process has. */
const processCopy = (name: string): Promise<StatisticsCache> =>
  import(`../apps/server/src/modules/exchanges/statistics-cache.js?process=${name}`);

/**
 * What a process that starts pays for its first figures: ranking them itself when none stored are
 * fresh (the lock, the ranking, the store), or reading the ones another process stored a second ago.
 */
async function measureStart(db: Db, now: Date) {
  const computed: number[] = [];
  const stored: number[] = [];
  let clock = now.getTime();
  for (let round = 0; round < ROUNDS + 1; round += 1) {
    const computing = await processCopy(`${round}-computes`);
    clock += 10 * computing.STATISTICS_TTL_MS;
    const own = await timed(() => computing.servedStatistics(db, LISTED, new Date(clock)));
    const taking = await processCopy(`${round}-takes`);
    const taken = await timed(() => taking.servedStatistics(db, LISTED, new Date(clock + 1_000)));
    if (JSON.stringify(own.value.value, bigints) !== JSON.stringify(taken.value.value, bigints)) {
      throw new Error('the stored statistics differ from the computed ones');
    }
    if (round === 0) continue; // warm-up
    computed.push(own.ms);
    stored.push(taken.ms);
  }
  console.log(`  a process that starts, ranking them itself and storing them: ${shownMs(computed)}`);
  console.log(
    `  a process that starts, taking what another stored a second before: ${shownMs(stored)} (${fmt(spread(computed).median / spread(stored).median, 1)}x)`,
  );
}

const bigints = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);

await main();
