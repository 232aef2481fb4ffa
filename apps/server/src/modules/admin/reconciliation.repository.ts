import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';

/**
 * Read-only aggregate queries of the console's reconciliation (docs/operator-console.md,
 * "Reconciliation"). Every figure is summed by the database, grouped by exchange: nothing loads the
 * records themselves, only the page of rows a list shows.
 */

export interface CommissionFigures {
  platId: number;
  records: number;
  commissionMicro: bigint;
  creditedMicro: bigint;
  creditedUnboundMicro: bigint;
  rewardsMicro: bigint;
  /** Commission of the completed records (credited + rewards + margin). */
  settledCommissionMicro: bigint;
  awaitingMicro: bigint;
  unboundMicro: bigint;
}

/**
 * Per exchange, the records received (created) in [from, to) and what became of them, in one
 * statement (one snapshot, so the identity holds even while a settlement commits):
 * completed -> credited (their amount = their rebate journal), rewards (their invite bonus) and the
 * margin; not completed with the UID in the roster -> awaiting settlement; UID not in the roster ->
 * unbound. A `noCommission` record has commission 0 and adds nothing anywhere.
 *
 * Summed per UID first (each worker of a parallel scan sums its share), then per exchange with each
 * UID's live binding joined once: not every record joined, sorted and summed in one process (1.1 s
 * -> 0.25 s for a million records, docs/decisions.md "The operator console's read calls at a million
 * rows"). The invite bonuses are read from the rewards that name a record; the open records (their own
 * index) ask the roster, an index probe each: no hash of the whole roster.
 */
export async function sumCommissionByExchange(
  db: Executor,
  from: Date,
  to: Date,
): Promise<CommissionFigures[]> {
  const received = sql`r.created_at >= ${from} and r.created_at < ${to}`;
  const rows = await db.transaction(async (tx) => {
    // The pool names a statement it runs often (db/named-statements.ts), and after five runs on a
    // connection PostgreSQL keeps its generic plan: blind to the period, it guesses a few thousand
    // records and sums a million in one process instead of parallel workers (0.7 s, not 0.25 s). Here
    // the period's own plan every time: its planning costs a few milliseconds of a rare call.
    await tx.execute(sql`set local plan_cache_mode = force_custom_plan`);
    return rowsOf<Record<string, string | number>>(
      await tx.execute(sql`
      with per_uid as (
        select r.plat_id, r.uid,
          count(*) as records,
          sum(r.commission_micro) as commission,
          sum(r.amount_micro) filter (where r.status = 'completed') as credited,
          sum(r.commission_micro) filter (where r.status = 'completed') as settled_commission
        from rebates r
        where ${received}
        group by r.plat_id, r.uid
      ), per_exchange as (
        select p.plat_id,
          sum(p.records) as records,
          coalesce(sum(p.commission), 0) as commission,
          coalesce(sum(p.credited), 0) as credited,
          coalesce(sum(p.credited) filter (where b.id is null), 0) as credited_unbound,
          coalesce(sum(p.settled_commission), 0) as settled_commission
        from per_uid p
        left join exchange_bindings b on b.plat_id = p.plat_id and b.uid = p.uid and b.unbound_at is null
        group by p.plat_id
      ), bonuses as (
        select r.plat_id, sum(e.amount_micro) as rewards
        from event_rewards e
        join rebates r on r.id = e.rebate_id
        where e.kind = 'inviteBonus' and ${received}
        group by r.plat_id
      ), still_open as (
        select r.plat_id,
          coalesce(sum(r.commission_micro) filter (where ref.id is not null), 0) as awaiting,
          coalesce(sum(r.commission_micro) filter (where ref.id is null), 0) as unbound
        from rebates r
        left join referrals ref on ref.plat_id = r.plat_id and ref.uid = r.uid
        where r.status <> 'completed' and ${received}
        group by r.plat_id
      )
      select x.plat_id, x.records, x.commission, x.credited, x.credited_unbound,
        coalesce(bonuses.rewards, 0) as rewards, x.settled_commission,
        coalesce(still_open.awaiting, 0) as awaiting, coalesce(still_open.unbound, 0) as unbound
      from per_exchange x
      left join bonuses on bonuses.plat_id = x.plat_id
      left join still_open on still_open.plat_id = x.plat_id`),
    );
  });
  return rows.map(commissionFiguresOf);
}

/** One exchange's row of the summary's statement (and of the statement it replaced, in its test). */
export function commissionFiguresOf(row: Record<string, string | number>): CommissionFigures {
  return {
    platId: Number(row.plat_id),
    records: Number(row.records),
    commissionMicro: BigInt(row.commission as string),
    creditedMicro: BigInt(row.credited as string),
    creditedUnboundMicro: BigInt(row.credited_unbound as string),
    rewardsMicro: BigInt(row.rewards as string),
    settledCommissionMicro: BigInt(row.settled_commission as string),
    awaitingMicro: BigInt(row.awaiting as string),
    unboundMicro: BigInt(row.unbound as string),
  };
}

export interface WithdrawalFigures {
  platId: number;
  paidOutMicro: bigint;
  heldMicro: bigint;
  heldCount: number;
}

/**
 * Per exchange: withdrawals of its UIDs paid in [from, to) (decided then: the payout journal's date)
 * and those under review now (their holds).
 */
export async function sumWithdrawalsByExchange(
  db: Executor,
  from: Date,
  to: Date,
): Promise<WithdrawalFigures[]> {
  const paid = sql`w.status = 'completed' and w.decided_at >= ${from} and w.decided_at < ${to}`;
  const rows = rowsOf<Record<string, string | number>>(
    await db.execute(sql`
      select w.plat_id,
        coalesce(sum(w.amount_micro) filter (where ${paid}), 0) as paid_out,
        coalesce(sum(w.amount_micro) filter (where w.status = 'pending'), 0) as held,
        count(*) filter (where w.status = 'pending') as held_count
      from withdrawals w
      where w.status = 'pending' or (${paid})
      group by w.plat_id`),
  );
  return rows.map((row) => ({
    platId: Number(row.plat_id),
    paidOutMicro: BigInt(row.paid_out as string),
    heldMicro: BigInt(row.held as string),
    heldCount: Number(row.held_count),
  }));
}

export interface RosterRow {
  uid: string;
  registeredAt: Date;
  source: string;
  sourceLabel: string;
  firstSeenAt: Date;
  email: string | null;
  boundAt: Date | null;
}

/** The byte-order range of UIDs starting with a prefix ('~' sorts after every UID character). */
const uidPrefixRange = (prefix: string) =>
  sql`(ref.uid collate "C") >= ${prefix} and (ref.uid collate "C") < ${`${prefix}~`}`;

const asDate = (value: unknown) => (value instanceof Date ? value : new Date(value as string));
const asDateOrNull = (value: unknown) => (value === null || value === undefined ? null : asDate(value));

/**
 * The statement of a roster page: the page's UIDs first, in the order of the index on (plat_id, uid
 * in byte order), then who holds those few. Joining the bindings and members to the whole roster
 * before the page let the planner sort and join every UID of the exchange for a deep page, and with the
 * statistics of a roster just imported (before autovacuum analyzes it) probe every binding for each
 * UID: 17,604 UIDs, last page, 467 ms; the page first, 8 ms (docs/decisions.md, "The operator
 * console's read calls at a million rows").
 */
export function rosterPageStatement(query: {
  platId: number;
  prefix: string;
  page: number;
  pageSize: number;
}) {
  const where = query.prefix
    ? sql`ref.plat_id = ${query.platId} and ${uidPrefixRange(query.prefix)}`
    : sql`ref.plat_id = ${query.platId}`;
  return {
    where,
    page: sql`
      select page.uid, page.registered_at, page.source, page.source_label, page.first_seen_at, u.email, b.bound_at
      from (
        select ref.plat_id, ref.uid, ref.registered_at, ref.source, ref.source_label, ref.first_seen_at
        from referrals ref
        where ${where}
        order by (ref.uid collate "C")
        limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}
      ) page
      left join exchange_bindings b on b.plat_id = page.plat_id and b.uid = page.uid and b.unbound_at is null
      left join users u on u.id = b.user_id
      order by (page.uid collate "C")`,
  };
}

/** A page of an exchange's roster in UID byte order, with whoever holds each UID now. */
export async function selectRosterPage(
  db: Executor,
  query: { platId: number; prefix: string; page: number; pageSize: number },
): Promise<{ rows: RosterRow[]; total: number }> {
  const { where, page } = rosterPageStatement(query);
  const rows = rowsOf<Record<string, unknown>>(await db.execute(page));
  const [count] = rowsOf<{ total: string }>(
    await db.execute(sql`select count(*) as total from referrals ref where ${where}`),
  );
  return {
    rows: rows.map((row) => ({
      uid: row.uid as string,
      registeredAt: asDate(row.registered_at),
      source: row.source as string,
      sourceLabel: row.source_label as string,
      firstSeenAt: asDate(row.first_seen_at),
      email: (row.email as string | null) ?? null,
      boundAt: asDateOrNull(row.bound_at),
    })),
    total: Number(count?.total ?? 0),
  };
}

export interface OpenRebateRow {
  id: number;
  uid: string;
  periodStart: Date;
  periodEnd: Date;
  feeMicro: bigint;
  commissionMicro: bigint;
  status: 'pending' | 'failed';
  failureReason: string | null;
  createdAt: Date;
  settledAt: Date | null;
  inRoster: boolean;
  email: string | null;
}

/** A page of an exchange's records not completed (pending or failed), latest period first. */
export async function selectOpenRebatePage(
  db: Executor,
  query: { platId: number; status?: 'pending' | 'failed'; uid?: string; page: number; pageSize: number },
): Promise<{ rows: OpenRebateRow[]; total: number }> {
  const where = sql.join(
    [
      sql`r.plat_id = ${query.platId} and r.status <> 'completed'`,
      ...(query.status ? [sql`r.status = ${query.status}`] : []),
      ...(query.uid ? [sql`r.uid = ${query.uid}`] : []),
    ],
    sql` and `,
  );
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select r.id, r.uid, r.period_start, r.period_end, r.fee_micro, r.commission_micro, r.status,
        r.failure_reason, r.created_at, r.settled_at, ref.id is not null as in_roster, u.email
      from rebates r
      left join referrals ref on ref.plat_id = r.plat_id and ref.uid = r.uid
      left join exchange_bindings b on b.plat_id = r.plat_id and b.uid = r.uid and b.unbound_at is null
      left join users u on u.id = b.user_id
      where ${where}
      order by r.period_end desc, r.id desc
      limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`),
  );
  const [count] = rowsOf<{ total: string }>(
    await db.execute(sql`select count(*) as total from rebates r where ${where}`),
  );
  return {
    rows: rows.map((row) => ({
      id: Number(row.id),
      uid: row.uid as string,
      periodStart: asDate(row.period_start),
      periodEnd: asDate(row.period_end),
      feeMicro: BigInt(row.fee_micro as string),
      commissionMicro: BigInt(row.commission_micro as string),
      status: row.status as 'pending' | 'failed',
      failureReason: (row.failure_reason as string | null) ?? null,
      createdAt: asDate(row.created_at),
      settledAt: asDateOrNull(row.settled_at),
      inRoster: row.in_roster === true || row.in_roster === 't',
      email: (row.email as string | null) ?? null,
    })),
    total: Number(count?.total ?? 0),
  };
}
