import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { describeRows, type InvariantProblem } from '../ledger/ledger.check.js';

/** Rows of a raw query on either driver (node-postgres and PGlite both answer `{ rows }`). */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** The triggers that decide a withdrawal once (migration 0011_withdrawals). */
const WITHDRAWAL_TRIGGERS = ['withdrawals_decide_once', 'withdrawals_no_truncate'] as const;

/**
 * The withdrawals and the ledger tell the same story (docs/withdrawals.md, "Invariants"):
 *
 * 1. every withdrawal has one hold journal: its amount into `hold:<id>`, its cashback part out of the
 *    UID's cashback, its rewards part out of the member's rewards, nothing else;
 * 2. a pending one holds its amount and has no other journal; a completed one has one payout journal
 *    (hold -> payout) and no release; a failed or cancelled one has one release journal that mirrors
 *    the hold exactly and no payout; a decided one holds nothing;
 * 3. no withdrawal journal or hold account without its withdrawal; `payout` is the sum of completed
 *    withdrawals;
 * 4. the decide-once triggers are in place.
 *
 * Answers the broken ones; an empty list means they all hold.
 */
export async function checkWithdrawalInvariants(db: Executor): Promise<InvariantProblem[]> {
  const problems: InvariantProblem[] = [];
  const report = <T>(invariant: string, rows: readonly T[], render: (row: T) => string) => {
    if (rows.length > 0) problems.push({ invariant, detail: describeRows(rows, render) });
  };

  // Each journal's lines as (account code -> amount), one row per withdrawal and movement.
  const movements = sql`
    select w.id, w.status, w.amount_micro, w.cashback_micro, w.rewards_micro,
      'cashback:' || w.plat_id || ':' || w.uid as cashback_code, 'rewards:' || w.user_id as rewards_code,
      'hold:' || w.id as hold_code, m.movement, j.id as journal_id, j.kind,
      count(l.id) as lines,
      coalesce(sum(l.amount) filter (where a.code = 'hold:' || w.id), 0) as to_hold,
      coalesce(sum(l.amount) filter (where a.code = 'cashback:' || w.plat_id || ':' || w.uid), 0) as to_cashback,
      coalesce(sum(l.amount) filter (where a.code = 'rewards:' || w.user_id), 0) as to_rewards,
      coalesce(sum(l.amount) filter (where a.code = 'payout'), 0) as to_payout,
      count(l.id) filter (where a.code not in ('hold:' || w.id, 'cashback:' || w.plat_id || ':' || w.uid,
        'rewards:' || w.user_id, 'payout')) as elsewhere
    from withdrawals w
    cross join (values ('hold'), ('payout'), ('release')) as m(movement)
    left join ledger_journals j on j.idempotency_key = 'withdrawal:' || w.id || ':' || m.movement
    left join ledger_lines l on l.journal_id = j.id
    left join ledger_accounts a on a.id = l.account_id
    group by w.id, m.movement, j.id, j.kind`;

  report(
    'each withdrawal has one hold journal: its amount into hold:<id>, its cashback part from the UID, its rewards part from the member',
    rowsOf<{ id: string; journal_id: string | null }>(
      await db.execute(sql`
        select id, journal_id from (${movements}) x
        where movement = 'hold' and (journal_id is null or kind <> 'withdrawalHold' or elsewhere <> 0
          or to_hold <> amount_micro or to_cashback <> -cashback_micro or to_rewards <> -rewards_micro
          or to_payout <> 0)
        order by id`),
    ),
    (row) => `withdrawal ${row.id}${row.journal_id ? ` (journal ${row.journal_id})` : ': no hold journal'}`,
  );

  report(
    'a completed withdrawal has one payout journal (hold -> payout), others none',
    rowsOf<{ id: string; status: string }>(
      await db.execute(sql`
        select id, status from (${movements}) x
        where movement = 'payout' and (
          (status = 'completed' and (journal_id is null or kind <> 'withdrawalPayout' or lines <> 2
            or to_hold <> -amount_micro or to_payout <> amount_micro))
          or (status <> 'completed' and journal_id is not null))
        order by id`),
    ),
    (row) => `withdrawal ${row.id} (${row.status})`,
  );

  report(
    'a failed or cancelled withdrawal has one release journal returning each part exactly, others none',
    rowsOf<{ id: string; status: string }>(
      await db.execute(sql`
        select id, status from (${movements}) x
        where movement = 'release' and (
          (status in ('failed', 'cancelled') and (journal_id is null or kind <> 'withdrawalRelease'
            or elsewhere <> 0 or to_payout <> 0 or to_hold <> -amount_micro
            or to_cashback <> cashback_micro or to_rewards <> rewards_micro))
          or (status not in ('failed', 'cancelled') and journal_id is not null))
        order by id`),
    ),
    (row) => `withdrawal ${row.id} (${row.status})`,
  );

  report(
    'a pending withdrawal holds its amount; a decided one holds nothing',
    rowsOf<{ id: string; status: string; held: string }>(
      await db.execute(sql`
        select w.id, w.status, coalesce(sum(l.amount), 0) as held
        from withdrawals w
        left join ledger_accounts a on a.code = 'hold:' || w.id
        left join ledger_lines l on l.account_id = a.id
        group by w.id
        having coalesce(sum(l.amount), 0) <> case when w.status = 'pending' then w.amount_micro else 0 end
        order by w.id`),
    ),
    (row) => `withdrawal ${row.id} (${row.status}) holds ${row.held}`,
  );

  report(
    'no withdrawal journal or hold account without its withdrawal',
    rowsOf<{ what: string }>(
      await db.execute(sql`
        select 'journal ' || j.idempotency_key as what from ledger_journals j
        left join withdrawals w on j.idempotency_key in
          ('withdrawal:' || w.id || ':hold', 'withdrawal:' || w.id || ':payout', 'withdrawal:' || w.id || ':release')
        where (j.kind like 'withdrawal%' or j.idempotency_key like 'withdrawal:%') and w.id is null
        union all
        select 'account ' || a.code from ledger_accounts a
        left join withdrawals w on w.id = a.reference_id
        where a.kind = 'hold' and w.id is null
        order by 1`),
    ),
    (row) => row.what,
  );

  const payout = rowsOf<{ paid: string; completed: string }>(
    await db.execute(sql`
      select
        (select coalesce(sum(l.amount), 0) from ledger_lines l
          join ledger_accounts a on a.id = l.account_id where a.code = 'payout') as paid,
        (select coalesce(sum(amount_micro), 0) from withdrawals where status = 'completed') as completed`),
  )[0];
  if (payout && BigInt(payout.paid) !== BigInt(payout.completed)) {
    problems.push({
      invariant: 'the payout account holds exactly the completed withdrawals',
      detail: `payout ${payout.paid}, completed withdrawals ${payout.completed}`,
    });
  }

  const present = new Set(
    rowsOf<{ name: string }>(
      await db.execute(
        sql`select tgname as name from pg_trigger where not tgisinternal and tgenabled <> 'D'`,
      ),
    ).map((row) => row.name),
  );
  const missing = WITHDRAWAL_TRIGGERS.filter((name) => !present.has(name));
  if (missing.length > 0) {
    problems.push({
      invariant: 'the database lets a withdrawal be decided once and never removed (triggers)',
      detail: `missing or disabled: ${missing.join(', ')}`,
    });
  }
  return problems;
}
