import { type SignHistory, type SignResult, utcDay } from '@elex/contract';
import { and, desc, eq, gte, lt } from 'drizzle-orm';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import { checkIns } from './check-in.tables.js';
import { balances, grantPoints } from './points.service.js';

const DAY_MS = 86_400_000;

export async function isSignedToday(deps: AppDeps, userId: number): Promise<boolean> {
  const rows = await deps.db
    .select({ day: checkIns.day })
    .from(checkIns)
    .where(and(eq(checkIns.userId, userId), eq(checkIns.day, utcDay(deps.clock.now()))))
    .limit(1);
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

/** The month's calendar of check-ins and the current streak. */
export async function checkInHistory(deps: AppDeps, userId: number, month?: string): Promise<SignHistory> {
  const today = utcDay(deps.clock.now());
  const monthKey = month ?? today.slice(0, 7);
  const start = `${monthKey}-01`;
  const next = new Date(`${start}T00:00:00Z`);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const rows = await deps.db
    .select({ day: checkIns.day })
    .from(checkIns)
    .where(and(eq(checkIns.userId, userId), gte(checkIns.day, start), lt(checkIns.day, utcDay(next))))
    .orderBy(checkIns.day);
  const signedDays = rows.map((row) => row.day);
  const isSignToday =
    monthKey === today.slice(0, 7) ? signedDays.includes(today) : await isSignedToday(deps, userId);
  return {
    month: monthKey,
    signedDays,
    today,
    isSignToday,
    streak: await currentStreak(deps, userId),
    pointsPerDay: deps.config.checkInPoints,
  };
}

/** Consecutive days ending today, or yesterday while today's check-in is still open. */
async function currentStreak(deps: AppDeps, userId: number): Promise<number> {
  const today = new Date(`${utcDay(deps.clock.now())}T00:00:00Z`).getTime();
  const rows = await deps.db
    .select({ day: checkIns.day })
    .from(checkIns)
    .where(eq(checkIns.userId, userId))
    .orderBy(desc(checkIns.day))
    .limit(400);
  let expected = rows[0]?.day === utcDay(new Date(today)) ? today : today - DAY_MS;
  let streak = 0;
  for (const row of rows) {
    if (new Date(`${row.day}T00:00:00Z`).getTime() !== expected) break;
    streak += 1;
    expected -= DAY_MS;
  }
  return streak;
}
