import { CASHBACK } from '@elex/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { historyFromOf } from './history-from.js';
import type { EstimateSql } from './pending-estimates.js';
import {
  isoText,
  type RenderedStatements,
  runRendered,
  statementsOf,
  usdtText,
} from './rendered-statements.js';

export interface RebateListFilter {
  userId: number;
  platId: number | undefined;
  uid: string | undefined;
  status: 'pending' | 'completed' | 'failed' | undefined;
  /** Period end on or after / before. */
  endFrom: Date | undefined;
  endBefore: Date | undefined;
}

/**
 * A page of records as the member's answer carries them: PostgreSQL writes the whole JSON array (ids as
 * text, ISO times, amounts in USDT with six decimals, the answer's own key order and names), so the app
 * parses no field of it and serializes none (issue 14): the route splices the text into the envelope.
 */
export interface RebateListPage {
  /** The records' JSON array, `[]` when none, exactly as JSON.stringify would write the records. */
  recordsJson: string;
  /** How many records the array holds. */
  records: number;
  /** The id of the array's last record (the list's order), null when none. */
  lastId: string | null;
  /**
   * Whether a record follows the page's last one: each page statement reads one record more than the
   * page holds and drops it, so a full page that ends the list says so (its `next` is null).
   */
  more: boolean;
  /** The records the filter lets through, all pages. */
  total: number;
  /**
   * Set (and no records read) when a page by number lies wholly between the newest and the oldest
   * `CASHBACK.pageReach` records: the route refuses it (issue 14).
   */
  tooDeep?: true;
}

/** The member's live UIDs the filter lets through, with where each one's visible history starts. */
interface ListedUid {
  platId: number;
  uid: string;
  historyFrom: Date | null;
}

const date = (value: Date | string) => new Date(value);

/** A page by number (offset and limit), or the records after one of them (a walk of the whole list). */
export type RebateListPageRequest = { offset: number; limit: number } | { after: number; limit: number };

/** Each status's condition as a literal (see recordConditions). */
const STATUS_CONDITIONS = {
  pending: sql.raw(`r.status = 'pending'`),
  completed: sql.raw(`r.status = 'completed'`),
  failed: sql.raw(`r.status = 'failed'`),
} as const;

/**
 * Whether the member sees the record `alias` of a listed UID `p`: not one settled up to an earlier
 * holder's account deletion (docs/cashback.md). The one text of that rule for the
 * list, its cursor and the cursor's check.
 */
const seenRecord = (alias: 'r' | 'c', uids: 'p' | 'l' = 'p') =>
  sql.raw(
    `(${uids}.history_from is null or ${alias}.settled_at is null or ${alias}.settled_at > ${uids}.history_from)`,
  );

/**
 * The filter's conditions on a record `r` of a UID `p` (plat_id, uid, history_from): records settled up
 * to an earlier holder's account deletion are not the member's (`seenRecord`).
 * An absent bound is ±infinity, so one text serves every period. The status is a literal, a text per
 * status: the pool names the statement and PostgreSQL may keep a generic plan, which cannot use the
 * partial indexes on records not completed for a status that is a parameter, and then read a heavy
 * trader's every record to find the few pending or failed ones (70 ms a UID, not 0.3).
 */
function recordConditions(filter: RebateListFilter, uids: 'p' | 'l' = 'p') {
  const status = filter.status ? STATUS_CONDITIONS[filter.status] : sql.raw('true');
  return sql`r.plat_id = ${sql.raw(uids)}.plat_id and r.uid = ${sql.raw(uids)}.uid
    and ${seenRecord('r', uids)}
    and ${status}
    and r.period_end >= coalesce(${sql.placeholder('endFrom')}::timestamptz, '-infinity')
    and r.period_end < coalesce(${sql.placeholder('endBefore')}::timestamptz, 'infinity')`;
}

/** The period bounds' values for recordConditions' placeholders. */
const periodValues = (filter: RebateListFilter) => ({
  endFrom: filter.endFrom?.toISOString() ?? null,
  endBefore: filter.endBefore?.toISOString() ?? null,
});

/** The list's statements without the estimate, by shape (those with it: statementsOf). */
const plainStatements: RenderedStatements = new Map();

/**
 * The member's live UIDs the filter names, each with the number of its records the filter lets
 * through: from the kept totals (rebate_uid_totals) when no period bounds the list and the member
 * sees the UID's whole history, else counted from the records.
 */
async function selectListedUids(
  db: Executor,
  filter: RebateListFilter,
): Promise<{ uids: ListedUid[]; total: number }> {
  const rows = await runRendered<{
    plat_id: number;
    uid: string;
    history_from: Date | string | null;
    records: string;
  }>(
    db,
    plainStatements,
    'rebate_list',
    `uids:${filter.status ?? ''}`,
    () => sql`
      select p.plat_id, p.uid, p.history_from, p.records::text as records
      from (${countedUidsTable(filter)}) p
      order by p.bound_at, p.id`,
    countedUidValues(filter),
  );
  return {
    uids: rows.map((row) => ({
      platId: Number(row.plat_id),
      uid: row.uid,
      historyFrom: row.history_from === null ? null : date(row.history_from),
    })),
    total: rows.reduce((sum, row) => sum + Number(row.records), 0),
  };
}

/**
 * The member's live UIDs the filter names (plat_id, uid, history_from, bound_at, id), each with the
 * number of its records the filter lets through (`records`): from the kept totals (rebate_uid_totals)
 * when no period bounds the list and the member sees the UID's whole history, else counted from the
 * records. The UIDs' statement, and the `p` of a page read in the same statement (selectRebateList).
 */
function countedUidsTable(filter: RebateListFilter) {
  const status = sql.placeholder('status');
  const platId = sql.placeholder('platId');
  const uid = sql.placeholder('uid');
  return sql`
      select l.plat_id, l.uid, l.history_from, l.bound_at, l.id,
        (case when l.history_from is null and not ${sql.placeholder('bounded')}::boolean
          then (select coalesce(sum(t.records), 0) from rebate_uid_totals t
            where t.plat_id = l.plat_id and t.uid = l.uid
              and (${status}::text is null or t.status = ${status}::text))
          else (select count(*) from rebates r where ${recordConditions(filter, 'l')})
        end)::bigint as records
      from (
        select b.plat_id, b.uid, b.bound_at, b.id,
          ${historyFromOf('b')} as history_from
        from exchange_bindings b
        where b.user_id = ${sql.placeholder('userId')}::bigint and b.unbound_at is null
          and (${platId}::integer is null or b.plat_id = ${platId}::integer)
          and (${uid}::text is null or b.uid = ${uid}::text)
      ) l`;
}

/** The values of countedUidsTable's placeholders. */
const countedUidValues = (filter: RebateListFilter) => ({
  bounded: filter.endFrom !== undefined || filter.endBefore !== undefined,
  status: filter.status ?? null,
  userId: filter.userId,
  platId: filter.platId ?? null,
  uid: filter.uid ?? null,
  ...periodValues(filter),
});

/**
 * /elex/user/seeRebateData (issue 14): the member's UIDs with their counts, and the page with each
 * pending record's estimate (the rule as SQL, today's rates, the roster's registration: the basic rate
 * without one). Each UID's records come from its own index range (rebates_plat_uid_period_end_id_idx)
 * and only as many as the page reaches are merged; a page past the middle is read from the oldest end,
 * so the last page of a 100,000-record export reads 100 records. The UIDs travel as arrays: one text
 * for every member and every number of UIDs. The first page and a page after a cursor (the export's
 * walk) are one statement with the UIDs and their counts (the side they are read from does not depend
 * on the count); another page by number needs the count first, so it is two, and is refused
 * (`tooDeep`, no records read) when it lies wholly between the newest and the oldest `CASHBACK.pageReach` records.
 */
export async function selectRebateList(
  db: Executor,
  filter: RebateListFilter,
  page: RebateListPageRequest,
  estimate: EstimateSql,
): Promise<RebateListPage | 'cursorNotSeen'> {
  if ('after' in page) {
    const found = await selectRecordsAfter(db, filter, page, estimate);
    // No record after the cursor: the end of the list, or a cursor the member does not see (another's
    // record, or one of a UID unbound since the walk began), which must not pass for the end.
    if (!found?.records && !found?.cursor_seen) return 'cursorNotSeen';
    return pageOf(found, Number(found?.total ?? 0));
  }
  if (page.offset === 0) {
    const [found] = await runRendered<CountedPageText>(
      db,
      statementsOf(estimate),
      'rebate_list',
      `first:${filter.status ?? ''}`,
      () => sql`
      with rate as (${estimate.rates}),
      p as (${countedUidsTable(filter)}),
      page as (
        select merged.id, merged.period_end from p cross join lateral (
          select r.id, r.period_end from rebates r where ${recordConditions(filter)}
          order by period_end desc, id desc limit ${sql.placeholder('read')}::integer
        ) merged
        order by merged.period_end desc, merged.id desc limit ${sql.placeholder('read')}::integer
      )
      select w.records, w.records_json, w.last_id, w.more,
        (select coalesce(sum(p.records), 0) from p)::text as total, false as cursor_seen
      from (${pageRecords(estimate)}) w`,
      { ...countedUidValues(filter), ...readValues(page.limit) },
    );
    return pageOf(found, Number(found?.total ?? 0));
  }
  const { uids, total } = await selectListedUids(db, filter);
  if (uids.length === 0 || page.offset >= total) return pageOf(undefined, total);
  // A page wholly between the newest and the oldest `CASHBACK.pageReach` records would read and sort
  // every UID's records down to it: refused, the cursor reads there (issue 14). Either end's side reads
  // at most pageReach + limit + 1 records per UID.
  const reach = CASHBACK.pageReach;
  if (page.offset >= reach && total - page.offset - page.limit >= reach) {
    return { ...pageOf(undefined, total), tooDeep: true };
  }
  const fromOldest = page.offset > total / 2;
  const order = fromOldest ? sql.raw('period_end, id') : sql.raw('period_end desc, id desc');
  // The page's records and the one after it (pageRecords drops it): from the newest side the page's
  // offset and one more; from the oldest side the records up to the page's newest (`end` from the
  // oldest), the page's and the one older, when there is one.
  const end = total - page.offset;
  const offset = fromOldest ? Math.max(0, end - page.limit - 1) : page.offset;
  const read = fromOldest ? end - offset : page.limit + 1;
  const [found] = await runRendered<PageText>(
    db,
    statementsOf(estimate),
    'rebate_list',
    `page:${filter.status ?? ''}:${fromOldest ? 'oldest' : 'newest'}`,
    () => sql`
      with rate as (${estimate.rates}),
      p as (${listedUidsTable()}),
      page as (
        select merged.id, merged.period_end from p cross join lateral (
          select r.id, r.period_end from rebates r where ${recordConditions(filter)}
          order by ${order} limit ${sql.placeholder('reach')}::integer
        ) merged
        order by ${order} offset ${sql.placeholder('offset')}::integer limit ${sql.placeholder('read')}::integer
      )
      ${pageRecords(estimate)}`,
    {
      ...listedUidValues(uids),
      ...periodValues(filter),
      reach: offset + read,
      offset,
      read,
      limit: page.limit,
    },
  );
  return pageOf(found, total);
}

/** The page statement's one row (pageRecords). */
interface PageText {
  records: number;
  records_json: string;
  last_id: string | null;
  more: boolean;
}

/** A page read with the UIDs' counts in the same statement: the list's total, and for a walk whether the cursor is one the member sees. */
interface CountedPageText extends PageText {
  total: string;
  cursor_seen: boolean;
}

const pageOf = (found: PageText | undefined, total: number): RebateListPage => ({
  recordsJson: found?.records_json ?? '[]',
  records: Number(found?.records ?? 0),
  lastId: found?.last_id ?? null,
  more: found?.more === true,
  total,
});

/**
 * The values of a page's sizes: the page holds `limit` records, its statement reads `read` (one more,
 * which says whether a record follows the page).
 */
const readValues = (limit: number) => ({ limit, read: limit + 1 });

/**
 * The page's records with their amounts, from the ids (and period ends) a `page` CTE chose, the page's
 * `limit` newest of them (and the `rate` CTE): a completed record's payment, a pending one's estimate,
 * nothing for a failed one. One row: the records as the answer's JSON array (row_to_json writes no
 * spaces, the keys in the select's order, strings escaped as JSON.stringify escapes them), their
 * number, the last one's id, and whether `page` chose a record past them (`more`: it reads one more
 * than the page holds, so a full page that ends the list is told from one that does not).
 */
function pageRecords(estimate: EstimateSql) {
  return sql`
      select count(*)::integer as records,
        coalesce('[' || string_agg(w.record, ',' order by w.period_end desc, w.id desc) || ']', '[]')
          as records_json,
        (array_agg(w.id::text order by w.period_end, w.id))[1] as last_id,
        (select count(*) from page) > ${sql.placeholder('limit')}::integer as more
      from (
        select r.id, r.period_end, row_to_json(rec)::text as record
        from (
          select page.id from page
          order by page.period_end desc, page.id desc limit ${sql.placeholder('limit')}::integer
        ) kept join rebates r on r.id = kept.id
        left join rate on rate.plat_id = r.plat_id
        left join referrals rf on rf.plat_id = r.plat_id and rf.uid = r.uid
        cross join lateral (
          select r.id::text as id, r.plat_id as "platId", r.uid, ${isoText('r.period_start')} as "periodStart",
            ${isoText('r.period_end')} as "periodEnd", ${usdtText('r.trading_volume_micro')} as "tradingVolume",
            ${usdtText('r.fee_micro')} as fee, r.status, r.failure_reason as "failureReason",
            ${isoText('r.created_at')} as "createdAt",
            ${usdtText(sql`(case r.status
              when 'completed' then coalesce(r.amount_micro, 0)
              when 'pending' then case when rate.plat_id is null then 0 else ${estimate.recordEstimate} end
              else 0 end)::bigint`)} as amount
        ) rec
      ) w`;
}

/** The listed UIDs as a CTE `p`: arrays, so one text serves every member and number of UIDs. */
function listedUidsTable() {
  return sql`select * from unnest(
          ${sql.placeholder('platIds')}::integer[],
          ${sql.placeholder('uids')}::text[],
          ${sql.placeholder('historyFroms')}::timestamptz[]
        ) as p(plat_id, uid, history_from)`;
}

/** The values of listedUidsTable's placeholders. */
const listedUidValues = (uids: ListedUid[]) => ({
  platIds: uids.map((listed) => listed.platId),
  uids: uids.map((listed) => listed.uid),
  historyFroms: uids.map((listed) => listed.historyFrom?.toISOString() ?? null),
});

/**
 * The records after a given one in the list's order (newest period first), for a walk of the whole
 * list: each UID's index range is entered at the cursor and read for one page at most, whatever the
 * depth, so an export of 120,000 records reads each once (by page number, the middle pages read up to
 * half the list each). The cursor must be a record the member sees (selectRebateList refuses another's,
 * an earlier holder's, or one of a UID unbound since): its period would otherwise be probed through the
 * member's own records.
 */
async function selectRecordsAfter(
  db: Executor,
  filter: RebateListFilter,
  page: { after: number; limit: number },
  estimate: EstimateSql,
): Promise<CountedPageText | undefined> {
  const [found] = await runRendered<CountedPageText>(
    db,
    statementsOf(estimate),
    'rebate_list',
    `after:${filter.status ?? ''}`,
    () => sql`
      with rate as (${estimate.rates}),
      p as (${countedUidsTable(filter)}),
      cursor_record as (
        select c.period_end, c.id from rebates c
        join p on c.plat_id = p.plat_id and c.uid = p.uid
        where c.id = ${sql.placeholder('after')}::bigint and ${seenRecord('c')}
      ),
      page as (
        select merged.id, merged.period_end from p cross join cursor_record cross join lateral (
          select r.id, r.period_end from rebates r
          where ${recordConditions(filter)}
            and (r.period_end, r.id) < (cursor_record.period_end, cursor_record.id)
          order by period_end desc, id desc limit ${sql.placeholder('read')}::integer
        ) merged
        order by merged.period_end desc, merged.id desc limit ${sql.placeholder('read')}::integer
      )
      select w.records, w.records_json, w.last_id, w.more,
        (select coalesce(sum(p.records), 0) from p)::text as total,
        exists (select 1 from cursor_record) as cursor_seen
      from (${pageRecords(estimate)}) w`,
    { ...countedUidValues(filter), after: page.after, ...readValues(page.limit) },
  );
  return found;
}
