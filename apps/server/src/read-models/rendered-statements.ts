import { fillPlaceholders, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/client.js';
import { queryPrepared } from '../db/prepared.js';
import { statementName } from '../db/statement-name.js';
import type { EstimateSql } from './pending-estimates.js';

/** A statement's text and parameters as rendered once, `$n` placeholders still named where they vary. */
interface Rendered {
  name: string;
  text: string;
  params: unknown[];
}

/** Rendered statements by shape. */
export type RenderedStatements = Map<string, Rendered>;

const dialect = new PgDialect();

/**
 * Runs a hot read's statement rendered once per shape (issue 14): building drizzle's SQL and rendering
 * it to text was a tenth of the app's CPU per call where only the values change, and an unnamed text is
 * parsed and planned by PostgreSQL on every call. The values fill the `sql.placeholder`s; the statement
 * is prepared under a name from its text's digest (db/prepared.ts: `<prefix>_<digest>`).
 */
export async function runRendered<T>(
  db: Executor,
  statements: RenderedStatements,
  prefix: string,
  shape: string,
  build: () => SQL,
  values: Record<string, unknown>,
): Promise<T[]> {
  let rendered = statements.get(shape);
  if (rendered === undefined) {
    const query = dialect.sqlToQuery(build());
    rendered = { name: statementName(prefix, query.sql), text: query.sql, params: query.params };
    statements.set(shape, rendered);
  }
  return queryPrepared<T>(db, rendered.name, rendered.text, fillPlaceholders(rendered.params, values));
}

const estimateStatements = new WeakMap<EstimateSql, RenderedStatements>();

/**
 * The rendered statements that carry this estimate of pending records: `estimateSql` returns the same
 * object while the partners' rates are the same, so a rate change renders new texts.
 */
export function statementsOf(estimate: EstimateSql): RenderedStatements {
  let found = estimateStatements.get(estimate);
  if (found === undefined) {
    found = new Map();
    estimateStatements.set(estimate, found);
  }
  return found;
}

/** A timestamptz as Date.toISOString writes it (UTC, milliseconds cut, not rounded: as a Date keeps them). */
export const isoText = (column: string | SQL) =>
  typeof column === 'string'
    ? sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`)
    : sql`to_char((${column}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Micro-USDT as USDT with six decimals, as fromScaled(micro, 6) writes it ("0.000000", "-1.500000"). */
export const usdtText = (micro: string | SQL) =>
  sql`(${typeof micro === 'string' ? sql.raw(micro) : micro} * 0.000001::numeric)::text`;
