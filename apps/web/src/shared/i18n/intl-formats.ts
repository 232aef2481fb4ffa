import { useEffect } from 'react';
import { currentLocale } from './i18n';

/**
 * Intl formatters for the shown language, made once per language and options (issue 14). Making one
 * is the expensive part of formatting: the home's ranking built a NumberFormat for every figure, and a
 * profile of the first visit (mobile, 4x CPU slowdown) put 90 ms of its longest task there. The
 * options are constants at the call sites, so the cache holds a handful of formatters per language.
 */
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

function cached<F>(
  cache: Map<string, F>,
  options: object | undefined,
  make: (locale: string) => F,
  zone = '',
): F {
  const locale = currentLocale();
  const key = `${locale} ${zone} ${JSON.stringify(options ?? {})}`;
  let format = cache.get(key);
  if (!format) {
    format = make(locale);
    cache.set(key, format);
  }
  return format;
}

export function numberFormat(options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  return cached(numberFormats, options, (locale) => new Intl.NumberFormat(locale, options));
}

/**
 * For a page about to show its first figures: the first number formatter the browser makes loads the
 * ICU data behind them all (70–110 ms on a slow phone, issue 14), so one is made in a task of its own
 * while the page waits for its data, not inside the render that shows them.
 */
export function useNumberFormattingWarmed() {
  useEffect(() => {
    const warming = setTimeout(() => numberFormat().format(0), 0);
    return () => clearTimeout(warming);
  }, []);
}

/**
 * Give a date or a time component, or a date or time style: with none, a DateTimeFormat shows the date
 * alone (where `toLocaleString` shows date and time).
 */
export function dateTimeFormat(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  // A formatter without a time zone keeps the device's zone of when it was made: one made again once
  // the device's offset changes (a trader travelling with the tab open, summer time).
  const zone = options.timeZone ? '' : String(new Date().getTimezoneOffset());
  return cached(dateTimeFormats, options, (locale) => new Intl.DateTimeFormat(locale, options), zone);
}

/**
 * A member's time in their own zone, "Nov 27, 2026, 3:04 PM", as every member page shows it; a dash for
 * a missing or unreadable time (Intl throws where toLocaleString said "Invalid Date").
 */
export function formatLocalTime(iso: string): string {
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return '—';
  return dateTimeFormat({ dateStyle: 'medium', timeStyle: 'short' }).format(time);
}

/**
 * A calendar day ("2026-03-10", or the day of a UTC time) in the reader's language, "Mar 10, 2026":
 * read in UTC, so it is the same day wherever the reader is.
 */
export function formatDay(iso: string): string {
  const day = new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso);
  if (Number.isNaN(day.getTime())) return iso;
  return dateTimeFormat({ timeZone: 'UTC', dateStyle: 'medium' }).format(day);
}
