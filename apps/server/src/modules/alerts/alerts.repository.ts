import type { AlertKind, AlertPreferences } from '@elex/contract';
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { alertPreferences, alertsSent } from './alerts.tables.js';

/** Reads and writes the alert tables; the summary and the sync streak read other modules' tables. */

const COLUMN: Record<AlertKind, string> = {
  withdrawalRequested: 'withdrawal_requested',
  syncFailing: 'sync_failing',
  ledgerBroken: 'ledger_broken',
  clockSkew: 'clock_skew',
  dailySummary: 'daily_summary',
  payoutWalletShort: 'payout_wallet_short',
  payoutStuck: 'payout_stuck',
};

export interface AlertRecipient {
  userId: number;
  email: string;
  locale: string;
}

/** Every operator with a live account who has this alert on (no preferences row: all on). */
export async function selectAlertRecipients(db: Executor, kind: AlertKind): Promise<AlertRecipient[]> {
  return rowsOf<{ user_id: string; email: string; locale: string }>(
    await db.execute(sql`
      select u.id as user_id, u.email, u.locale
      from operators o
      join users u on u.id = o.user_id
      left join alert_preferences p on p.user_id = o.user_id
      where u.email is not null and u.deleted_at is null
        and coalesce(p.${sql.identifier(COLUMN[kind])}, true)
      order by u.id`),
  ).map((row) => ({ userId: Number(row.user_id), email: row.email, locale: row.locale }));
}

export async function selectPreferences(db: Executor, userId: number): Promise<AlertPreferences> {
  const [row] = await db.select().from(alertPreferences).where(eq(alertPreferences.userId, userId));
  return {
    withdrawalRequested: row?.withdrawalRequested ?? true,
    syncFailing: row?.syncFailing ?? true,
    ledgerBroken: row?.ledgerBroken ?? true,
    clockSkew: row?.clockSkew ?? true,
    dailySummary: row?.dailySummary ?? true,
    payoutWalletShort: row?.payoutWalletShort ?? true,
    payoutStuck: row?.payoutStuck ?? true,
  };
}

export async function upsertPreferences(
  db: Executor,
  userId: number,
  preferences: AlertPreferences,
  at: Date,
): Promise<void> {
  await db
    .insert(alertPreferences)
    .values({ userId, ...preferences, updatedAt: at })
    .onConflictDoUpdate({ target: alertPreferences.userId, set: { ...preferences, updatedAt: at } });
}

/** Claims a once-only alert; false when another run (or instance) already sent it. */
export async function claimAlertKey(db: Executor, key: string, at: Date): Promise<boolean> {
  const inserted = await db
    .insert(alertsSent)
    .values({ key, sentAt: at })
    .onConflictDoNothing()
    .returning({ key: alertsSent.key });
  return inserted.length > 0;
}

/**
 * Failed runs of an exchange since its last successful one or an operator's skip of a segment
 * (`sync:skip`: the operator has dealt with that failure, so the next stuck segment alerts again).
 * Runs skipped because another held the cursor count neither way.
 */
export async function selectFailureStreak(
  db: Executor,
  platId: number,
): Promise<{ failures: number; since: Date | null; error: string | null }> {
  const [row] = rowsOf<{ failures: string; since: string | null; error: string | null }>(
    await db.execute(sql`
      with streak as (
        select id, started_at, error from sync_runs
        where plat_id = ${platId} and status = 'failed'
          and id > coalesce((select max(id) from sync_runs where plat_id = ${platId}
            and (status = 'succeeded' or (status = 'skipped' and segments_total > 0))), 0)
      )
      select count(*) as failures,
             to_char(min(started_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as since,
             (select error from streak order by id desc limit 1) as error
      from streak`),
  );
  return {
    failures: Number(row?.failures ?? 0),
    since: row?.since ? new Date(row.since) : null,
    error: row?.error ?? null,
  };
}

const usdt = (column: string) =>
  sql.raw(`(coalesce(sum(${column}), 0)::numeric / 1000000)::numeric(38, 6)::text`);

export interface SummaryFigures {
  newMembers: number;
  requested: { count: number; amount: string };
  paid: { count: number; amount: string };
  commission: string;
  pending: { count: number; amount: string };
  syncs: Array<{ exchange: string; status: string; finishedAt: string | null; lastSuccessAt: string | null }>;
}

/** The daily summary's figures for [start, end), and the state now (pending, syncs). */
export async function selectSummaryFigures(db: Executor, start: Date, end: Date): Promise<SummaryFigures> {
  const from = sql`${start.toISOString()}::timestamptz`;
  const to = sql`${end.toISOString()}::timestamptz`;
  const one = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(query))[0] as T;
  const members = await one<{ n: string }>(
    sql`select count(*) as n from users where created_at >= ${from} and created_at < ${to}`,
  );
  const requested = await one<{ n: string; amount: string }>(
    sql`select count(*) as n, ${usdt('amount_micro')} as amount from withdrawals
        where created_at >= ${from} and created_at < ${to}`,
  );
  const paid = await one<{ n: string; amount: string }>(
    sql`select count(*) as n, ${usdt('amount_micro')} as amount from withdrawals
        where status = 'completed' and decided_at >= ${from} and decided_at < ${to}`,
  );
  const commission = await one<{ amount: string }>(
    sql`select ${usdt('commission_micro')} as amount from rebates where created_at >= ${from} and created_at < ${to}`,
  );
  const pending = await one<{ n: string; amount: string }>(
    sql`select count(*) as n, ${usdt('amount_micro')} as amount from withdrawals where status = 'pending'`,
  );
  const iso = (column: string) =>
    sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
  const syncs = rowsOf<{
    exchange: string;
    status: string;
    finished_at: string | null;
    last_success: string | null;
  }>(
    await db.execute(sql`
      select e.name as exchange, last.status, ${iso('last.finished_at')} as finished_at,
             (select ${iso('max(s.finished_at)')} from sync_runs s
              where s.plat_id = last.plat_id and s.status = 'succeeded') as last_success
      from (select distinct on (plat_id) plat_id, status, finished_at from sync_runs
            where status <> 'skipped' order by plat_id, started_at desc, id desc) last
      join exchanges e on e.id = last.plat_id
      order by e.name`),
  );
  return {
    newMembers: Number(members.n),
    requested: { count: Number(requested.n), amount: requested.amount },
    paid: { count: Number(paid.n), amount: paid.amount },
    commission: commission.amount,
    pending: { count: Number(pending.n), amount: pending.amount },
    syncs: syncs.map((row) => ({
      exchange: row.exchange,
      status: row.status,
      finishedAt: row.finished_at,
      lastSuccessAt: row.last_success,
    })),
  };
}
