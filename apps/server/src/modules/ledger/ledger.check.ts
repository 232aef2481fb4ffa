import { asc, gt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { parseAccountCode } from './accounts.js';
import { CREDIT_DAYS_KEPT, CREDIT_DAYS_OF_LINES, DAY_SUMS_KEPT, DAY_SUMS_OF_LINES } from './day-sums.js';
import { ledgerAccounts } from './ledger.tables.js';

/** One broken invariant: which, and where (a few examples and a count). */
export interface InvariantProblem {
  invariant: string;
  detail: string;
}

const EXAMPLES = 10;

export function describeRows<T>(rows: readonly T[], render: (row: T) => string): string {
  const shown = rows.slice(0, EXAMPLES).map(render);
  return `${rows.length} found: ${shown.join('; ')}${rows.length > EXAMPLES ? '; ...' : ''}`;
}

/** The triggers that make the ledger append-only and balanced (migration 0007_ledger_append_only). */
const LEDGER_TRIGGERS = [
  'ledger_accounts_append_only',
  'ledger_accounts_no_truncate',
  'ledger_journals_append_only',
  'ledger_journals_no_truncate',
  'ledger_lines_append_only',
  'ledger_lines_no_truncate',
  'ledger_lines_balanced',
  'ledger_lines_keep_days',
  'ledger_journals_balanced',
  'event_rewards_append_only',
  'event_rewards_no_truncate',
  'rebates_settle_once',
  'rebates_no_truncate',
  // A record names an exchange and a journal that exist, and an exchange its records name stays
  // (migration 0049: statement triggers instead of the two foreign keys, which could not be disabled
  // without a superuser; these can, so the check says when one is).
  'rebates_references_insert',
  'rebates_references_update',
  'exchanges_keep_rebates_delete',
  'exchanges_keep_rebates_renumber',
] as const;

/**
 * The invariants of the ledger itself (docs/ledger.md): every journal has two or more lines summing
 * to zero, no line is zero, every account code is well-formed, no member-facing account is or ever
 * was negative (replaying its lines in order), all lines sum to zero, every account's kept balance is
 * the sum of its lines, the sums kept by day and the cashback credits kept per account and day equal
 * the lines', and the database's protections are in place. Answers the broken ones; an empty list
 * means the ledger is sound.
 */
export async function checkLedgerInvariants(db: Executor): Promise<InvariantProblem[]> {
  const problems: InvariantProblem[] = [];

  const unbalanced = rowsOf<{ id: string; key: string; lines: string; total: string }>(
    await db.execute(sql`
      select j.id, j.idempotency_key as key, count(l.id) as lines, coalesce(sum(l.amount), 0) as total
      from ledger_journals j left join ledger_lines l on l.journal_id = j.id
      group by j.id having count(l.id) < 2 or coalesce(sum(l.amount), 0) <> 0
      order by j.id`),
  );
  if (unbalanced.length > 0) {
    problems.push({
      invariant: 'every journal has two or more lines summing to zero',
      detail: describeRows(
        unbalanced,
        (row) => `journal ${row.id} (${row.key}): ${row.lines} lines, sum ${row.total}`,
      ),
    });
  }

  const zero = rowsOf<{ id: string }>(await db.execute(sql`select id from ledger_lines where amount = 0`));
  if (zero.length > 0) {
    problems.push({
      invariant: 'no line moves zero',
      detail: describeRows(zero, (row) => `line ${row.id}`),
    });
  }

  const total = rowsOf<{ total: string }>(
    await db.execute(sql`select coalesce(sum(amount), 0) as total from ledger_lines`),
  );
  if (BigInt(total[0]?.total ?? '0') !== 0n) {
    problems.push({ invariant: 'all lines together sum to zero', detail: `sum ${total[0]?.total}` });
  }

  const malformed: string[] = [];
  let after = 0;
  for (;;) {
    const page = await db
      .select()
      .from(ledgerAccounts)
      .where(gt(ledgerAccounts.id, after))
      .orderBy(asc(ledgerAccounts.id))
      .limit(5000);
    for (const account of page) {
      const parsed = parseAccountCode(account.code);
      if (
        !parsed ||
        parsed.kind !== account.kind ||
        parsed.platId !== account.platId ||
        parsed.uid !== account.uid ||
        parsed.userId !== account.userId ||
        parsed.referenceId !== account.referenceId
      ) {
        malformed.push(account.code);
      }
    }
    if (page.length < 5000) break;
    after = page[page.length - 1]?.id ?? after;
  }
  if (malformed.length > 0) {
    problems.push({
      invariant: 'every account code is well-formed and matches its parts',
      detail: describeRows(malformed, (code) => code),
    });
  }

  const overdrawn = rowsOf<{ code: string; lowest: string; balance: string }>(
    await db.execute(sql`
      select code, min(running) as lowest, (array_agg(running order by line_id desc))[1] as balance
      from (
        select a.code, l.id as line_id,
          sum(l.amount) over (partition by l.account_id order by l.id) as running
        from ledger_lines l join ledger_accounts a on a.id = l.account_id
        where a.kind in ('cashback', 'rewards', 'hold')
      ) replay
      group by code having min(running) < 0
      order by code`),
  );
  if (overdrawn.length > 0) {
    problems.push({
      invariant: 'member-facing accounts (cashback, rewards, hold) never go negative',
      detail: describeRows(overdrawn, (row) => `${row.code}: lowest ${row.lowest}, now ${row.balance}`),
    });
  }

  // Streams the lines once, grouped by account: fine at millions of lines.
  const drifted = rowsOf<{ code: string; kept: string; sum: string }>(
    await db.execute(sql`
      select a.code, a.balance as kept, coalesce(s.total, 0) as sum
      from ledger_accounts a
      left join (select account_id, sum(amount) as total from ledger_lines group by account_id) s
        on s.account_id = a.id
      where a.balance <> coalesce(s.total, 0)
      order by a.code`),
  );
  if (drifted.length > 0) {
    problems.push({
      invariant: "every account's kept balance equals the sum of its lines",
      detail: describeRows(drifted, (row) => `${row.code}: kept ${row.kept}, lines sum to ${row.sum}`),
    });
  }

  // Both sides grouped by key: the kept table holds several rows a key until housekeeping folds them.
  const daysOff = rowsOf<{ day: string; account: string; journal: string; kept: string; sum: string }>(
    await db.execute(sql`
      with actual as (${DAY_SUMS_OF_LINES}), kept as (${DAY_SUMS_KEPT})
      select to_char(coalesce(a.day, k.day), 'YYYY-MM-DD') as day,
        coalesce(a.account_kind, k.account_kind) as account, coalesce(a.journal_kind, k.journal_kind) as journal,
        coalesce(k.amount, 0) || ' in ' || coalesce(k.lines, 0) || ' lines' as kept,
        coalesce(a.amount, 0) || ' in ' || coalesce(a.lines, 0) || ' lines' as sum
      from actual a full join kept k
        on k.day = a.day and k.account_kind = a.account_kind and k.journal_kind = a.journal_kind
      where a.amount is distinct from k.amount or a.lines is distinct from k.lines
      order by 1, 2, 3`),
  );
  if (daysOff.length > 0) {
    problems.push({
      invariant:
        "the ledger's kept sums by day, account kind and journal kind (ledger_day_sums) equal its lines'",
      detail: describeRows(
        daysOff,
        (row) => `${row.day} ${row.account}/${row.journal}: kept ${row.kept}, lines ${row.sum}`,
      ),
    });
  }

  const creditsOff = rowsOf<{ day: string; account: string; kept: string; sum: string }>(
    await db.execute(sql`
      with actual as (${CREDIT_DAYS_OF_LINES}), kept as (${CREDIT_DAYS_KEPT})
      select to_char(coalesce(a.day, k.day), 'YYYY-MM-DD') as day, acc.code as account,
        coalesce(k.amount, 0)::text as kept, coalesce(a.amount, 0)::text as sum
      from actual a full join kept k on k.day = a.day and k.account_id = a.account_id
      left join ledger_accounts acc on acc.id = coalesce(a.account_id, k.account_id)
      where a.amount is distinct from k.amount
      order by 1, 2`),
  );
  if (creditsOff.length > 0) {
    problems.push({
      invariant:
        "the cashback credited by rebate journals kept per account and day (cashback_credit_days) equals the lines'",
      detail: describeRows(
        creditsOff,
        (row) => `${row.day} ${row.account ?? 'an unknown account'}: kept ${row.kept}, lines ${row.sum}`,
      ),
    });
  }

  const present = new Set(
    rowsOf<{ name: string }>(
      await db.execute(
        sql`select tgname as name from pg_trigger where not tgisinternal and tgenabled <> 'D'`,
      ),
    ).map((row) => row.name),
  );
  const missing = LEDGER_TRIGGERS.filter((name) => !present.has(name));
  if (missing.length > 0) {
    problems.push({
      invariant: 'the database refuses changes to ledger rows and unbalanced journals (triggers)',
      detail: `missing or disabled: ${missing.join(', ')}`,
    });
  }
  return problems;
}
