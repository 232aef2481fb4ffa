import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { historyFromOf } from './history-from.js';
import { pageRows } from './page-rows.js';

export interface AdjustmentListRow {
  id: number;
  account: 'cashback' | 'rewards';
  platId: number | null;
  uid: string | null;
  amountMicro: bigint;
  reason: string;
  decidedAt: Date;
}

/**
 * /elex/user/seeAdjustments in one round trip (issue 14): a page of the posted corrections of the
 * member's rewards and of the UIDs they hold now (or of one exchange's UIDs, or one UID), newest
 * first, and the count. A UID's corrections
 * count from where the member's history of it starts (after an earlier holder's account deletion, as
 * its records do). The accounts are found in the same statement from the live bindings, so it joins
 * the bindings and corrections tables and lives here; the call made three statements before. Each
 * account's corrections come from corrections_account_idx.
 */
export async function selectAdjustmentList(
  db: Executor,
  userId: number,
  filter: {
    account?: 'cashback' | 'rewards' | undefined;
    /** One exchange's UIDs, or one UID: cashback corrections only (the rewards have no exchange). */
    platId?: number | undefined;
    uid?: string | undefined;
  },
  page: { offset: number; limit: number },
): Promise<{ rows: AdjustmentListRow[]; total: number }> {
  const account = filter.account ?? null;
  const platId = filter.platId ?? null;
  const uid = filter.uid ?? null;
  const found = rowsOf<{
    total: number;
    id: string | number | null;
    account: AdjustmentListRow['account'];
    plat_id: number | null;
    uid: string | null;
    amount_micro: string;
    reason: string;
    decided_at: Date | string;
  }>(
    await db.execute(sql`
      with visible as (
        select 'rewards:' || ${userId}::bigint as code, null::timestamptz as history_from
        where ${platId}::integer is null and ${uid}::text is null
        union all
        select 'cashback:' || b.plat_id || ':' || b.uid, ${historyFromOf('b')}
        from exchange_bindings b where b.user_id = ${userId}::bigint and b.unbound_at is null
          and (${platId}::integer is null or b.plat_id = ${platId}::integer)
          and (${uid}::text is null or b.uid = ${uid}::text)
      ), mine as (
        select c.id, c.account, c.plat_id, c.uid, c.amount_micro, c.reason, c.decided_at
        from visible v join corrections c on c.account_code = v.code and c.status = 'posted'
        where (v.history_from is null or c.decided_at > v.history_from)
          and (${account}::text is null or c.account = ${account}::text)
      )
      select (select count(*) from mine)::integer as total, m.id, m.account, m.plat_id, m.uid,
        m.amount_micro::text as amount_micro, m.reason, m.decided_at
      from (select 1) one
      left join lateral (
        select * from mine order by decided_at desc, id desc
        offset ${page.offset}::integer limit ${page.limit}::integer
      ) m on true
      order by m.decided_at desc, m.id desc`),
  );
  const { first, rows } = pageRows(found, (row) => row.id);
  return {
    total: Number(first?.total ?? 0),
    rows: rows.map((row) => ({
      id: Number(row.id),
      account: row.account,
      platId: row.plat_id === null ? null : Number(row.plat_id),
      uid: row.uid,
      amountMicro: BigInt(row.amount_micro),
      reason: row.reason,
      decidedAt: new Date(row.decided_at),
    })),
  };
}
