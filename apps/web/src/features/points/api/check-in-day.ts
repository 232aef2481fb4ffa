/**
 * The check-in day is the UTC day (docs/engagement.md). Asking a few seconds after it ends leaves room
 * for a device clock that runs slightly ahead of the server's.
 */
const AFTER_DAY_END_MS = 5_000;

/** Milliseconds from `now` until just after the next 00:00 UTC, when "checked in today" turns false. */
export function untilNextCheckInDay(now: number = Date.now()): number {
  const dayEnd = new Date(now);
  dayEnd.setUTCHours(24, 0, 0, 0);
  return dayEnd.getTime() - now + AFTER_DAY_END_MS;
}

/**
 * Query options that keep a day's check-in answer until the day ends and then ask again, also in a
 * tab left open in the background (window-focus refetching is off app-wide).
 */
export const refreshAtCheckInDayEnd = {
  refetchInterval: () => untilNextCheckInDay(),
  refetchIntervalInBackground: true,
} as const;
