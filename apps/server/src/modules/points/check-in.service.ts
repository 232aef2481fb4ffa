import { type SignHistory, type SignResult, utcDay } from '@elex/contract';
import { and, eq, sql } from 'drizzle-orm';
import { builtOnce } from '../../db/built-once.js';
import { answerKind, keptForMember } from '../../db/member-answers.js';
import { queryPrepared } from '../../db/prepared.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import { checkIns } from './check-in.tables.js';
import { balances, grantPoints } from './points.service.js';

const checkedInOn = builtOnce((db) =>
  db
    .select({ day: checkIns.day })
    .from(checkIns)
    .where(and(eq(checkIns.userId, sql.placeholder('userId')), eq(checkIns.day, sql.placeholder('day'))))
    .limit(1)
    .prepare('checked_in_on'),
);

/** isSignTody answers kept per process, by member and UTC day (db/member-answers.ts). */
const SIGNED_ON = answerKind<boolean>('isSignTody', 20_000);

/**
 * /elex/user/isSignTody: whether the member checked in on today's UTC day. Kept in this process by
 * member and day, so a new day is a new key and never served the day before's answer; dropped when
 * the member's check-ins change (the check_ins triggers of migration 0051 notify).
 */
export async function isSignedToday(deps: AppDeps, userId: number): Promise<boolean> {
  const day = utcDay(deps.clock.now());
  return keptForMember(deps.memberAnswers, SIGNED_ON, userId, () => checkedIn(deps, userId, day), {
    key: `${userId}:${day}`,
  });
}

async function checkedIn(deps: AppDeps, userId: number, day: string): Promise<boolean> {
  const rows = await checkedInOn(deps.db).execute({ userId, day });
  return rows.length > 0;
}

/**
 * Checks in for today (UTC). The check-in row and its points are written in one transaction; the
 * (user, day) key lets exactly one of two racing requests through, the other hears 'Already Checked In'.
 */
export async function checkIn(deps: AppDeps, userId: number): Promise<SignResult> {
  const now = deps.clock.now();
  const day = utcDay(now);
  const pointsEarned = deps.config.checkInPoints;
  await deps.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(checkIns)
      .values({ userId, day, points: pointsEarned, createdAt: now })
      .onConflictDoNothing()
      .returning({ day: checkIns.day });
    if (inserted.length === 0) throw AppError.refused('alreadyCheckedIn');
    await grantPoints(tx, {
      userId,
      currency: 'points',
      amount: pointsEarned,
      reason: 'checkIn',
      reference: day,
      at: now,
    });
  });
  const [streak, { points }] = await Promise.all([currentStreak(deps, userId), balances(deps.db, userId)]);
  return { day, pointsEarned, streak, points };
}

/**
 * A member's check-in facts in one statement (issue 14): the days checked in within [from, before),
 * whether today is one, and the streak, the consecutive days ending today, or yesterday while today's
 * check-in is still open. The streak is counted from the start of the run that ends on that day (the
 * newest checked-in day whose day before is not checked in), read backwards along the (member, day)
 * key: one index probe per day of the streak, with no cap (found in review, 2026-11-29: the newest
 * 400 days were read, so a streak of 450 days showed 400 for ever after).
 */
const CHECK_IN_FACTS = `
  with today as (
    select exists (select 1 from check_ins where user_id = $1::bigint and day = $2::date) as signed
  ), anchor as (
    select case when today.signed then $2::date else $2::date - 1 end as day from today
  )
  select
    coalesce((
      select anchor.day - run_start.day + 1 from anchor, lateral (
        select s.day from check_ins s
        where s.user_id = $1::bigint and s.day <= anchor.day
          and not exists (select 1 from check_ins p where p.user_id = $1::bigint and p.day = s.day - 1)
        order by s.day desc limit 1
      ) run_start
      where exists (select 1 from check_ins a where a.user_id = $1::bigint and a.day = anchor.day)
    ), 0)::integer as streak,
    (select signed from today) as signed_today,
    (select string_agg(to_char(day, 'YYYY-MM-DD'), ',' order by day) from check_ins
      where user_id = $1::bigint and day >= $3::date and day < $4::date) as days`;

async function checkInFacts(
  deps: AppDeps,
  userId: number,
  today: string,
  month: { from: string; before: string },
): Promise<{ streak: number; signedToday: boolean; days: string[] }> {
  const [row] = await queryPrepared<{ streak: number; signed_today: boolean; days: string | null }>(
    deps.db,
    'check_in_facts_v2',
    CHECK_IN_FACTS,
    [userId, today, month.from, month.before],
  );
  return {
    streak: Number(row?.streak ?? 0),
    signedToday: row?.signed_today === true,
    days: row?.days ? row.days.split(',') : [],
  };
}

/** signHistory answers kept per process, by member, UTC day and month (db/member-answers.ts): ~1 KB each. */
const SIGN_HISTORY = answerKind<SignHistory>('signHistory', 20_000, {
  maxBytes: 32 * 1024 * 1024,
  sizeOf: (value) => 200 + value.signedDays.length * 16,
});

/**
 * The month's calendar of check-ins and the current streak. Kept in this process by member, **UTC
 * day** and month (today's day and streak change with the day: a new day is a new key, never the day
 * before's answer), until the member's check-ins change (the check_ins triggers of migration 0051).
 * Reads only `check_ins`; the points per day are this process's configuration.
 */
export async function checkInHistory(deps: AppDeps, userId: number, month?: string): Promise<SignHistory> {
  const today = utcDay(deps.clock.now());
  const monthKey = month ?? today.slice(0, 7);
  return keptForMember(
    deps.memberAnswers,
    SIGN_HISTORY,
    userId,
    () => readCheckInHistory(deps, userId, today, monthKey),
    {
      key: JSON.stringify([userId, today, monthKey]),
    },
  );
}

async function readCheckInHistory(
  deps: AppDeps,
  userId: number,
  today: string,
  monthKey: string,
): Promise<SignHistory> {
  const start = `${monthKey}-01`;
  const next = new Date(`${start}T00:00:00Z`);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const facts = await checkInFacts(deps, userId, today, { from: start, before: utcDay(next) });
  return Object.freeze({
    month: monthKey,
    signedDays: Object.freeze(facts.days),
    today,
    isSignToday: facts.signedToday,
    streak: facts.streak,
    pointsPerDay: deps.config.checkInPoints,
  }) as SignHistory;
}

/** Consecutive days ending today, or yesterday while today's check-in is still open (no cap). */
async function currentStreak(deps: AppDeps, userId: number): Promise<number> {
  const today = utcDay(deps.clock.now());
  return (await checkInFacts(deps, userId, today, { from: today, before: today })).streak;
}
