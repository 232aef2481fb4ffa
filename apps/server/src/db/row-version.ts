import type { MessageKey } from '@elex/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { AppError } from '../http/app-error.js';

/**
 * An operator-edited row's `updatedAt` is its version: the console sends back the one it was built
 * on. The next one is strictly later than the last, even within one millisecond or on a clock that
 * stands still or runs behind another instance's, so a save built on the previous version is always
 * told apart.
 */
export function nextVersion(column: AnyPgColumn, at: Date): SQL {
  return sql`greatest(${at.toISOString()}::timestamptz, ${column} + interval '1 millisecond')`;
}

/**
 * Refuses a write built on another version of the row than the one locked now: another operator saved
 * it since, and this write, built on the old values, would silently undo theirs. Nothing is written.
 * A write that names no version is refused the same way.
 */
export function refuseUnlessVersion(
  row: { updatedAt: Date },
  expected: string | undefined,
  refusal: MessageKey,
): void {
  if (row.updatedAt.toISOString() !== expected) throw AppError.refused(refusal);
}
