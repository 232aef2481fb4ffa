import type { Executor } from '../db/client.js';
import { queryPrepared } from '../db/prepared.js';
import { pageRows } from './page-rows.js';

export interface RewardListRow {
  id: number;
  kind: string;
  amountMicro: bigint;
  sourceUserId: number | null;
  /** The source member's e-mail, null without a source or once they deleted their account. */
  sourceEmail: string | null;
  createdAt: Date;
}

/**
 * /elex/user/seeRewardData in one round trip (issue 14): a page of the member's event rewards, newest
 * first, each with its source member's e-mail (a join with the members' table, so it lives here), and
 * the count, kept per member (event_reward_counts) so a busy inviter's rewards are not counted on every
 * page. The page made a query per friend before: an inviter's page of 20 made 22.
 */
const REWARD_LIST = `
  select (select coalesce(sum(rewards), 0) from event_reward_counts where user_id = $1::bigint)::integer as total,
    r.id, r.kind, r.amount_micro::text as amount, r.source_user_id, r.created_at,
    case when u.deleted_at is null then u.email end as source_email
  from (select 1) one
  left join lateral (
    select * from event_rewards where user_id = $1::bigint
    order by created_at desc, id desc offset $2::integer limit $3::integer
  ) r on true
  left join users u on u.id = r.source_user_id
  order by r.created_at desc, r.id desc`;

export async function selectRewardList(
  db: Executor,
  userId: number,
  page: { offset: number; limit: number },
): Promise<{ rows: RewardListRow[]; total: number }> {
  const found = await queryPrepared<{
    total: number;
    id: string | number | null;
    kind: string;
    amount: string;
    source_user_id: string | number | null;
    created_at: Date | string;
    source_email: string | null;
  }>(db, 'reward_list_v2', REWARD_LIST, [userId, page.offset, page.limit]);
  const { first, rows } = pageRows(found, (row) => row.id);
  return {
    total: Number(first?.total ?? 0),
    rows: rows.map((row) => ({
      id: Number(row.id),
      kind: row.kind,
      amountMicro: BigInt(row.amount),
      sourceUserId: row.source_user_id === null ? null : Number(row.source_user_id),
      sourceEmail: row.source_email,
      createdAt: new Date(row.created_at),
    })),
  };
}
