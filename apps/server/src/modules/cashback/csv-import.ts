import { DECIMALS } from '@elex/contract';
import type { CommissionEntry, ReferralEntry } from '../../integrations/exchanges/types.js';
import { type CsvProblem, type CsvSource, streamCsv } from '../../lib/csv.js';
import { ProblemList, type ProblemSummary } from '../../lib/problem-list.js';
import { because, explained, type Reason } from '../../lib/reasons.js';
import {
  type IngestRejectedError,
  isBadUid,
  MAX_MICRO,
  validateReferralEntries,
} from './ingest-validation.js';

/**
 * The affiliate-dashboard CSV files of `referrals:import` and `rebates:import` (docs/cashback.md,
 * "CSV files"). A file with any bad line imports nothing, and every bad line is reported with the
 * field and the reason. A roster file is read whole; a figures file streams through a staging table
 * (rebate-import.ts).
 */
const REFERRAL_COLUMNS = ['uid', 'registered_at'] as const;
export const REBATE_COLUMNS = [
  'uid',
  'period_start',
  'period_end',
  'trading_volume',
  'fee',
  'commission',
] as const;

export interface ParsedFile<T> {
  entries: T[];
  /** The file line of each entry. */
  lines: number[];
  /** The first IMPORT_PROBLEMS_KEPT problems by line. */
  problems: CsvProblem[];
  /** How many problems the file had, on how many lines. */
  problemCount: number;
  problemLines: number;
}

const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/**
 * An ISO 8601 time: a date (midnight UTC) or a date and time with its zone (Z or +hh:mm). A time
 * without a zone is refused: it would be read in the operator's zone, silently shifting periods.
 */
export function parseIsoTime(value: string): Date | Reason {
  return canonicalUtcTime(value) ?? parseAnyIsoTime(value);
}

/** The form exchanges export: 2026-01-31T00:00:00Z, milliseconds optional, a year from 1000. */
const CANONICAL_UTC = /^[1-9]\d{3}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{3})?Z$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The decimal number written by `length` ASCII digits of `text` from `at` (the caller checked them). */
function digitsAt(text: string, at: number, length: number): number {
  let value = 0;
  for (let index = at; index < at + length; index += 1) value = value * 10 + text.charCodeAt(index) - 48;
  return value;
}

/**
 * A time in the canonical UTC form read digit by digit, or undefined for anything else (another form,
 * or not a real date or time: parseAnyIsoTime says what is wrong). A million-line figures file has
 * two times a line, and the general pattern and its Date checks took six times as long (issue 14).
 * Equal to parseAnyIsoTime wherever it answers (csv-import.test.ts, a property test).
 */
export function canonicalUtcTime(value: string): Date | undefined {
  if (!CANONICAL_UTC.test(value)) return undefined;
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 2);
  const day = digitsAt(value, 8, 2);
  const [hour, minute, second] = [digitsAt(value, 11, 2), digitsAt(value, 14, 2), digitsAt(value, 17, 2)];
  if (year < 1970 || year > 9998) return undefined;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const daysInMonth = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  if (daysInMonth === undefined || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59) {
    return undefined;
  }
  const millisecond = value.length === 24 ? digitsAt(value, 20, 3) : 0;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, millisecond));
}

/** parseIsoTime for every accepted form, and the reason for anything else. */
export function parseAnyIsoTime(value: string): Date | Reason {
  const match = ISO_TIME.exec(value);
  if (!match) return because('importNotIsoTime', { cell: shown(value) });
  const [, year, month, day, hour, minute, second = '0', fraction = '', zone] = match;
  if (hour !== undefined && zone === undefined) return because('importTimeNeedsZone', { cell: shown(value) });
  const [y, mo, d, h, mi, s] = [year, month, day, hour ?? '0', minute ?? '0', second].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ms = Number(fraction.padEnd(3, '0').slice(0, 3));
  const local = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const check = new Date(local);
  if (
    check.getUTCFullYear() !== y ||
    check.getUTCMonth() !== mo - 1 ||
    check.getUTCDate() !== d ||
    h > 23 ||
    mi > 59 ||
    s > 59
  ) {
    return because('importNotRealTime', { cell: shown(value) });
  }
  let offsetMinutes = 0;
  if (zone && zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const zoneHours = Number(digits.slice(0, 2));
    const zoneMinutes = Number(digits.slice(2) || '0');
    if (zoneHours > 23 || zoneMinutes > 59) return because('importNotRealZone', { cell: shown(value) });
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (zoneHours * 60 + zoneMinutes);
  }
  const instant = new Date(local - offsetMinutes * 60_000);
  // The years a time of this product can mean (isCalendarDay's): 9999-12-31T23:00-14:00 is in the
  // year 10000, which the database cannot hold (the import stopped with a fault, found in review).
  const utcYear = instant.getUTCFullYear();
  if (utcYear < 1970 || utcYear > 9998) return because('importTimeOutOfRange', { cell: shown(value) });
  return instant;
}

/** An amount of at most 9 whole digits: its micro-USDT stays below 2^53, exact as a number. */
const SMALL_USDT = /^\d{1,9}(?:\.\d{1,6})?$/;

/** A USDT amount with up to 6 decimals as micro-USDT, or the reason it is not one. */
export function parseUsdt(value: string): bigint | Reason {
  if (SMALL_USDT.test(value)) {
    // Three amounts a line: digit by digit, one BigInt, instead of two patterns and BigInt arithmetic.
    const point = value.indexOf('.');
    const whole = point === -1 ? value.length : point;
    const fraction = point === -1 ? 0 : value.length - point - 1;
    const micro =
      digitsAt(value, 0, whole) * 10 ** DECIMALS.usdt +
      (fraction === 0 ? 0 : digitsAt(value, point + 1, fraction) * 10 ** (DECIMALS.usdt - fraction));
    return BigInt(micro);
  }
  return parseAnyUsdt(value);
}

/** parseUsdt for every amount, and the reason for anything else. */
export function parseAnyUsdt(value: string): bigint | Reason {
  if (value === '') return because('importRequired');
  const negative = /^-\s*\d/.test(value);
  const match = /^-?\s*(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match) return because('importNotDecimal', { cell: shown(value) });
  if (negative) return because('importNegativeCell', { cell: shown(value) });
  const [, whole = '0', fraction = ''] = match;
  if (fraction.length > DECIMALS.usdt) {
    return because('importTooManyDecimals', { decimals: DECIMALS.usdt, cell: shown(value) });
  }
  const micro = BigInt(whole) * 10n ** BigInt(DECIMALS.usdt) + BigInt(fraction.padEnd(DECIMALS.usdt, '0'));
  if (micro > MAX_MICRO) return because('importTooLargeCell', { cell: shown(value) });
  return micro;
}

/** The most of a cell a problem quotes: a 10 MB cell must not come back whole (issue 13). */
const QUOTED_CELL_MAX = 64;

/**
 * A cell as a problem quotes it: in quotes, control characters written out as `\u0000` (a NUL in a
 * problem list could not even be stored), cut after QUOTED_CELL_MAX characters saying how long it was.
 */
function shown(value: string): string {
  const visible = (text: string) =>
    text.replace(
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it rewrites
      /[\u0000-\u001f\u007f]/g,
      (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  return value.length <= QUOTED_CELL_MAX
    ? `"${visible(value)}"`
    : `"${visible(value.slice(0, QUOTED_CELL_MAX))}…" (${value.length} characters)`;
}

function describe(field: string, reason: Reason, line: number): CsvProblem {
  return { line, field, ...explained(reason) };
}

/** A cell that is no UID, quoted. */
const notUid = (uid: string) => because('importNotUidCell', { cell: shown(uid) });

/** Reads and checks a roster file (`uid,registered_at`): a path, or the bytes of an upload. */
export async function readReferralFile(
  file: CsvSource,
  now: Date,
  onProgress?: (bytesRead: number, bytesTotal: number) => void,
): Promise<ParsedFile<ReferralEntry>> {
  // The rows are held (a roster is read whole), the problems are not: the first ones and the counts.
  const problems = new ProblemList();
  const entries: ReferralEntry[] = [];
  const lines: number[] = [];
  const lineOfUid = new Map<string, number>();
  for await (const item of streamCsv(file, REFERRAL_COLUMNS, onProgress)) {
    if (!('values' in item)) {
      problems.add(item);
      continue;
    }
    const { line, values } = item;
    const uid = values.uid ?? '';
    const rowProblems: CsvProblem[] = [];
    const badUid = isBadUid(uid);
    if (badUid) rowProblems.push(describe('uid', notUid(uid), line));
    const registeredAt = parseIsoTime(values.registered_at ?? '');
    if (!(registeredAt instanceof Date)) rowProblems.push(describe('registered_at', registeredAt, line));
    const earlier = lineOfUid.get(uid);
    if (!badUid && earlier !== undefined) {
      rowProblems.push(describe('uid', because('importDuplicateUid', { line: earlier }), line));
    }
    if (!badUid && earlier === undefined) lineOfUid.set(uid, line);
    if (rowProblems.length > 0 || !(registeredAt instanceof Date)) {
      for (const problem of rowProblems) problems.add(problem);
      continue;
    }
    entries.push({ uid, registeredAt });
    lines.push(line);
  }
  // The lines read well, in file order: none of them had a problem above.
  problems.newPass();
  for (const { index, ...problem } of validateReferralEntries(entries, now)) {
    problems.add({ ...problem, line: lines[index] ?? 0 });
  }
  const { problems: first, count, lines: problemLines } = problems.summary();
  return { entries, lines, problems: first, problemCount: count, problemLines };
}

/** The instants of the period boundaries read last, by their text (a figures file repeats them). */
const recentTimes = new Map<string, number>();
const RECENT_TIMES_KEPT = 4_096;

/**
 * parseIsoTime of a period boundary, each text read once while it recurs: a day's file gives every
 * UID the same two boundaries (issue 14). A fresh Date each time: an entry's Date is its own.
 */
function periodTime(value: string): Date | Reason {
  const known = recentTimes.get(value);
  if (known !== undefined) return new Date(known);
  const time = parseIsoTime(value);
  if (time instanceof Date) {
    if (recentTimes.size >= RECENT_TIMES_KEPT) recentTimes.clear();
    recentTimes.set(value, time.getTime());
  }
  return time;
}

/**
 * One line of a figures file (`uid,period_start,period_end,trading_volume,fee,commission`) as an entry,
 * or every problem of its cells. The file-wide checks (duplicates, overlaps) are the import's
 * (rebate-import.ts), over the staged rows.
 */
export function parseRebateLine(
  values: Record<string, string>,
  line: number,
): { entry: CommissionEntry; problems?: undefined } | { entry?: undefined; problems: CsvProblem[] } {
  const problems: CsvProblem[] = [];
  const uid = values.uid ?? '';
  if (isBadUid(uid)) problems.push(describe('uid', notUid(uid), line));
  const times = {} as Record<'period_start' | 'period_end', Date>;
  for (const field of ['period_start', 'period_end'] as const) {
    const time = periodTime(values[field] ?? '');
    if (time instanceof Date) times[field] = time;
    else problems.push(describe(field, time, line));
  }
  const amounts = {} as Record<'trading_volume' | 'fee' | 'commission', bigint>;
  for (const field of ['trading_volume', 'fee', 'commission'] as const) {
    const amount = parseUsdt(values[field] ?? '');
    if (typeof amount === 'bigint') amounts[field] = amount;
    else problems.push(describe(field, amount, line));
  }
  if (problems.length > 0) return { problems };
  return {
    entry: {
      uid,
      periodStart: times.period_start,
      periodEnd: times.period_end,
      tradingVolumeMicro: amounts.trading_volume,
      feeMicro: amounts.fee,
      commissionMicro: amounts.commission,
    },
  };
}

/** Maps an ingest refusal (rows numbered in the batch) back to the file's lines: the first ones, counted. */
export function rejectionProblems(error: IngestRejectedError, lines: readonly number[]): ProblemSummary {
  const problems = new ProblemList();
  for (const { index, ...problem } of error.problems) problems.add({ ...problem, line: lines[index] ?? 0 });
  return problems.summary();
}
