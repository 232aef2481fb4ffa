import { type Column, getTableName, type SQL, sql } from 'drizzle-orm';

/**
 * A column named with its table (`"payouts"."id"`) wherever it is written. Drizzle writes a column
 * interpolated in a select-list (or `returning`) `sql` field of a one-table select without its table,
 * so inside a correlated subquery there the bare name is the subquery's own column (found twice and a
 * third time on 2026-11-29). Name the outer row's columns in such subqueries with this (or with an
 * alias in the SQL text); `qualified-columns.test.ts` refuses a bare interpolation there.
 */
export function qualified(column: Column): SQL {
  return sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
}
