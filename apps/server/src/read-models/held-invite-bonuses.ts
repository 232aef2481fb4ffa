import { OWNERSHIP } from '@elex/contract';
import type { Executor } from '../db/client.js';
import { queryText } from '../db/prepared.js';

const DAY_MS = 86_400_000;

/**
 * The invite bonuses an inviter may not withdraw yet (docs/withdrawals.md, "Invite bonuses wait for
 * their friend's ownership check"): each paid by the records of a friend's live binding that is still
 * in its ownership hold (bound less than OWNERSHIP.holdDays ago, no operator confirmation) or whose
 * UID is under an open ownership dispute. Without it the hold on a new binding's cashback could be
 * passed on: an accomplice binds a stranger's UID and their inviter withdraws the 10 % at once.
 *
 * `$1` is the inviter, `$2` the start of the hold window (now minus the hold). A bonus held by time was
 * paid inside the window (after its binding, which began inside it), so that branch reads only the
 * inviter's last days of rewards (`event_rewards_user_created_idx`); the disputed branch starts from
 * the open disputes, which are few. One row per bonus: `release` is when its binding's hold ends, null
 * while its UID is disputed (a bonus in both branches is disputed).
 */
const HELD_BONUSES = `
  select id, min(amount_micro) as amount_micro,
    case when bool_or(release is null) then null else max(release) end as release
  from (
    select e.id, e.amount_micro, b.bound_at + interval '${OWNERSHIP.holdDays} days' as release
    from event_rewards e
    join rebates r on r.id = e.rebate_id
    join exchange_bindings b on b.plat_id = r.plat_id and b.uid = r.uid and b.unbound_at is null
      and b.user_id = e.source_user_id
    where e.user_id = $1::bigint and e.kind = 'inviteBonus' and e.created_at >= $2::timestamptz
      and b.ownership_verified_at is null and b.bound_at > $2::timestamptz and e.created_at >= b.bound_at
    union all
    select e.id, e.amount_micro, null
    from support_requests s
    join exchange_bindings b on b.plat_id = s.plat_id and b.uid = s.uid and b.unbound_at is null
    join event_rewards e on e.kind = 'inviteBonus' and e.source_user_id = b.user_id
      and e.user_id = $1::bigint and e.created_at >= b.bound_at
    join rebates r on r.id = e.rebate_id and r.plat_id = b.plat_id and r.uid = b.uid
    where s.kind = 'uidBoundByOther' and s.status <> 'closed'
  ) as held
  group by id`;

/**
 * The held bonuses in one row: `held_rewards` (micro-USDT, text), `held_until` (the latest hold end
 * among those held by time, or null) and `held_disputed` (some wait for a dispute). A subquery the
 * withdrawable summary embeds with the same two parameters.
 */
export const HELD_INVITE_BONUSES_TOTAL = `
  select coalesce(sum(amount_micro), 0)::text as held_rewards,
    max(release) as held_until,
    coalesce(bool_or(release is null), false) as held_disputed
  from (${HELD_BONUSES}) as bonuses`;

export interface HeldInviteBonuses {
  heldMicro: bigint;
  /** When the last bonus held by time is released; null when none is. */
  until: Date | null;
  /** Some wait for an ownership dispute to be settled. */
  disputed: boolean;
}

/** `$2` of the statements above. */
export function holdWindowStart(now: Date): Date {
  return new Date(now.getTime() - OWNERSHIP.holdDays * DAY_MS);
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
    holdWindowStart(now).toISOString(),
  ]);
  return toHeldInviteBonuses(row);
}
