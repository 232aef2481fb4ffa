/**
 * Times in messages: UTC, said so. To the minute by default ("2026-01-18 12:00 UTC"), as pauses and
 * locks are named; `exact` adds the seconds when a time has any ("2026-01-18 12:00:30 UTC"), so two
 * registration times a few seconds apart do not read the same.
 */
export function displayTime(date: Date, precision: 'minute' | 'exact' = 'minute'): string {
  const iso = date.toISOString();
  const exactSeconds = precision === 'exact' && date.getTime() % 60_000 !== 0;
  return `${iso.slice(0, exactSeconds ? 19 : 16).replace('T', ' ')} UTC`;
}

/** A kept ISO time said as `displayTime` says it; a text that is not a time stays as kept. */
export function displayIsoTime(iso: string, precision: 'minute' | 'exact' = 'minute'): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : displayTime(date, precision);
}
