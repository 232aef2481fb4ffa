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

/** English's short month names, as its medium date style writes them. */
const MONTHS_EN = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A calendar day ("2026-03-10", or the day of a UTC time) in the reader's language, as the medium date
 * style writes it ("Mar 10, 2026", "2026年3月10日", "2026. 3. 10."): read in UTC, so it is the same day
 * wherever the reader is. Written by hand for the three languages: the first DateTimeFormat a page
 * makes loads the browser's date data (40–150 ms of main thread on the bench's machine, more on a
 * phone), and a public page shows one day (docs/decisions.md, "Figures written without
 * Intl.NumberFormat"); intl-formats.test.ts holds it equal to Intl for every day of four years.
 */
export function formatDay(iso: string): string {
  const day = new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso);
  if (Number.isNaN(day.getTime())) return iso;
  const year = day.getUTCFullYear();
  const month = day.getUTCMonth();
  const date = day.getUTCDate();
  switch (currentLocale()) {
    case 'en':
      return `${MONTHS_EN[month]} ${date}, ${year}`;
    case 'zh':
      return `${year}年${month + 1}月${date}日`;
    case 'ko':
      return `${year}. ${month + 1}. ${date}.`;
    default:
      return dateTimeFormat({ timeZone: 'UTC', dateStyle: 'medium' }).format(day);
  }
}
