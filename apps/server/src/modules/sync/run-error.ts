import { isMessageKey, type Locale, type MessageKey, translate } from '@elex/contract';
import { displayIsoTime } from '../../lib/display-time.js';

/**
 * What a sync run keeps in `sync_runs.error`, and how it reads in a language. A failure is kept as its
 * text (an exception's message, in English, as before). Rows left out for a clash with stored figures
 * are kept as facts (UID, period, the reason's message key and parameters) in a JSON document, so
 * the console says them in the operator's language and the command line and the log in English. A
 * text that is not such a document (a failure alone, a skip's note, a note kept in English before
 * notes were kept as facts) reads as it was kept. Roster entries of UIDs already in the roster that
 * state another registration time (counted as known; the stored time stays) are kept the same way,
 * as the CSV roster import names such lines (`importRegistrationDiffers`).
 */

/** A row a sync page left out, as the ingest names it. */
export interface LeftOutRow {
  uid: string;
  periodStart: Date;
  periodEnd: Date;
  key: MessageKey;
  params?: Record<string, string | number>;
}

/** A roster entry of a known UID stating another registration time, as the ingest names it. */
export interface RestatedUid {
  uid: string;
  stored: Date;
  stated: Date;
}

/** How many rows a run keeps and lists (the log has them all). */
const LEFT_OUT_LISTED = 20;

/** Marks the document; a failure's text never starts with it. */
const FORMAT = 'elex.sync-run-error/1';

interface KeptRow {
  uid: string;
  start: string;
  end: string;
  key: string;
  params?: Record<string, string | number>;
}

interface KeptRestated {
  uid: string;
  stored: string;
  stated: string;
}

interface KeptError {
  format: typeof FORMAT;
  failure?: string;
  /** Absent in a document that only names restated registrations. */
  leftOut?: { count: number; rows: KeptRow[] };
  restated?: { count: number; rows: KeptRestated[] };
}

/**
 * What to keep in the run's `error`: undefined when nothing failed, no row was left out and no known
 * UID was listed with another registration time.
 */
export function storedRunError(
  failure: string | undefined,
  leftOut: readonly LeftOutRow[],
  restated: readonly RestatedUid[] = [],
): string | undefined {
  if (leftOut.length === 0 && restated.length === 0) return failure;
  const kept: KeptError = {
    format: FORMAT,
    ...(failure === undefined ? {} : { failure }),
    ...(leftOut.length === 0
      ? {}
      : {
          leftOut: {
            count: leftOut.length,
            rows: leftOut.slice(0, LEFT_OUT_LISTED).map((row) => ({
              uid: row.uid,
              start: row.periodStart.toISOString(),
              end: row.periodEnd.toISOString(),
              key: row.key,
              ...(row.params ? { params: row.params } : {}),
            })),
          },
        }),
    ...(restated.length === 0
      ? {}
      : {
          restated: {
            count: restated.length,
            rows: restated.slice(0, LEFT_OUT_LISTED).map((row) => ({
              uid: row.uid,
              stored: row.stored.toISOString(),
              stated: row.stated.toISOString(),
            })),
          },
        }),
  };
  return JSON.stringify(kept);
}

function parsed(stored: string): KeptError | undefined {
  if (!stored.startsWith(`{"format":"${FORMAT}"`)) return undefined;
  try {
    const value = JSON.parse(stored) as KeptError;
    const listed = (part: { rows?: unknown } | undefined) => part === undefined || Array.isArray(part.rows);
    return (value.leftOut || value.restated) && listed(value.leftOut) && listed(value.restated)
      ? value
      : undefined;
  } catch {
    return undefined;
  }
}

/** A run's kept `error` in `locale`: the failure, then the rows left out; other texts as kept. */
export function runErrorText(stored: string | null, locale: Locale): string | null {
  if (stored === null) return null;
  const kept = parsed(stored);
  if (!kept) return stored;
  const notes: string[] = kept.failure === undefined ? [] : [kept.failure];
  if (kept.leftOut) {
    const rows = kept.leftOut.rows.map((row) =>
      translate(locale, 'syncLeftOutRow', {
        uid: row.uid,
        start: row.start,
        end: row.end,
        reason: isMessageKey(row.key) ? translate(locale, row.key, row.params) : row.key,
      }),
    );
    const more = kept.leftOut.count - kept.leftOut.rows.length;
    if (more > 0) rows.push(translate(locale, 'syncLeftOutMore', { count: more }));
    notes.push(translate(locale, 'syncLeftOutRows', { count: kept.leftOut.count, rows: rows.join('; ') }));
  }
  if (kept.restated) {
    const rows = kept.restated.rows.map((row) =>
      translate(locale, 'syncRegistrationDiffers', {
        ...row,
        stored: displayIsoTime(row.stored, 'exact'),
        stated: displayIsoTime(row.stated, 'exact'),
      }),
    );
    const more = kept.restated.count - kept.restated.rows.length;
    if (more > 0) rows.push(translate(locale, 'syncLeftOutMore', { count: more }));
    notes.push(
      translate(locale, 'syncRegistrationsDiffer', { count: kept.restated.count, rows: rows.join('; ') }),
    );
  }
  return notes.join(' | ');
}
