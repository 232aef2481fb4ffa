import { OWNERSHIP } from '@elex/contract';
import type { Executor } from '../db/client.js';
import { queryText } from '../db/prepared.js';

/** OWNERSHIP.holdDays in hours: an interval of days would follow the session's time zone. */
const HOLD = `interval '${OWNERSHIP.holdDays * 24} hours'`;

/**
 * The invite bonuses an inviter may not withdraw yet (docs/withdrawals.md, "Invite bonuses wait for
 * their friend's ownership check"), per binding that paid them: `release` is when they are freed, null
 * while a dispute holds them. Settlement records on each bonus the friend's binding and, when it was
 * booked inside that binding's ownership hold, the hold's end (`hold_ends_at`). Held are:
 * - by time: bonuses whose hold is still ahead, unless their binding has been confirmed since;
 * - by a dispute on the binding's UID that was opened inside its hold and before any confirmation of
 *   it, against a binding live when it was opened or made while it was open: every bonus of that
 *   binding while the dispute is open; and, once it is decided, for the hold's length after the
 *   decision for a binding that ended while it was open (moved to the owner, or its holder left): the
 *   operator's time to take them back by a correction. A binding that outlived the decision (the holder
 *   kept, or the owner's new one) is free at once. A dispute opened later freezes nothing that was
 *   booked before it: those bonuses were already free, maybe already withdrawn;
 * - by the disputes open on the UID when the bonus was booked (`event_rewards.dispute_ids`, whatever
 *   the binding's age or confirmation): while any of them is open, and after the decisions as above
 *   (each bonus once, however many disputes name it). The squatter's inviter earns nothing
 *   withdrawable from a frozen UID's records.
 * A binding held by its dispute in the second way is counted there (all its bonuses), not again here.
 * Both read the sums kept per binding and inviter (`invite_bonus_binding_totals`: all its bonuses, the
 * part booked inside its hold, the hold's end), not the bonuses: a new inviter with a hundred thousand
 * bonuses in their friends' holds costs a row per friend's binding. The dispute branch starts from the
 * disputes (open ones by `support_requests_open_disputes_idx`, recently decided ones by
 * `support_requests_decided_disputes_idx`), which are few, fenced so the planner cannot start from the
 * inviter's bindings; a member never paid a bonus from a binding skips it.
 * A binding in both counts once, as disputed (that branch holds all its bonuses).
 * `$1` is the inviter, `$2` now.
 */
const HELD_BY_BINDING = `
  with disputes as materialized (
    select s.id, s.plat_id, s.uid, s.created_at, null::timestamptz as closed_at
    from support_requests s
    where s.kind = 'uidBoundByOther' and s.status <> 'closed'
    union all
    select s.id, s.plat_id, s.uid, s.created_at, s.closed_at
    from support_requests s
    where s.kind = 'uidBoundByOther' and s.closed_at > $2::timestamptz - ${HOLD}
  ),
  -- Most members were never paid a bonus: they skip the disputes (one probe of the kept sums).
  inviter as (
    select exists (select 1 from invite_bonus_binding_totals where inviter_id = $1::bigint) as paid
  ),
  disputed as materialized (
    select b.id as binding_id,
      case when bool_or(d.closed_at is null) then null else max(d.closed_at) + ${HOLD} end as release
    from disputes d
    join inviter on inviter.paid
    cross join lateral (
      select b.id
      from exchange_bindings b
      where b.plat_id = d.plat_id and b.uid = d.uid and b.bound_at + ${HOLD} > d.created_at
        and (b.ownership_verified_at is null or b.ownership_verified_at > d.created_at)
        and (b.unbound_at is null or b.unbound_at >= d.created_at)
        and (d.closed_at is null or b.unbound_at <= d.closed_at)
      offset 0
    ) as b
    group by b.id
  )
  select d.binding_id, k.amount_micro as amount, d.release, true as disputed
  from disputed d
  join invite_bonus_binding_totals k on k.binding_id = d.binding_id and k.inviter_id = $1::bigint
  where k.amount_micro > 0
  union all
  select booked.binding_id, sum(booked.amount_micro),
    case when bool_or(booked.open) then null else max(booked.closed_at) + ${HOLD} end, true
  from (
    select e.id, e.binding_id, e.amount_micro, bool_or(d.closed_at is null) as open,
      max(d.closed_at) as closed_at
    from disputes d
    join inviter on inviter.paid
    join event_rewards e on e.dispute_ids @> array[d.id] and e.user_id = $1::bigint
    join exchange_bindings b on b.id = e.binding_id
    where (d.closed_at is null or b.unbound_at <= d.closed_at)
    group by e.id, e.binding_id, e.amount_micro
  ) as booked
  where not exists (select 1 from disputed x where x.binding_id = booked.binding_id)
  group by booked.binding_id
  union all
  select k.binding_id, k.held_micro, k.hold_ends_at, false
  from invite_bonus_binding_totals k
  join exchange_bindings b on b.id = k.binding_id and b.ownership_verified_at is null
  where k.inviter_id = $1::bigint and k.hold_ends_at > $2::timestamptz and k.held_micro > 0
    and not exists (select 1 from disputed d where d.binding_id = k.binding_id)`;

/**
 * The earliest time after `$2` at which HELD_BY_BINDING's answer for inviter `$1` may change with
 * nothing written (null: none ahead), for an answer kept until then (withdrawable, db/member-answers.ts).
 * Its only comparisons with now are a bonus's hold end (`hold_ends_at > $2`) and a decided dispute's
 * window (`closed_at > $2 - hold`, i.e. until `closed_at + hold`): the nearest of each still ahead, over
 * all the inviter's sums (confirmed or disputed ones too) and every decided dispute (few, by
 * `support_requests_decided_disputes_idx`) when the inviter was ever paid a bonus. Earlier than needed
 * at times (a read more), never later. A new comparison with `$2` above must be added here.
 */
export const HELD_INVITE_BONUSES_NEXT_CHANGE = `
  select min(at) from (
    select k.hold_ends_at as at
    from invite_bonus_binding_totals k
    where k.inviter_id = $1::bigint and k.hold_ends_at > $2::timestamptz
    union all
    select s.closed_at + ${HOLD}
    from support_requests s
    where s.kind = 'uidBoundByOther' and s.closed_at > $2::timestamptz - ${HOLD}
      and exists (select 1 from invite_bonus_binding_totals where inviter_id = $1::bigint)
  ) as ahead`;

/**
 * The held bonuses in one row: `held_rewards` (micro-USDT, text), `held_until` (the latest release
 * among those held by time or after a decided dispute, or null) and `held_disputed` (some wait for an open
 * dispute). A subquery the withdrawable summary embeds with the same two parameters.
 */
export const HELD_INVITE_BONUSES_TOTAL = `
  select coalesce(sum(amount), 0)::text as held_rewards,
    max(release) as held_until,
    coalesce(bool_or(release is null), false) as held_disputed
  from (${HELD_BY_BINDING}) as held`;

export interface HeldInviteBonuses {
  heldMicro: bigint;
  /** When the last bonus held by time or after a decided dispute is released; null when none is. */
  until: Date | null;
  /** Some wait for an ownership dispute to be settled. */
  disputed: boolean;
}

export interface HeldInviteBonusesRow {
  held_rewards: string;
  held_until: Date | string | null;
  held_disputed: boolean;
}

export function toHeldInviteBonuses(row: HeldInviteBonusesRow | undefined): HeldInviteBonuses {
  return {
    heldMicro: BigInt(row?.held_rewards ?? '0'),
    until: row?.held_until ? new Date(row.held_until) : null,
    disputed: row?.held_disputed ?? false,
  };
}

/** The inviter's held bonuses now, on any executor (the withdrawal request asks again in its transaction). */
export async function selectHeldInviteBonuses(
  db: Executor,
  inviterId: number,
  now: Date,
): Promise<HeldInviteBonuses> {
  const [row] = await queryText<HeldInviteBonusesRow>(db, HELD_INVITE_BONUSES_TOTAL, [
    inviterId,
    now.toISOString(),
  ]);
  return toHeldInviteBonuses(row);
}
