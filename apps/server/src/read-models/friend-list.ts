import type { Executor } from '../db/client.js';
import { queryPrepared } from '../db/prepared.js';
import { statementName } from '../db/statement-name.js';
import { pageRows } from './page-rows.js';

interface FriendListRow {
  friendId: number;
  joinedAt: Date;
  /** The friend's e-mail, null once they deleted their account. */
  email: string | null;
  hasBoundUid: boolean;
  pointsEarned: number;
  bonusEarnedMicro: bigint;
}

export interface FriendList {
  rows: FriendListRow[];
  total: number;
  totalPoints: number;
  totalBonusMicro: bigint;
}

/**
 * /elex/user/myFriends in one round trip (issue 14): a page of the inviter's invitations, newest first,
 * each with the friend's e-mail and whether they hold a live UID, the invite points and USDT bonus the
 * friend earned the inviter, and the inviter's totals. It joins the invites, members, bindings, points
 * and rewards tables, so it lives here rather than in one module; the page made 4 + 2 x 20 queries
 * before. The bonuses come from the kept per-friend totals (invite_bonus_totals), so a busy inviter's
 * ten thousand rewards are not read on each call. Whether the page's friends hold a live UID is one
 * lookup of their ids together (`user_id = any(…)` on exchange_bindings_user_idx), not a check per
 * friend: PostgreSQL ran the per-row check as one bitmap scan of every live binding per friend on the
 * bench's data, or as a hash of every live binding.
 */
const FRIEND_LIST = `
  with page as (
    select i.friend_id, i.created_at from invitations i where i.inviter_id = $1::bigint
    order by i.created_at desc, i.friend_id desc offset $2::integer limit $3::integer
  ), bound as (
    select distinct b.user_id from exchange_bindings b
    where b.user_id = any (array(select friend_id from page)) and b.unbound_at is null
  ), bonus as (
    select friend_id, amount_micro as amount from invite_bonus_totals where inviter_id = $1::bigint
  ), points as (
    select reference, sum(amount) as amount from points_entries
    where user_id = $1::bigint and currency = 'points' and reason = $4::text group by reference
  )
  select
    (select count(*) from invitations where inviter_id = $1::bigint)::integer as total,
    (select coalesce(sum(amount), 0) from points)::bigint::text as total_points,
    (select coalesce(sum(amount), 0) from bonus)::text as total_bonus,
    p.friend_id, p.created_at,
    case when u.deleted_at is null then u.email end as email,
    bd.user_id is not null as has_bound_uid,
    coalesce(pt.amount, 0)::bigint::text as points, coalesce(bn.amount, 0)::text as bonus
  from (select 1) one
  left join page p on true
  left join users u on u.id = p.friend_id
  left join bound bd on bd.user_id = p.friend_id
  left join points pt on pt.reference = p.friend_id::text
  left join bonus bn on bn.friend_id = p.friend_id
  order by p.created_at desc, p.friend_id desc`;
const FRIEND_LIST_NAME = statementName('friend_list', FRIEND_LIST);

export async function selectFriendList(
  db: Executor,
  inviterId: number,
  page: { offset: number; limit: number },
  pointsReason: string,
): Promise<FriendList> {
  const found = await queryPrepared<{
    total: number;
    total_points: string;
    total_bonus: string;
    friend_id: string | number | null;
    created_at: Date | string | null;
    email: string | null;
    has_bound_uid: boolean | null;
    points: string;
    bonus: string;
  }>(db, FRIEND_LIST_NAME, FRIEND_LIST, [inviterId, page.offset, page.limit, pointsReason]);
  const { first, rows } = pageRows(found, (row) => row.friend_id);
  return {
    total: Number(first?.total ?? 0),
    totalPoints: Number(first?.total_points ?? 0),
    totalBonusMicro: BigInt(first?.total_bonus ?? '0'),
    rows: rows.map((row) => ({
      friendId: Number(row.friend_id),
      joinedAt: new Date(row.created_at as Date | string),
      email: row.email,
      hasBoundUid: row.has_bound_uid === true,
      pointsEarned: Number(row.points),
      bonusEarnedMicro: BigInt(row.bonus),
    })),
  };
}
