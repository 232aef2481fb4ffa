import type { SocialNetwork } from '@elex/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { rowsOf } from '../db/rows.js';

/** A task the member was paid points for, as its entry booked it. */
export interface ClaimedTask {
  taskId: string;
  /** The points the entry paid. */
  points: number;
  /** A trade tier's entry: the threshold it was claimed under (micro-USDT), else null. */
  thresholdMicro: bigint | null;
}

export interface MemberTaskFacts {
  /** The member's live UIDs as task accounts (`<platId>:<uid>`), oldest binding first. */
  uidAccounts: string[];
  /** Trading volume of those UIDs (micro-USDT), each from where it counts for the member (`volumeFrom`). */
  volumeMicro: bigint;
  xmeUid: string | null;
  social: Array<{ network: SocialNetwork; accountId: string; verifiedAt: Date | null }>;
  /**
   * The tasks the member was paid points for, with what each entry paid and the threshold it was
   * claimed under: the task list shows a claimed task by these, not by its definition, which an
   * operator may have changed since.
   */
  claimed: ClaimedTask[];
  /** Task and account pairs another member was paid for, among this member's accounts. */
  paidToOthers: Array<{ taskId: string; account: string }>;
  points: number;
  /** Whether an open dispute (support request 'uidBoundByOther' not closed) is on one of the live UIDs. */
  hasDisputedUid: boolean;
}

/**
 * What /elex/exchange/getExchangeTaskDetail needs of a member, in one statement (issue 14): the live
 * UIDs, their trading volume (the kept totals, or the records imported after another member's binding
 * of the UID ended: `volumeFrom`, the bindings module's rule given as SQL), the XME UID, the social accounts, the tasks already paid (each entry's amount and
 * threshold), the payouts other members got
 * for this member's accounts, the points balance, and whether a live UID is under an open dispute. It was seven statements in three round trips.
 * The account keys are the tasks module's (`accountKey` in tasks.service.ts: `<platId>:<uid>`,
 * `xme:<lowercase uid>`, `<network>:<account id>`); tasks.test.ts and social-tasks.test.ts hold the
 * states they decide.
 */
export async function selectMemberTaskFacts(
  db: Executor,
  userId: number,
  taskReason: string,
  /** Where a UID's trading counts from for the holder of the binding `b` (bindings' tradeVolumeFromSql('b')). */
  volumeFrom: SQL,
): Promise<MemberTaskFacts> {
  const [row] = rowsOf<{
    uids: Array<[number, string]> | string;
    volume: string;
    xme_uid: string | null;
    social: Array<[SocialNetwork, string, string | null]> | string;
    claimed: Array<[string, number | string, string | null]> | string;
    paid_to_others: Array<[string, string]> | string;
    points: string;
    has_disputed_uid: boolean | string;
  }>(
    await db.execute(sql`
      with b as (
        select b.id, b.plat_id, b.uid, b.bound_at, ${volumeFrom} as volume_from
        from exchange_bindings b where b.user_id = ${userId}::bigint and b.unbound_at is null
      ), xme as (
        select x.xme_uid from xme_bindings x where x.user_id = ${userId}::bigint
      ), social as (
        select s.network, s.account_id, s.verified_at from social_accounts s where s.user_id = ${userId}::bigint
      ), accounts as (
        select b.plat_id || ':' || b.uid as account from b
        union all select 'xme:' || lower(xme.xme_uid) from xme
        union all select social.network || ':' || social.account_id from social
      )
      select
        (select coalesce(json_agg(json_build_array(b.plat_id, b.uid) order by b.bound_at, b.id), '[]'::json)
          from b) as uids,
        (select coalesce(sum(case when b.volume_from is null
            then (select coalesce(sum(t.trading_volume_micro), 0) from rebate_uid_totals t
              where t.plat_id = b.plat_id and t.uid = b.uid)
            -- The records imported after another member's binding ended (cashback.repository's volumeRecords).
            else (select coalesce(sum(r.trading_volume_micro), 0) from rebates r
              where r.plat_id = b.plat_id and r.uid = b.uid and r.created_at > b.volume_from)
          end), 0) from b)::text as volume,
        (select xme.xme_uid from xme limit 1) as xme_uid,
        (select coalesce(json_agg(json_build_array(social.network, social.account_id, social.verified_at)),
          '[]'::json) from social) as social,
        -- One entry per task at most (points_entries_grant_unique), so as many rows as tasks.
        (select coalesce(json_agg(json_build_array(p.reference, p.amount, p.threshold_micro::text)),
          '[]'::json) from points_entries p
          where p.user_id = ${userId}::bigint and p.currency = 'points' and p.reason = ${taskReason}::text) as claimed,
        (select coalesce(json_agg(json_build_array(tp.task_id, tp.account)), '[]'::json) from task_payouts tp
          where tp.account in (select account from accounts) and tp.user_id <> ${userId}::bigint) as paid_to_others,
        (select coalesce(sum(p.amount), 0) from points_entries p
          where p.user_id = ${userId}::bigint and p.currency = 'points')::text as points,
        -- The condition of isUidFrozen (support/frozen.ts): the claim refuses on it.
        exists (select 1 from support_requests s join b on s.plat_id = b.plat_id and s.uid = b.uid
          where s.kind = 'uidBoundByOther' and s.status <> 'closed') as has_disputed_uid`),
  );
  const json = <T>(value: T | string | undefined): T =>
    (typeof value === 'string' ? JSON.parse(value) : value) as T;
  const uids = json<Array<[number, string]>>(row?.uids) ?? [];
  return {
    uidAccounts: uids.map(([platId, uid]) => `${platId}:${uid}`),
    volumeMicro: BigInt(row?.volume ?? '0'),
    xmeUid: row?.xme_uid ?? null,
    social: (json<Array<[SocialNetwork, string, string | null]>>(row?.social) ?? []).map(
      ([network, accountId, verifiedAt]) => ({
        network,
        accountId,
        verifiedAt: verifiedAt === null ? null : new Date(verifiedAt),
      }),
    ),
    claimed: (json<Array<[string, number | string, string | null]>>(row?.claimed) ?? []).map(
      ([taskId, points, threshold]) => ({
        taskId,
        points: Number(points),
        thresholdMicro: threshold === null ? null : BigInt(threshold),
      }),
    ),
    paidToOthers: (json<Array<[string, string]>>(row?.paid_to_others) ?? []).map(([taskId, account]) => ({
      taskId,
      account,
    })),
    points: Number(row?.points ?? 0),
    hasDisputedUid: row?.has_disputed_uid === true || row?.has_disputed_uid === 't',
  };
}
