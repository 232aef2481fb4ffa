import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { describeRows, type InvariantProblem } from '../ledger/ledger.check.js';

/** The triggers that decide a correction once (migration `corrections`). */
const CORRECTION_TRIGGERS = ['corrections_decide_once', 'corrections_no_truncate'] as const;

/**
 * The corrections and the ledger tell the same story (docs/ledger.md, "Invariants", 8):
 *
 * 1. each posted correction has exactly one journal `correction:<id>` (kind `correction`, the one its
 *    row names) of two lines: its signed amount into the member's account, the opposite out of
 *    `adjustments`;
 * 2. a pending or rejected correction has no journal;
 * 3. no correction journal, and no line on `adjustments`, without its posted correction;
 * 4. `adjustments` holds minus the sum of the posted corrections;
 * 5. the decide-once triggers are in place.
 */
export async function checkCorrectionInvariants(db: Executor): Promise<InvariantProblem[]> {
  const problems: InvariantProblem[] = [];
  const report = <T>(invariant: string, rows: readonly T[], render: (row: T) => string) => {
    if (rows.length > 0) problems.push({ invariant, detail: describeRows(rows, render) });
  };

  report(
    'each posted correction has exactly one balanced journal: its amount into the member’s account, out of adjustments',
    rowsOf<{ id: string; journal: string | null }>(
      await db.execute(sql`
        select c.id, j.id as journal
        from corrections c
        left join ledger_journals j on j.idempotency_key = 'correction:' || c.id
        left join ledger_lines l on l.journal_id = j.id
        left join ledger_accounts a on a.id = l.account_id
        where c.status = 'posted'
        group by c.id, j.id, j.kind
        having j.id is null or j.kind <> 'correction' or j.id is distinct from c.journal_id
          or count(l.id) <> 2
          or count(*) filter (where a.code = c.account_code and l.amount = c.amount_micro) <> 1
          or count(*) filter (where a.code = 'adjustments' and l.amount = -c.amount_micro) <> 1
        order by c.id`),
    ),
    (row) => `correction ${row.id}${row.journal ? ` (journal ${row.journal})` : ': no journal'}`,
  );

  report(
    'a pending or rejected correction has no journal',
    rowsOf<{ id: string; status: string }>(
      await db.execute(sql`
        select c.id, c.status from corrections c
        where c.status <> 'posted' and (c.journal_id is not null
          or exists (select 1 from ledger_journals j where j.idempotency_key = 'correction:' || c.id))
        order by c.id`),
    ),
    (row) => `correction ${row.id} (${row.status})`,
  );

  report(
    'every correction journal and every line on adjustments belongs to a posted correction',
    rowsOf<{ id: string; key: string }>(
      await db.execute(sql`
        select distinct j.id, j.idempotency_key as key
        from ledger_journals j
        left join ledger_lines l on l.journal_id = j.id
        left join ledger_accounts a on a.id = l.account_id
        left join corrections c on 'correction:' || c.id = j.idempotency_key and c.status = 'posted'
        where (j.kind = 'correction' or j.idempotency_key like 'correction:%' or a.code = 'adjustments')
          and c.id is null
        order by j.id`),
    ),
    (row) => `journal ${row.id} (${row.key})`,
  );

  const [totals] = rowsOf<{ posted: string; adjustments: string }>(
    await db.execute(sql`
      select
        (select coalesce(sum(amount_micro), 0) from corrections where status = 'posted') as posted,
        (select coalesce(sum(l.amount), 0) from ledger_lines l
          join ledger_accounts a on a.id = l.account_id where a.code = 'adjustments') as adjustments`),
  );
  if (totals && BigInt(totals.adjustments) !== -BigInt(totals.posted)) {
    problems.push({
      invariant: 'adjustments holds minus the sum of the posted corrections',
      detail: `adjustments ${totals.adjustments}, posted corrections ${totals.posted}`,
    });
  }

  const present = new Set(
    rowsOf<{ name: string }>(
      await db.execute(
        sql`select tgname as name from pg_trigger where not tgisinternal and tgenabled <> 'D'`,
      ),
    ).map((row) => row.name),
  );
  const missing = CORRECTION_TRIGGERS.filter((name) => !present.has(name));
  if (missing.length > 0) {
    problems.push({
      invariant: 'the database decides a correction once (triggers)',
      detail: `missing or disabled: ${missing.join(', ')}`,
    });
  }
  return problems;
}
