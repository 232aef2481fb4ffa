import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { checkBindingInvariants } from '../bindings/bindings.check.js';
import { checkCorrectionInvariants } from '../corrections/corrections.check.js';
import { checkLedgerInvariants, describeRows, type InvariantProblem } from '../ledger/ledger.check.js';
import { checkPayoutInvariants } from '../payouts/payouts.check.js';
import { checkWithdrawalInvariants } from '../withdrawals/withdrawals.check.js';
import { inviteBonusAmount, rebateAmount } from './rebate-rule.js';

export type { InvariantProblem } from '../ledger/ledger.check.js';

const PAGE = 5000;

/**
 * Everything `npm run ops -- ledger:check` verifies (docs/ledger.md, "Invariants"): the ledger's own
 * invariants, then that the records and the ledger tell the same story. An empty list: all hold.
 */
export async function checkAllInvariants(db: Executor): Promise<InvariantProblem[]> {
  return [
    ...(await checkLedgerInvariants(db)),
    ...(await checkCashbackInvariants(db)),
    // Holds, payouts and returns match their withdrawals (docs/withdrawals.md, "Invariants").
    ...(await checkWithdrawalInvariants(db)),
    // On-chain payouts match the withdrawals they completed (docs/withdrawals.md, "On-chain payouts").
    ...(await checkPayoutInvariants(db)),
    // Operator corrections match their journals and the adjustments account (docs/ledger.md).
    ...(await checkCorrectionInvariants(db)),
    // One UID's bindings never overlap in time: its holders' histories are cut by them (docs/ledger.md).
    ...(await checkBindingInvariants(db)),
  ];
}

async function checkCashbackInvariants(db: Executor): Promise<InvariantProblem[]> {
  const problems: InvariantProblem[] = [];
  const report = <T>(invariant: string, rows: readonly T[], render: (row: T) => string) => {
    if (rows.length > 0) problems.push({ invariant, detail: describeRows(rows, render) });
  };

  report(
    'each completed rebate with cashback is credited by a rebate journal of its UID: the journal, named ' +
      "'rebate:<its first record>', moves the sum of its records from commission to that UID in two lines",
    rowsOf<{ id: string; journal: string | null }>(
      await db.execute(sql`
        with credited as (
          select journal_id, min(id) as first_id, min(plat_id) as plat_id, max(plat_id) as plat_max,
            min(uid) as uid, max(uid) as uid_max, sum(amount_micro) as amount,
            bool_and(status = 'completed' and amount_micro > 0) as all_credited
          from rebates where journal_id is not null group by journal_id
        )
        select c.first_id::text as id, c.journal_id::text as journal
        from credited c join ledger_journals j on j.id = c.journal_id
        left join lateral (
          select count(*) as lines,
            count(*) filter (where a.code = 'cashback:' || c.plat_id || ':' || c.uid and l.amount = c.amount) as to_uid,
            count(*) filter (where a.code = 'commission:' || c.plat_id and l.amount = -c.amount) as from_commission
          from ledger_lines l join ledger_accounts a on a.id = l.account_id where l.journal_id = j.id
        ) x on true
        where j.kind <> 'rebate' or j.idempotency_key <> 'rebate:' || c.first_id or not c.all_credited
          or c.plat_id <> c.plat_max or c.uid <> c.uid_max
          or x.lines <> 2 or x.to_uid <> 1 or x.from_commission <> 1
        union all
        select r.id::text, null from rebates r
        where r.status = 'completed' and r.amount_micro > 0 and r.journal_id is null
        order by 1`),
    ),
    (row) => `rebate ${row.id}${row.journal ? ` (journal ${row.journal})` : ': no journal'}`,
  );

  report(
    'no rebate journal without completed rebates with cashback (pending and failed records credit nothing)',
    rowsOf<{ id: string; key: string }>(
      await db.execute(sql`
        select j.id, j.idempotency_key as key
        from ledger_journals j
        where (j.kind = 'rebate' or j.idempotency_key like 'rebate:%')
          and not exists (select 1 from rebates r where r.journal_id = j.id)
        order by j.id`),
    ),
    (row) => `journal ${row.id} (${row.key})`,
  );

  report(
    'a completed rebate belongs to a UID in the roster',
    rowsOf<{ id: string; plat_id: number; uid: string }>(
      await db.execute(sql`
        select r.id, r.plat_id, r.uid from rebates r
        left join referrals f on f.plat_id = r.plat_id and f.uid = r.uid
        where r.status = 'completed' and f.id is null
        order by r.id`),
    ),
    (row) => `rebate ${row.id} (${row.plat_id}:${row.uid})`,
  );

  report(
    "each UID's kept totals (rebate_uid_totals) equal its records' count, trading volume and last " +
      'arrival, per status (the last arrival over all its statuses)',
    rowsOf<{ plat_id: number; uid: string; status: string }>(
      await db.execute(sql`
        with actual as (
          select plat_id, uid, status, count(*) as records, sum(trading_volume_micro) as volume
          from rebates group by plat_id, uid, status
        ), actual_last as (
          select plat_id, uid, max(created_at) as last_created_at from rebates group by plat_id, uid
        ), kept_last as (
          select plat_id, uid, max(last_created_at) as last_created_at from rebate_uid_totals group by plat_id, uid
        )
        select coalesce(a.plat_id, k.plat_id) as plat_id, coalesce(a.uid, k.uid) as uid,
          coalesce(a.status, k.status) as status
        from actual a full join rebate_uid_totals k
          on k.plat_id = a.plat_id and k.uid = a.uid and k.status = a.status
        where coalesce(a.records, 0) <> coalesce(k.records, 0)
          or coalesce(a.volume, 0) <> coalesce(k.trading_volume_micro, 0)
        union all
        select coalesce(a.plat_id, k.plat_id), coalesce(a.uid, k.uid), 'last arrival'
        from actual_last a full join kept_last k on k.plat_id = a.plat_id and k.uid = a.uid
        where a.last_created_at is distinct from k.last_created_at
        order by 1, 2, 3`),
    ),
    (row) => `${row.plat_id}:${row.uid} ${row.status}`,
  );

  report(
    "each UID's kept paid cashback per trading day (rebate_uid_days) equals the sum of its completed " +
      "records' amounts by the UTC day their periods start",
    rowsOf<{ plat_id: number; uid: string; day: string }>(
      await db.execute(sql`
        with actual as (
          select plat_id, uid, (period_start at time zone 'UTC')::date as day, sum(amount_micro) as amount
          from rebates where status = 'completed' and amount_micro > 0
          group by plat_id, uid, (period_start at time zone 'UTC')::date
        )
        select coalesce(a.plat_id, k.plat_id) as plat_id, coalesce(a.uid, k.uid) as uid,
          to_char(coalesce(a.day, k.day), 'YYYY-MM-DD') as day
        from actual a full join rebate_uid_days k on k.plat_id = a.plat_id and k.uid = a.uid and k.day = a.day
        where coalesce(a.amount, 0) <> coalesce(k.amount_micro, 0)
        order by 1, 2, 3`),
    ),
    (row) => `${row.plat_id}:${row.uid} ${row.day}`,
  );

  report(
    "each inviter's kept invite bonuses per friend (invite_bonus_totals) equal the sum of the invite " +
      'bonus rewards that friend earned them',
    rowsOf<{ inviter_id: string; friend_id: string }>(
      await db.execute(sql`
        with actual as (
          select user_id, source_user_id, sum(amount_micro) as amount from event_rewards
          where kind = 'inviteBonus' and source_user_id is not null group by user_id, source_user_id
        )
        select coalesce(a.user_id, k.inviter_id)::text as inviter_id,
          coalesce(a.source_user_id, k.friend_id)::text as friend_id
        from actual a full join invite_bonus_totals k
          on k.inviter_id = a.user_id and k.friend_id = a.source_user_id
        where coalesce(a.amount, 0) <> coalesce(k.amount_micro, 0)
        order by 1, 2`),
    ),
    (row) => `inviter ${row.inviter_id} friend ${row.friend_id}`,
  );

  report(
    "each friend's binding's kept invite bonuses per inviter (invite_bonus_binding_totals) equal the " +
      'invite bonus rewards that binding paid them: all of them, the part booked inside its ownership hold, and its end',
    rowsOf<{ binding_id: string; inviter_id: string }>(
      await db.execute(sql`
        with actual as (
          select binding_id, user_id, sum(amount_micro) as amount,
            coalesce(sum(amount_micro) filter (where hold_ends_at is not null), 0) as held,
            max(hold_ends_at) as hold_ends_at
          from event_rewards where kind = 'inviteBonus' and binding_id is not null group by binding_id, user_id
        )
        select coalesce(a.binding_id, k.binding_id)::text as binding_id,
          coalesce(a.user_id, k.inviter_id)::text as inviter_id
        from actual a full join invite_bonus_binding_totals k
          on k.binding_id = a.binding_id and k.inviter_id = a.user_id
        where coalesce(a.amount, 0) <> coalesce(k.amount_micro, 0)
          or coalesce(a.held, 0) <> coalesce(k.held_micro, 0)
          or a.hold_ends_at is distinct from k.hold_ends_at
        order by 1, 2`),
    ),
    (row) => `binding ${row.binding_id} inviter ${row.inviter_id}`,
  );

  report(
    "each member's kept count of event rewards (event_reward_counts) equals the rewards booked to them",
    rowsOf<{ user_id: string }>(
      await db.execute(sql`
        with actual as (select user_id, count(*) as rewards from event_rewards group by user_id)
        select coalesce(a.user_id, k.user_id)::text as user_id
        from actual a full join event_reward_counts k on k.user_id = a.user_id
        where coalesce(a.rewards, 0) <> coalesce(k.rewards, 0)
        order by 1`),
    ),
    (row) => `member ${row.user_id}`,
  );

  const offRule: string[] = [];
  for (let after = 0; ; ) {
    const page = rowsOf<{
      id: string;
      fee_micro: string;
      commission_micro: string;
      cash_rate_bps: number;
      amount_micro: string;
    }>(
      await db.execute(sql`
        select id, fee_micro, commission_micro, cash_rate_bps, amount_micro from rebates
        where status = 'completed' and id > ${after} order by id limit ${PAGE}`),
    );
    for (const row of page) {
      const expected = rebateAmount(BigInt(row.fee_micro), row.cash_rate_bps, BigInt(row.commission_micro));
      if (expected !== BigInt(row.amount_micro))
        offRule.push(`rebate ${row.id}: ${row.amount_micro}, rule ${expected}`);
    }
    if (page.length < PAGE) break;
    after = Number(page[page.length - 1]?.id);
  }
  report(
    'a completed rebate pays fee x the rate applied, floored, capped by the commission',
    offRule,
    (row) => row,
  );

  report(
    "each event reward is paid by its journal: a journal's rewards are one member's, of its kind, and " +
      'its two lines move their sum from rewards-expense to that member',
    rowsOf<{ id: string; key: string }>(
      await db.execute(sql`
        with paid as (
          select journal_key, min(id) as first_id, min(user_id) as user_id, max(user_id) as user_max,
            min(kind) as kind, max(kind) as kind_max, sum(amount_micro) as amount
          from event_rewards group by journal_key
        )
        select p.first_id::text as id, p.journal_key as key
        from paid p left join ledger_journals j on j.idempotency_key = p.journal_key
        left join lateral (
          select count(*) as lines,
            count(*) filter (where a.code = 'rewards:' || p.user_id and l.amount = p.amount) as to_member,
            count(*) filter (where a.code = 'rewards-expense' and l.amount = -p.amount) as from_expense
          from ledger_lines l join ledger_accounts a on a.id = l.account_id where l.journal_id = j.id
        ) x on true
        where j.id is null or j.kind <> p.kind or p.kind <> p.kind_max or p.user_id <> p.user_max
          or x.lines <> 2 or x.to_member <> 1 or x.from_expense <> 1
        order by p.first_id`),
    ),
    (row) => `event reward ${row.id} (${row.key})`,
  );

  report(
    'no reward journal without its event rewards',
    rowsOf<{ id: string; key: string }>(
      await db.execute(sql`
        select j.id, j.idempotency_key as key
        from ledger_journals j
        where j.kind = 'inviteBonus'
          and not exists (select 1 from event_rewards e where e.journal_key = j.idempotency_key)
        order by j.id`),
    ),
    (row) => `journal ${row.id} (${row.key})`,
  );

  const offBonus: string[] = [];
  for (let after = 0; ; ) {
    const page = rowsOf<{
      id: string;
      amount_micro: string;
      bonus_percent: number | null;
      status: string | null;
      rebate_amount: string | null;
    }>(
      await db.execute(sql`
        select e.id, e.amount_micro, e.bonus_percent, r.status, r.amount_micro as rebate_amount
        from event_rewards e left join rebates r on r.id = e.rebate_id
        where e.kind = 'inviteBonus' and e.id > ${after} order by e.id limit ${PAGE}`),
    );
    for (const row of page) {
      const expected =
        row.status === 'completed' && row.rebate_amount !== null && row.bonus_percent !== null
          ? inviteBonusAmount(BigInt(row.rebate_amount), row.bonus_percent)
          : null;
      if (expected === null || expected !== BigInt(row.amount_micro)) {
        offBonus.push(
          `event reward ${row.id}: ${row.amount_micro}, rule ${expected ?? 'no completed rebate'}`,
        );
      }
    }
    if (page.length < PAGE) break;
    after = Number(page[page.length - 1]?.id);
  }
  report(
    "an invite bonus is the percent booked of a completed rebate's cashback, floored",
    offBonus,
    (row) => row,
  );
  return problems;
}
