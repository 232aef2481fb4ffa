import { dateTimeFormat } from '../../shared/i18n/intl-formats';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A record's period in UTC, the zone exchanges report in. Whole UTC days show as days, the end being
 * exclusive (a daily record reads "Jan 13, 2026"); anything else, such as a 6-hour segment, shows its
 * times ("Jan 13, 2026, 06:00 – 12:00 UTC").
 */
export function formatPeriod(startIso: string, endIso: string): string {
  const start = new Date(startIso);
  const end = new Date(endIso);
  if (start.getTime() % DAY_MS === 0 && end.getTime() % DAY_MS === 0 && end > start) {
    const days = dateTimeFormat({ timeZone: 'UTC', dateStyle: 'medium' });
    const lastDay = new Date(end.getTime() - DAY_MS);
    return lastDay.getTime() === start.getTime() ? days.format(start) : days.formatRange(start, lastDay);
  }
  return dateTimeFormat({
    timeZone: 'UTC',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).formatRange(start, end);
}
