import * as z from 'zod';
import { pageNumberSchema, pageSizeSchema } from './paging.js';
import { isCalendarDay } from './rules.js';

/**
 * Daily check-in (spec sections 2, 4 and 7). A day runs from 00:00 to 24:00 UTC, the same for every
 * member, so "today" never depends on a device's clock or zone.
 */
export const CHECK_IN = {
  /** Points for one check-in; the server may override it with CHECK_IN_POINTS. */
  defaultPointsPerDay: 10,
} as const;

// /elex/user/isSignTody (sic: the spec's path)
export const SignStatusSchema = z.object({ isSignToday: z.boolean() });
export type SignStatus = z.infer<typeof SignStatusSchema>;

// /elex/activity/sign: checks in for today.
export const SignResultSchema = z.object({
  /** The UTC day checked in, YYYY-MM-DD. */
  day: z.string(),
  pointsEarned: z.number().int(),
  streak: z.number().int(),
  points: z.number().int(),
});
export type SignResult = z.infer<typeof SignResultSchema>;

const monthPattern = /^\d{4}-(0[1-9]|1[0-2])$/;

// /elex/activity/signHistory {month?: 'YYYY-MM'}: the month's calendar; the current UTC month by default.
// Its first day must be a day the product can mean (isCalendarDay, years 1970 to 9998): year 0 and
// December 9999 (whose next month is year 10000) reached the database and were refused as 'body'.
export const SignHistoryRequestSchema = z.object({
  month: z
    .string()
    .regex(monthPattern, { error: 'invalidValue' })
    .refine((month) => isCalendarDay(`${month}-01`), { error: 'invalidValue' })
    .optional(),
});
export const SignHistoryResponseSchema = z.object({
  month: z.string(),
  /** Days of the month checked in, YYYY-MM-DD, ascending. */
  signedDays: z.array(z.string()),
  today: z.string(),
  isSignToday: z.boolean(),
  /** Consecutive days up to today (or yesterday when today is not done yet). */
  streak: z.number().int(),
  pointsPerDay: z.number().int(),
});
export type SignHistory = z.infer<typeof SignHistoryResponseSchema>;

/** YYYY-MM-DD of a time's UTC day. */
export function utcDay(time: Date): string {
  return time.toISOString().slice(0, 10);
}

/**
 * Why points moved: `exclusiveSignup` (encr sign-up), `checkIn`, `task` (the reference is the task
 * id), `inviteSignup` (registered with a friend's invite code), `inviteFriend` (a friend registered
 * with the member's code). The web translates these keys.
 */
export const POINTS_REASONS = ['exclusiveSignup', 'checkIn', 'task', 'inviteSignup', 'inviteFriend'] as const;
export type PointsReason = (typeof POINTS_REASONS)[number];

// /elex/activity/pointsHistory {page, pageSize, currency?}: the member's points ledger, newest first.
export const PointsHistoryRequestSchema = z.object({
  page: pageNumberSchema,
  pageSize: pageSizeSchema(),
  currency: z.enum(['points', 'xme']).optional(),
});
export type PointsHistoryRequest = z.input<typeof PointsHistoryRequestSchema>;

export const PointsEntrySchema = z.object({
  id: z.string(),
  currency: z.enum(['points', 'xme']),
  amount: z.number().int(),
  /** One of POINTS_REASONS (a future reason arrives as its own key; the web shows it as is). */
  reason: z.string(),
  /** The day of a check-in, the task id of a task, else null. */
  reference: z.string().nullable(),
  /** A task entry: the task's kind and, for a trade task, its volume threshold in USDT. */
  task: z.object({ kind: z.string(), threshold: z.string().nullable() }).nullable(),
  createdAt: z.string(),
});
export type PointsEntry = z.infer<typeof PointsEntrySchema>;

export const PointsHistorySchema = z.object({
  entries: z.array(PointsEntrySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** The balances now. */
  points: z.number().int(),
  xmeEnergy: z.number().int(),
});
export type PointsHistory = z.infer<typeof PointsHistorySchema>;
