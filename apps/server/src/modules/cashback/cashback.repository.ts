import { OWNERSHIP } from '@elex/contract';
import { and, eq, gt, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import type { KeepCheck } from '../../db/member-answers.js';
import { queryPrepared } from '../../db/prepared.js';
import { chunks, rowsOf } from '../../db/rows.js';
import {
  eventRewards,
  type IngestSourceKind,
  rebates,
  rebateUidTotals,
  referrals,
} from './cashback.tables.js';

export { rowsOf } from '../../db/rows.js';

/** The text an exchange's ledger lock is taken on (`hashtextextended` of it is the advisory key). */
const LEDGER_LOCK_PREFIX = 'cashback|';

/** Serializes ingests and settlements of one exchange, across instances, until the transaction ends. */
export async function lockExchangeLedger(tx: Executor, platId: number): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`${LEDGER_LOCK_PREFIX}${platId}`}, 0))`,
  );
}

/**
 * Before a member's answer is read (db/member-answers.ts, `keepable`), in one statement: the UIDs the
 * answer covers (the member's live bindings: filed under them, evicted when a trigger names one,
 * migration 0055), and whether it may be kept: no import, sync or settlement is writing an exchange
 * the member holds a UID of (none holds its ledger lock now; pg_locks, a read that takes nothing).
 * Such a writer names the UIDs' holders when its statements run, not when it commits: a member who
 * bound a UID after that would not be told of its commit, so an answer read meanwhile is not kept.
 *
 * With `heldBonusesAt` (withdrawable: the inviter's held bonuses, read-models/held-invite-bonuses.ts)
 * the answer also covers the UIDs of the friends' bindings that paid the member a bonus a dispute may
 * still hold or free: inside their ownership hold at that time, or with a dispute open or decided
 * within a hold's length. A dispute's trigger names those inviters through the bonus sums as its
 * statement sees them: a dispute written before a friend's first bonus was settled, committed after
 * the inviter read, names no inviter, only the UID (docs/decisions.md, "Review of 0055 and 0056").
 */
export async function keepCheckForMember(
  db: Executor,
  userId: number,
  options: { heldBonusesAt?: Date } = {},
): Promise<KeepCheck> {
  const at = options.heldBonusesAt;
  const friends = at
    ? sql`
      union all
      select b.plat_id as "platId", b.uid, false as writing
      from invite_bonus_binding_totals k
      join exchange_bindings b on b.id = k.binding_id
      where k.inviter_id = ${userId}
        and (b.bound_at + ${HELD_BONUS_HOLD} > ${at.toISOString()}::timestamptz
          or exists (
            select 1 from support_requests s
            where s.kind = 'uidBoundByOther' and s.plat_id = b.plat_id and s.uid = b.uid
              and (s.status <> 'closed'
                or s.closed_at > ${at.toISOString()}::timestamptz - ${HELD_BONUS_HOLD})))`
    : sql``;
  const rows = rowsOf<{ platId: number; uid: string; writing: boolean }>(
    await db.execute(sql`
      select b.plat_id as "platId", b.uid,
        hashtextextended(${LEDGER_LOCK_PREFIX} || b.plat_id::text, 0) in (
          select (l.classid::int8 << 32) | l.objid::int8 from pg_locks l
          where l.locktype = 'advisory' and l.objsubid = 1
            -- pg_locks is the server's: an advisory key is this database's only.
            and l.database = (select oid from pg_database where datname = current_database())
        ) as writing
      from exchange_bindings b
      where b.user_id = ${userId} and b.unbound_at is null${friends}`),
  );
  return {
    keep: rows.every((row) => row.writing !== true),
    uids: rows.map((row) => ({ platId: Number(row.platId), uid: row.uid })),
  };
}

/** OWNERSHIP.holdDays in hours (an interval of days would follow the session's time zone). */
const HELD_BONUS_HOLD = sql.raw(`interval '${OWNERSHIP.holdDays * 24} hours'`);

// ---------------------------------------------------------------------------------------------------
// Roster

export interface NewReferral {
  uid: string;
  registeredAt: Date;
}

export async function insertReferralRows(
  tx: Executor,
  platId: number,
  rows: readonly NewReferral[],
  source: { kind: IngestSourceKind; label: string },
  at: Date,
): Promise<number> {
  let inserted = 0;
  for (const part of chunks(rows)) {
    const done = await tx
      .insert(referrals)
      .values(
        part.map((row) => ({
          platId,
          uid: row.uid,
          registeredAt: row.registeredAt,
          source: source.kind,
          sourceLabel: source.label,
          firstSeenAt: at,
        })),
      )
      .onConflictDoNothing({ target: [referrals.platId, referrals.uid] })
      .returning({ id: referrals.id });
    inserted += done.length;
  }
  return inserted;
}

/** The stored registration time of each of these UIDs in an exchange's roster (absent: not listed). */
export async function selectRegistrations(
  tx: Executor,
  platId: number,
  uids: readonly string[],
): Promise<Map<string, Date>> {
  const found = new Map<string, Date>();
  for (const part of chunks([...new Set(uids)])) {
    const rows = await tx
      .select({ uid: referrals.uid, registeredAt: referrals.registeredAt })
      .from(referrals)
      .where(and(eq(referrals.platId, platId), inArray(referrals.uid, part)));
    for (const row of rows) found.set(row.uid, row.registeredAt);
  }
  return found;
}

export async function findReferral(db: Executor, platId: number, uid: string) {
  const [row] = await db
    .select()
    .from(referrals)
    .where(and(eq(referrals.platId, platId), eq(referrals.uid, uid)))
    .limit(1);
  return row;
}

// ---------------------------------------------------------------------------------------------------
// Rebate records

export interface NewRebate {
  uid: string;
  periodStart: Date;
  periodEnd: Date;
  tradingVolumeMicro: bigint;
  feeMicro: bigint;
  commissionMicro: bigint;
}

/** Inserts the rows whose natural key is new; answers how many were new. */
export async function insertRebateRows(
  tx: Executor,
  platId: number,
  rows: readonly NewRebate[],
  source: { kind: IngestSourceKind; label: string },
  at: Date,
  onChunk?: (rowsDone: number) => void,
): Promise<number> {
  let inserted = 0;
  let done = 0;
  for (const part of chunks(rows, 500)) {
    const result = await tx
      .insert(rebates)
      .values(
        part.map((row) => ({
          platId,
          uid: row.uid,
          periodStart: row.periodStart,
          periodEnd: row.periodEnd,
          tradingVolumeMicro: row.tradingVolumeMicro,
          feeMicro: row.feeMicro,
          commissionMicro: row.commissionMicro,
          source: source.kind,
          sourceLabel: source.label,
          createdAt: at,
        })),
      )
      .onConflictDoNothing({
        target: [rebates.platId, rebates.uid, rebates.periodStart, rebates.periodEnd],
      })
      .returning({ id: rebates.id });
    inserted += result.length;
    done += part.length;
    onChunk?.(done);
  }
  return inserted;
}

/** Stored periods of these UIDs that intersect [from, to): the overlap check of an import. */
/** A stored record's key and figures. */
type StoredPeriod = NewRebate;

export async function selectPeriodsTouching(
  tx: Executor,
  platId: number,
  uids: readonly string[],
  from: Date,
  to: Date,
): Promise<StoredPeriod[]> {
  const found: StoredPeriod[] = [];
  for (const part of chunks([...new Set(uids)])) {
    found.push(
      ...(await tx
        .select({
          uid: rebates.uid,
          periodStart: rebates.periodStart,
          periodEnd: rebates.periodEnd,
          tradingVolumeMicro: rebates.tradingVolumeMicro,
          feeMicro: rebates.feeMicro,
          commissionMicro: rebates.commissionMicro,
        })
        .from(rebates)
        .where(
          and(
            eq(rebates.platId, platId),
            inArray(rebates.uid, part),
            lt(rebates.periodStart, to),
            gt(rebates.periodEnd, from),
          ),
        )),
    );
  }
  return found;
}

/** What a settlement page decided, before anything is written to the records or the ledger. */
export interface SettlementPage {
  /** Records the page holds. */
  rows: number;
  /** Records given an outcome (the rest stay pending). */
  decided: number;
  completed: number;
  failed: number;
  /** Of the decided, records once refused as 'uidNotReferred'. */
  recovered: number;
  /** Per UID, the cashback its completed records earn: one journal each. */
  credits: UidCredit[];
  /**
   * Where the page's decided rows are read from (id, uid, status, was, amount_micro): the page table
   * for stored records, the import's numbered and decided staging rows for a file.
   */
  source: SQL;
}

interface UidCredit {
  uid: string;
  amountMicro: bigint;
  /** The smallest record id among them: names the journal ('rebate:<id>'), unique for ever. */
  firstRebateId: number;
  records: number;
}

/** The page's decisions, for the page's few statements; gone at the end of the transaction. */
const PAGE_TABLE = sql.raw('settlement_page');

/** The rule as SQL over a page's columns (rebateRuleSql with the exchange's rates). */
export type SettlementRuleSql = (columns: {
  feeMicro: SQL;
  commissionMicro: SQL;
  periodStart: SQL;
  registeredAt: SQL;
}) => { isSpeedUp: SQL; cashRateBps: SQL; amountMicro: SQL };

/** The records settlement may decide now, numbered by UID: the pages' order (numberDueRecords). */
const DUE_TABLE = sql.raw('settlement_due');

/**
 * Numbers the stored records of an exchange that settlement may decide now into DUE_TABLE, by UID,
 * period end and id: pending records whose period ended by `endedBy`, and records refused as
 * 'uidNotReferred' whose UID has joined the roster since (a late roster: they settle like any other);
 * `uid` narrows it to one UID. Pages then follow the number, so a UID's records fall in one page (or
 * two at a boundary) and one journal a page pays them, whatever order the records arrived in: in period order a million records
 * falling due together put every UID on every page (a journal per record, and each UID's account row
 * updated once per page in one transaction, issue 14). The caller holds the exchange's ledger lock, so
 * the set cannot change before the pages are written. Answers how many records are numbered.
 */
export async function numberDueRecords(
  tx: Executor,
  query: { platId: number; endedBy: Date; uid: string | undefined },
): Promise<number> {
  const sameUid = query.uid === undefined ? sql`true` : sql`r.uid = ${query.uid}`;
  // pg_temp: never a permanent table of the same name.
  await tx.execute(sql`drop table if exists pg_temp.${DUE_TABLE}`);
  await tx.execute(sql`
    create temporary table ${DUE_TABLE} on commit drop as
    select (row_number() over (order by uid, period_end, id))::integer as n, id from (
      select r.id, r.uid, r.period_end from ${rebates} r
      where r.plat_id = ${query.platId} and ${sameUid} and r.status = 'pending'
        and r.period_end <= ${query.endedBy.toISOString()}::timestamptz
      union all
      select r.id, r.uid, r.period_end from ${rebates} r
      where r.plat_id = ${query.platId} and ${sameUid} and r.status = 'failed'
        and r.failure_reason = 'uidNotReferred'
        and exists (select 1 from ${referrals} rf where rf.plat_id = r.plat_id and rf.uid = r.uid)
    ) due`);
  const [row] = rowsOf<{ rows: number | string }>(
    await tx.execute(sql`select count(*) as rows from ${DUE_TABLE}`),
  );
  const rows = Number(row?.rows ?? 0);
  if (rows > 0) {
    await tx.execute(sql`alter table ${DUE_TABLE} add primary key (n)`);
    // Temporary tables are never analyzed by autovacuum: without statistics the pages' joins guess.
    await tx.execute(sql`analyze ${DUE_TABLE}`);
  }
  return rows;
}

/**
 * Decides the numbered due records `from < n <= to` (numberDueRecords) by the rule, into the page
 * table; `applySettlementPage` then writes the outcomes. A page of a million due records holds one page
 * at a time.
 */
export async function decideSettlementPage(
  tx: Executor,
  query: { platId: number; from: number; to: number; graceEndedBy: Date; rule: SettlementRuleSql },
): Promise<SettlementPage> {
  const due = sql`select r.id, null::integer as n, r.uid, r.status, r.fee_micro, r.commission_micro,
      r.period_start, r.period_end, rf.registered_at, true as is_due
    from ${DUE_TABLE} d join ${rebates} r on r.id = d.id
    left join ${referrals} rf on rf.plat_id = r.plat_id and rf.uid = r.uid
    where d.n > ${query.from} and d.n <= ${query.to}`;
  await decideInto(tx, due, query.graceEndedBy, query.rule);
  return summarizePage(tx);
}

/** The sequence `rebates.id` takes its default from (a bigserial's, named by PostgreSQL's rule). */
const REBATE_ID_SEQUENCE = sql.raw(`'rebates_id_seq'::regclass`);

/**
 * Numbers an import's staged rows by UID and period into `into` (a temporary table, dropped at
 * commit) and decides each one by the rule there, in the one statement that writes the table: the
 * id it will be stored under (from the table's sequence, in that order), and the outcome settlement
 * gives a stored record (a due row completes or fails; a row not due, or not in the roster within
 * the grace, stays pending). The pages then summarize, credit and store straight from it
 * (`decidedPageOf`, `insertSettledPage`): no page table is written per page (issue 14). The caller
 * removed the rows whose key is stored already and holds the exchange's ledger lock, so nothing else
 * stores this exchange's records meanwhile; a roster line that arrives after this statement is seen
 * by the settlement at the end of the import, as for any pending record. Answers the rows numbered.
 */
export async function decideStagedFile(
  tx: Executor,
  query: {
    platId: number;
    staging: SQL;
    into: SQL;
    endedBy: Date;
    graceEndedBy: Date;
    rule: SettlementRuleSql;
  },
): Promise<void> {
  // The middle select numbers the rows by UID and period; nextval runs over it in that order.
  // The sequence as a regclass literal, resolved once when the statement is parsed: named through
  // pg_get_serial_sequence (or a parameter cast to regclass) it was looked up again for every row,
  // half of this statement's time (docs/decisions.md, "The import names the records' id sequence").
  await tx.execute(sql`
    create temporary table ${query.into} on commit drop as
    select d.n, d.id, d.line, d.uid, d.period_start, d.period_end, d.trading_volume_micro, d.fee_micro,
      d.commission_micro, 'new'::text as was, ${decisionsOf(query.graceEndedBy, query.rule)}
    from (
      select nextval(${REBATE_ID_SEQUENCE}) as id, s.* from (
        select (row_number() over (order by s.uid, s.period_start, s.period_end))::integer as n, s.line,
          s.uid, s.period_start, s.period_end, s.trading_volume_micro, s.fee_micro, s.commission_micro,
          rf.registered_at, s.period_end <= ${query.endedBy.toISOString()}::timestamptz as is_due
        from ${query.staging} s
        left join ${referrals} rf on rf.plat_id = ${query.platId} and rf.uid = s.uid
        order by n) s
    ) d`);
}

/** The rows `from < n <= to` of a file decided by decideStagedFile, as a page: counts and credits. */
export async function decidedPageOf(
  tx: Executor,
  query: { decided: SQL; from: number; to: number },
): Promise<SettlementPage> {
  return summarizePage(
    tx,
    sql`(select id, uid, status, was, amount_micro from ${query.decided}
      where n > ${query.from} and n <= ${query.to})`,
  );
}

/** Fills the page table with `due`'s rows and their outcomes (null status: not decided, stays pending). */
async function decideInto(
  tx: Executor,
  due: SQL,
  graceEndedBy: Date,
  ruleOf: SettlementRuleSql,
): Promise<void> {
  await tx.execute(sql`
    create temporary table if not exists ${PAGE_TABLE} (
      id bigint primary key, n integer, uid text not null, period_end timestamptz not null, was text not null,
      status text, failure_reason text, cash_rate_bps integer, is_speed_up boolean, amount_micro bigint
    ) on commit drop`);
  await tx.execute(sql`truncate ${PAGE_TABLE}`);
  await tx.execute(sql`
    insert into ${PAGE_TABLE} (id, n, uid, period_end, was, status, failure_reason, cash_rate_bps, is_speed_up,
      amount_micro)
    select d.id, d.n, d.uid, d.period_end, d.status, ${decisionsOf(graceEndedBy, ruleOf)}
    from (${due}) d`);
}

/**
 * The rule's outcome of a row `d` (is_due, registered_at, fee_micro, commission_micro, period_start,
 * period_end) as the select list status, failure_reason, cash_rate_bps, is_speed_up, amount_micro
 * (null status: not decided, stays pending). The one statement of it, for stored records and files.
 */
function decisionsOf(graceEndedBy: Date, ruleOf: SettlementRuleSql): SQL {
  const rule = ruleOf({
    feeMicro: sql`d.fee_micro`,
    commissionMicro: sql`d.commission_micro`,
    periodStart: sql`d.period_start`,
    registeredAt: sql`d.registered_at`,
  });
  const pays = sql`d.is_due and d.registered_at is not null and d.commission_micro <> 0`;
  return sql`
      case when not d.is_due then null
           when d.registered_at is null
             then case when d.period_end <= ${graceEndedBy.toISOString()}::timestamptz then 'failed' end
           when d.commission_micro = 0 then 'failed'
           else 'completed' end as status,
      case when not d.is_due then null
           when d.registered_at is null
             then case when d.period_end <= ${graceEndedBy.toISOString()}::timestamptz then 'uidNotReferred' end
           when d.commission_micro = 0 then 'noCommission' end as failure_reason,
      (case when ${pays} then ${rule.cashRateBps} end)::integer as cash_rate_bps,
      (case when ${pays} then ${rule.isSpeedUp} end)::boolean as is_speed_up,
      (case when ${pays} then ${rule.amountMicro} end)::bigint as amount_micro`;
}

/** What the page table holds: counts and the credits per UID. */
async function summarizePage(tx: Executor, source: SQL = PAGE_TABLE): Promise<SettlementPage> {
  const [summary] = rowsOf<{
    rows: number | string;
    decided: number | string;
    completed: number | string;
    failed: number | string;
    recovered: number | string;
  }>(
    await tx.execute(sql`
      select count(*) as rows, count(p.status) as decided,
        count(*) filter (where p.status = 'completed') as completed,
        count(*) filter (where p.status = 'failed') as failed,
        count(*) filter (where p.status is not null and p.was = 'failed') as recovered
      from ${source} p`),
  );
  const credits = rowsOf<{
    uid: string;
    amount: string;
    first_id: string | number;
    records: number | string;
  }>(
    await tx.execute(sql`
      select uid, sum(amount_micro)::text as amount, min(id) as first_id, count(*) as records
      from ${source} p where status = 'completed' and amount_micro > 0
      group by uid order by min(id)`),
  ).map((row) => ({
    uid: row.uid,
    amountMicro: BigInt(row.amount),
    firstRebateId: Number(row.first_id),
    records: Number(row.records),
  }));
  return {
    rows: Number(summary?.rows ?? 0),
    decided: Number(summary?.decided ?? 0),
    completed: Number(summary?.completed ?? 0),
    failed: Number(summary?.failed ?? 0),
    recovered: Number(summary?.recovered ?? 0),
    credits,
    source,
  };
}

/**
 * Writes the decided page's outcomes to its records, each completed record with cashback naming its
 * UID's journal; only a record still pending or failed as 'uidNotReferred' moves. Answers how many
 * records moved: fewer than decided means one changed meanwhile, and the caller must roll back.
 */
export async function applySettlementPage(
  tx: Executor,
  journals: ReadonlyArray<{ uid: string; journalId: number }>,
  at: Date,
): Promise<number> {
  const [row] = rowsOf<{ moved: number | string }>(
    await tx.execute(sql`
      with credited as (
        select * from json_to_recordset(${JSON.stringify(journals)}::json) as c("uid" text, "journalId" bigint)
      ),
      moved as (
        update ${rebates} r set status = p.status, failure_reason = p.failure_reason,
          cash_rate_bps = p.cash_rate_bps, is_speed_up = p.is_speed_up, amount_micro = p.amount_micro,
          settled_at = ${at.toISOString()}::timestamptz, journal_id = c."journalId"
        from ${PAGE_TABLE} p
        left join credited c on c.uid = p.uid and p.status = 'completed' and p.amount_micro > 0
        where r.id = p.id and p.status is not null
          and (r.status = 'pending' or (r.status = 'failed' and r.failure_reason = 'uidNotReferred'))
        returning 1
      )
      select count(*) as moved from moved`),
  );
  return Number(row?.moved ?? 0);
}

/**
 * Stores the rows `from < n <= to` of a file decided by decideStagedFile under their ids, settled or
 * pending as decided, each completed one with cashback naming its UID's journal. Answers how many were stored: fewer than
 * the page's rows means a record of the same key appeared meanwhile, and the caller must roll back.
 */
export async function insertSettledPage(
  tx: Executor,
  query: {
    platId: number;
    decided: SQL;
    from: number;
    to: number;
    source: { kind: IngestSourceKind; label: string };
    /** The figures file's import run (import_runs), which the caller wrote first; null without one. */
    importRunId: number | null;
    journals: ReadonlyArray<{ uid: string; journalId: number }>;
    at: Date;
  },
): Promise<number> {
  const at = sql`${query.at.toISOString()}::timestamptz`;
  const [row] = rowsOf<{ stored: number | string }>(
    await tx.execute(sql`
      with credited as (
        select * from json_to_recordset(${JSON.stringify(query.journals)}::json) as c("uid" text, "journalId" bigint)
      ),
      stored as (
        insert into ${rebates} (id, plat_id, uid, period_start, period_end, trading_volume_micro, fee_micro,
          commission_micro, source, source_label, created_at, status, failure_reason, cash_rate_bps, is_speed_up,
          amount_micro, settled_at, journal_id, import_run_id)
        select p.id, ${query.platId}, p.uid, p.period_start, p.period_end, p.trading_volume_micro, p.fee_micro,
          p.commission_micro, ${query.source.kind}, ${query.source.label}, ${at}, coalesce(p.status, 'pending'),
          p.failure_reason, p.cash_rate_bps, p.is_speed_up, p.amount_micro,
          case when p.status is not null then ${at} end, c."journalId", ${query.importRunId}::bigint
        from ${query.decided} p
        left join credited c on c.uid = p.uid and p.status = 'completed' and p.amount_micro > 0
        where p.n > ${query.from} and p.n <= ${query.to}
        order by p.id
        returning 1
      )
      select count(*) as stored from stored`),
  );
  return Number(row?.stored ?? 0);
}

/** A UID of the page whose holder was invited: their inviter earns a bonus on its cashback. */
export interface InvitedUid {
  uid: string;
  ownerId: number;
  inviterId: number;
  /** The holder's binding, and when its ownership hold ends (ISO; null when confirmed). */
  bindingId: number;
  holdEndsAt: string | null;
}

/**
 * Per inviter, the sum of the invite bonuses the decided page (SettlementPage.source) earns them (each record's bonus floored
 * by `bonus`, as inviteBonusAmount) and the smallest record id among them (names the journal).
 */
export async function pageInviteBonuses(
  tx: Executor,
  page: SQL,
  invited: readonly InvitedUid[],
  bonus: (cashbackMicro: SQL) => SQL,
): Promise<Array<{ inviterId: number; amountMicro: bigint; firstRebateId: number }>> {
  if (invited.length === 0) return [];
  const perRecord = bonus(sql`p.amount_micro`);
  return rowsOf<{ inviter_id: string | number; amount: string; first_id: string | number }>(
    await tx.execute(sql`
      select i."inviterId" as inviter_id, sum(${perRecord})::text as amount, min(p.id) as first_id
      from ${page} p
      join json_to_recordset(${JSON.stringify(invited)}::json) as i("uid" text, "ownerId" bigint, "inviterId" bigint)
        on i.uid = p.uid
      where p.status = 'completed' and p.amount_micro > 0 and ${perRecord} > 0
      group by i."inviterId" order by min(p.id)`),
  ).map((row) => ({
    inviterId: Number(row.inviter_id),
    amountMicro: BigInt(row.amount),
    firstRebateId: Number(row.first_id),
  }));
}

/**
 * The page's invite bonuses, one event reward per record, each naming its inviter's journal and the
 * ownership disputes open on its UID when it was booked, if any.
 */
export async function insertPageEventRewards(
  tx: Executor,
  page: SQL,
  invited: ReadonlyArray<InvitedUid & { journalKey: string; disputeIds: number[] | null }>,
  bonus: { percent: number; perRecord: (cashbackMicro: SQL) => SQL },
  at: Date,
): Promise<void> {
  if (invited.length === 0) return;
  const perRecord = bonus.perRecord(sql`p.amount_micro`);
  await tx.execute(sql`
    insert into ${eventRewards} (user_id, kind, amount_micro, source_user_id, rebate_id, bonus_percent,
      journal_key, created_at, binding_id, hold_ends_at, dispute_ids)
    select i."inviterId", 'inviteBonus', ${perRecord}, i."ownerId", p.id, ${bonus.percent}::smallint,
      i."journalKey", ${at.toISOString()}::timestamptz, i."bindingId", i."holdEndsAt",
      nullif(array(select json_array_elements_text(i."disputeIds"))::bigint[], '{}')
    from ${page} p
    join json_to_recordset(${JSON.stringify(invited)}::json)
      as i("uid" text, "ownerId" bigint, "inviterId" bigint, "journalKey" text, "bindingId" bigint,
        "holdEndsAt" timestamptz, "disputeIds" json) on i.uid = p.uid
    where p.status = 'completed' and p.amount_micro > 0 and ${perRecord} > 0
    order by p.id`);
}

/**
 * A UID as its trading counts for a member's trade tasks: `volumeFrom`, the latest end of another
 * member's earlier binding of it (null: the whole history; bindings' `volumeFrom`). The tasks count
 * the records imported after it.
 */
export interface TradingUid {
  platId: number;
  uid: string;
  volumeFrom?: Date | null;
}

// ---------------------------------------------------------------------------------------------------
// The trading volume of a member's UIDs (the tasks)

/**
 * Whether the kept totals (rebate_uid_totals) answer for these UIDs: they count a UID's records from
 * the start, so not a holder whose trading counts from another member's binding's end.
 */
const isWholeHistory = (pairs: readonly TradingUid[]) => pairs.every((pair) => !pair.volumeFrom);

function keptTotalsOf(pairs: readonly TradingUid[]): SQL | undefined {
  return or(
    ...pairs.map((pair) => and(eq(rebateUidTotals.platId, pair.platId), eq(rebateUidTotals.uid, pair.uid))),
  );
}

/**
 * The records whose trades count towards a holder's trade tasks: after another member held the UID,
 * those imported after that binding ended (a deletion found in review 2026-11-29, an operator's move
 * or unbind 2026-11-30). Not the cashback's rule (records settled after a deletion): a record imported
 * while the earlier member held the UID had counted for their tiers (volume counts whatever the
 * status), and paid them again to the next holder, the same trader under a new e-mail or the owner
 * after the squatter. A record the earlier member could have counted was committed before their
 * binding ended, so its import time is before it. The task list's statement reads the same
 * (read-models/member-task-facts.ts).
 */
function volumeRecords(pair: TradingUid): SQL | undefined {
  return and(
    eq(rebates.platId, pair.platId),
    eq(rebates.uid, pair.uid),
    pair.volumeFrom ? gt(rebates.createdAt, pair.volumeFrom) : undefined,
  );
}

/**
 * Sum of trading_volume (micro-USDT) over the rebate records of these UIDs, whatever their status,
 * each from where its trading counts for the holder (`volumeRecords`).
 */
export async function sumTradingVolume(db: Executor, pairs: readonly TradingUid[]): Promise<bigint> {
  if (pairs.length === 0) return 0n;
  if (isWholeHistory(pairs)) {
    const [row] = await db
      .select({ total: sql<string>`coalesce(sum(${rebateUidTotals.tradingVolumeMicro}), 0)::text` })
      .from(rebateUidTotals)
      .where(keptTotalsOf(pairs));
    return BigInt(row?.total ?? '0');
  }
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${rebates.tradingVolumeMicro}), 0)::text` })
    .from(rebates)
    .where(or(...pairs.map(volumeRecords)));
  return BigInt(row?.total ?? '0');
}

// ---------------------------------------------------------------------------------------------------
// The member's summary (myInfo)

export interface MemberSummaryRow {
  platId: number;
  uid: string;
  address: string;
  boundAt: Date;
  /** The UID's kept balance (ledger_accounts.balance). */
  balance: bigint;
  /** Cashback credited to the UID from the binding's history start (rebate and correction journals). */
  credited: bigint;
}

/**
 * myInfo in one round trip, a prepared statement: the member's live bindings (oldest first) with each
 * UID's kept balance and the cashback credited from the binding's history start (journals after an
 * earlier holder's account deletion, as the record list counts records), and the rewards credited to
 * the member. It reads the bindings and the ledger tables as well as its own: the hottest member call
 * pays one query, not five (issue 14). Amounts leave as text: exact on either driver.
 */
const MEMBER_SUMMARY = `
  with reward as (
    select coalesce(sum(l.amount), 0)::text as total
    from ledger_accounts a
    join ledger_lines l on l.account_id = a.id
    join ledger_journals j on j.id = l.journal_id
    where a.code = 'rewards:' || $1::bigint and j.kind = any($2::text[])
  ), bound as (
    select b.id, b.plat_id, b.uid, b.address, b.bound_at, a.id as account_id,
      coalesce(a.balance, 0) as balance,
      (select max(earlier.unbound_at) from exchange_bindings earlier
        where earlier.plat_id = b.plat_id and earlier.uid = b.uid
          and earlier.unbind_reason = 'accountDeleted' and earlier.unbound_at <= b.bound_at) as history_from
    from exchange_bindings b
    left join ledger_accounts a on a.code = 'cashback:' || b.plat_id || ':' || b.uid
    where b.user_id = $1::bigint and b.unbound_at is null
  )
  select reward.total as reward, bound.plat_id, bound.uid, bound.address, bound.bound_at,
    bound.balance::text as balance,
    (select coalesce(sum(l.amount), 0) from ledger_lines l join ledger_journals j on j.id = l.journal_id
      where l.account_id = bound.account_id and j.kind = any($3::text[])
        and (bound.history_from is null
          or j.created_at >= date_trunc('milliseconds', bound.history_from) + interval '1 millisecond')
    )::text as credited
  from reward left join bound on true
  order by bound.bound_at, bound.id`;

export async function selectMemberSummary(
  db: Executor,
  userId: number,
  kinds: { reward: readonly string[]; cashback: readonly string[] },
): Promise<{ totalRewardMicro: bigint; bindings: MemberSummaryRow[] }> {
  const rows = await queryPrepared<{
    reward: string;
    plat_id: number | null;
    uid: string | null;
    address: string | null;
    bound_at: Date | string | null;
    balance: string | null;
    credited: string | null;
  }>(db, 'member_summary_v1', MEMBER_SUMMARY, [userId, [...kinds.reward], [...kinds.cashback]]);
  return {
    totalRewardMicro: BigInt(rows[0]?.reward ?? '0'),
    bindings: rows
      .filter((row) => row.plat_id !== null)
      .map((row) => ({
        platId: Number(row.plat_id),
        uid: row.uid as string,
        address: row.address as string,
        boundAt: new Date(row.bound_at as Date | string),
        balance: BigInt(row.balance ?? '0'),
        credited: BigInt(row.credited ?? '0'),
      })),
  };
}
