import { sql } from 'drizzle-orm';
import type { Executor, Transaction } from '../../db/client.js';
import { type KeptTable, type RebuiltFigures, rebuildKeptTable } from '../../db/kept-table.js';
import { rowsOf } from '../../db/rows.js';

/**
 * `ledger_day_sums` (ledger.tables.ts, migration 0061): the ledger's lines summed by the UTC day of
 * their journal, their account's kind and their journal's kind; `cashback_credit_days` (migration
 * 0063): the cashback credited by rebate journals per account and UTC day. The trigger adds a row per
 * key and posting statement to each; these compute the same sums from the lines, fold a past day's
 * rows, rebuild.
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

/** The credits from the lines: cashback accounts' lines of rebate journals, per account and day. */
export const CREDIT_DAYS_OF_LINES = sql`
  select (j.created_at at time zone 'UTC')::date as day, l.account_id, sum(l.amount) as amount
  from ledger_lines l
  join ledger_journals j on j.id = l.journal_id and j.kind = 'rebate'
  join ledger_accounts a on a.id = l.account_id and a.kind = 'cashback'
  group by 1, 2
  having sum(l.amount) <> 0`;

/** The kept credits summed per key (a key whose rows cancel out is no key, as in the lines' sums). */
export const CREDIT_DAYS_KEPT = sql`
  select day, account_id, sum(amount) as amount from cashback_credit_days
  group by 1, 2 having sum(amount) <> 0`;

const LEDGER_DAY_SUMS: KeptTable = {
  table: 'ledger_day_sums',
  columns: 'day, account_kind, journal_kind, amount, lines',
  fill: DAY_SUMS_OF_LINES,
  holds: DAY_SUMS_KEPT,
};

const CASHBACK_CREDIT_DAYS: KeptTable = {
  table: 'cashback_credit_days',
  columns: 'day, account_id, amount',
  fill: CREDIT_DAYS_OF_LINES,
  holds: CREDIT_DAYS_KEPT,
};

/**
 * Computes the kept day sums and credits again from the lines (`ops -- kept:rebuild`), in the caller's
 * transaction, with inserts of lines held off until it commits. Its own transaction, apart from the
 * records' and rewards' figures: a posting writes lines and then records or rewards, an import records
 * and then lines, so one transaction locking all three would deadlock with one or the other.
 */
export async function rebuildLedgerDaySums(tx: Transaction): Promise<RebuiltFigures[]> {
  await tx.execute(sql`lock table ledger_lines in share row exclusive mode`);
  return [await rebuildKeptTable(tx, LEDGER_DAY_SUMS), await rebuildKeptTable(tx, CASHBACK_CREDIT_DAYS)];
}

/**
 * Folds up to `limit` rows of days before `cutoff` (its UTC day) into one row per key of a table of
 * day deltas, for housekeeping: answers the rows taken (a batch under `limit` means nothing is left to
 * fold). The sums stay the same: the rows deleted and their sum inserted are one statement. Rows
 * another run holds are skipped.
 */
async function foldDaysBefore(
  db: Executor,
  kept: { table: string; keys: string[]; sums: string[] },
  cutoff: Date,
  limit: number,
): Promise<number> {
  const day = cutoff.toISOString().slice(0, 10);
  const table = sql.raw(kept.table);
  const keys = sql.raw(kept.keys.join(', '));
  const columns = sql.raw([...kept.keys, ...kept.sums].join(', '));
  const sums = sql.raw(kept.sums.map((column) => `sum(${column})`).join(', '));
  const sameKey = sql.raw(kept.keys.map((key) => `u.${key} = s2.${key}`).join(' and '));
  const keyOrder = sql.raw(kept.keys.map((key) => `s2.${key}`).join(', '));
  const result = await db.execute(sql`
    with unfolded as (
      select ${keys} from ${table} where day < ${day}::date group by ${keys} having count(*) > 1
    ), taken as (
      delete from ${table} s where s.id in (
        select s2.id from ${table} s2
        join unfolded u on ${sameKey}
        order by ${keyOrder}, s2.id
        limit ${limit} for update of s2 skip locked)
      returning ${columns}
    ), folded as (
      insert into ${table} (${columns}) select ${keys}, ${sums} from taken group by ${keys}
    )
    select count(*)::int as taken from taken`);
  return rowsOf<{ taken: number }>(result)[0]?.taken ?? 0;
}

/** Housekeeping's fold of `ledger_day_sums`: one row per day and kinds. */
export const foldLedgerDaySumsBefore = (db: Executor, cutoff: Date, limit: number) =>
  foldDaysBefore(
    db,
    { table: 'ledger_day_sums', keys: ['day', 'account_kind', 'journal_kind'], sums: ['amount', 'lines'] },
    cutoff,
    limit,
  );

/** Housekeeping's fold of `cashback_credit_days`: one row per day and account. */
export const foldCashbackCreditDaysBefore = (db: Executor, cutoff: Date, limit: number) =>
  foldDaysBefore(
    db,
    { table: 'cashback_credit_days', keys: ['day', 'account_id'], sums: ['amount'] },
    cutoff,
    limit,
  );
