import { sql } from 'drizzle-orm';
import type { Executor, Transaction } from '../../db/client.js';
import { type KeptTable, type RebuiltFigures, rebuildKeptTable } from '../../db/kept-table.js';
import { rowsOf } from '../../db/rows.js';

/**
 * `ledger_day_sums` (ledger.tables.ts, migration 0061): the ledger's lines summed by the UTC day of
 * their journal, their account's kind and their journal's kind. The trigger adds a row per key and
 * posting statement; these compute the same sums from the lines, fold a past day's rows, rebuild.
 */

/** The sums from the lines themselves: what the trigger keeps, what `ledger:check` compares. */
export const DAY_SUMS_OF_LINES = sql`
  select (j.created_at at time zone 'UTC')::date as day, a.kind as account_kind, j.kind as journal_kind,
    sum(l.amount) as amount, count(*) as lines
  from ledger_lines l
  join ledger_journals j on j.id = l.journal_id
  join ledger_accounts a on a.id = l.account_id
  group by 1, 2, 3`;

/** The kept rows summed per key: several rows a key until housekeeping folds them. */
export const DAY_SUMS_KEPT = sql`
  select day, account_kind, journal_kind, sum(amount) as amount, sum(lines) as lines
  from ledger_day_sums group by 1, 2, 3`;

const LEDGER_DAY_SUMS: KeptTable = {
  table: 'ledger_day_sums',
  columns: 'day, account_kind, journal_kind, amount, lines',
  fill: DAY_SUMS_OF_LINES,
  holds: DAY_SUMS_KEPT,
};

/**
 * Computes the kept day sums again from the lines (`ops -- kept:rebuild`), in the caller's
 * transaction, with inserts of lines held off until it commits. Its own transaction, apart from the
 * records' and rewards' figures: a posting writes lines and then records or rewards, an import records
 * and then lines, so one transaction locking all three would deadlock with one or the other.
 */
export async function rebuildLedgerDaySums(tx: Transaction): Promise<RebuiltFigures> {
  await tx.execute(sql`lock table ledger_lines in share row exclusive mode`);
  return rebuildKeptTable(tx, LEDGER_DAY_SUMS);
}

/**
 * Folds up to `limit` rows of days before `cutoff` (its UTC day) into one row per key, for housekeeping:
 * answers the rows taken (a batch under `limit` means nothing is left to fold). The sums stay the same:
 * the rows deleted and their sum inserted are one statement. Rows another run holds are skipped.
 */
export async function foldLedgerDaySumsBefore(db: Executor, cutoff: Date, limit: number): Promise<number> {
  const day = cutoff.toISOString().slice(0, 10);
  const result = await db.execute(sql`
    with unfolded as (
      select day, account_kind, journal_kind from ledger_day_sums
      where day < ${day}::date group by 1, 2, 3 having count(*) > 1
    ), taken as (
      delete from ledger_day_sums s where s.id in (
        select s2.id from ledger_day_sums s2
        join unfolded u on u.day = s2.day and u.account_kind = s2.account_kind and u.journal_kind = s2.journal_kind
        order by s2.day, s2.account_kind, s2.journal_kind, s2.id
        limit ${limit} for update of s2 skip locked)
      returning day, account_kind, journal_kind, amount, lines
    ), folded as (
      insert into ledger_day_sums (day, account_kind, journal_kind, amount, lines)
      select day, account_kind, journal_kind, sum(amount), sum(lines) from taken group by 1, 2, 3
    )
    select count(*)::int as taken from taken`);
  return rowsOf<{ taken: number }>(result)[0]?.taken ?? 0;
}
