import type { TimeWindow } from './types.js';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** Cuts [from, to) into consecutive windows of at most maxMs (an API's longest allowed range). */
export function splitWindow(window: TimeWindow, maxMs: number): TimeWindow[] {
  if (!(maxMs > 0)) throw new RangeError('maxMs must be positive');
  const parts: TimeWindow[] = [];
  for (let start = window.from.getTime(); start < window.to.getTime(); start += maxMs) {
    parts.push({ from: new Date(start), to: new Date(Math.min(start + maxMs, window.to.getTime())) });
  }
  return parts;
}

/** The start of the segment that holds `date`, segments being aligned on UTC midnight. */
export function floorToSegment(date: Date, segmentMs: number): Date {
  return new Date(Math.floor(date.getTime() / segmentMs) * segmentMs);
}

export function ceilToSegment(date: Date, segmentMs: number): Date {
  return new Date(Math.ceil(date.getTime() / segmentMs) * segmentMs);
}

/**
 * The whole periods of `periodMs` (days, on UTC midnight) that end in (from, to], as one window of
 * their starts' range [first start, last start + periodMs); undefined when none ends in it. For APIs
 * whose rows are dated by their day's start (Bitget, BingX): a day belongs to the window its end falls
 * in, so it is read only once the whole day is `settleHours` old, and a window that starts mid-day
 * (a first backfill) still holds that day.
 */
export function periodsEndingIn(window: TimeWindow, periodMs: number): TimeWindow | undefined {
  const from = floorToSegment(window.from, periodMs);
  const to = floorToSegment(window.to, periodMs);
  return to > from ? { from, to } : undefined;
}

/** Whether `at` lies in [from, to). */
export function isWithin(at: Date, window: TimeWindow): boolean {
  const time = at.getTime();
  return time >= window.from.getTime() && time < window.to.getTime();
}

/** A UTC calendar day as YYYYMMDD (BingX) or with a separator (YYYY-MM-DD). */
export function utcDay(date: Date, separator = ''): string {
  const [year, month, day] = date.toISOString().slice(0, 10).split('-');
  return [year, month, day].join(separator);
}

/**
 * Reads the time formats exchanges use for one instant: epoch milliseconds or seconds (number or
 * digits), YYYYMMDD, or an ISO-like date-time without zone (taken as UTC). Throws on anything else.
 */
export function parseExchangeTime(value: unknown, unit: 'ms' | 's' = 'ms'): Date {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  let date: Date | undefined;
  if (/^\d{8}$/.test(text)) {
    date = new Date(`${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}T00:00:00Z`);
  } else if (/^\d+$/.test(text)) {
    date = new Date(Number(text) * (unit === 's' ? 1000 : 1));
  } else if (/^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(text)) {
    const iso = text.replace(' ', 'T');
    date = new Date(/Z|[+-]\d{2}:?\d{2}$/.test(iso) || iso.length === 10 ? iso : `${iso}Z`);
  }
  if (!date || Number.isNaN(date.getTime())) throw new RangeError(`not a time: ${JSON.stringify(value)}`);
  return date;
}
