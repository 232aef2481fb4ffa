import type { Transaction } from './database.js';

/**
 * Rows into a table by `COPY … FROM STDIN` on the transaction's own connection (issue 14: staging a
 * figures file on PostgreSQL; docs/decisions.md, "Staging by COPY on PostgreSQL"). node-postgres's copy
 * protocol comes from `pg-copy-streams`, loaded on first use like pg itself (start-graph.test.ts).
 * The caller sends a bounded batch at a time, so memory holds one batch's text whatever the file's
 * size. PGlite has no COPY protocol: its callers stay on their JSON statements.
 */

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const NEEDS_ESCAPE = /[\\\t\n\r]/;

/**
 * A text as a field of COPY's text format: a backslash, tab, newline or carriage return is written as
 * its backslash escape, so it can neither end the field or the row nor read as `\N` (null) or `\.`.
 */
export function copyText(value: string): string {
  return NEEDS_ESCAPE.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c] ?? c) : value;
}

interface Queryable {
  query(submittable: unknown): unknown;
}

/** The node-postgres client drizzle runs the transaction on (it holds the pool client it took). */
function clientOf(tx: Transaction): Queryable {
  const client = (tx as unknown as { session?: { client?: Queryable } }).session?.client;
  if (!client || typeof client.query !== 'function')
    throw new Error('copyInto: no client behind the transaction');
  return client;
}

/**
 * Appends `text` (rows of COPY text: tab-separated fields, each row ending in a newline) to `table`'s
 * `columns` with one COPY statement. `table` and `columns` are the caller's identifiers, never input.
 * Rejects with the database's error when it refuses a row: the COPY, and the transaction with it,
 * is then aborted and nothing of it stays.
 */
export async function copyInto(
  tx: Transaction,
  table: string,
  columns: readonly string[],
  text: string,
): Promise<void> {
  if (text.length === 0) return;
  const client = clientOf(tx);
  const [{ from }, { pipeline }, { Readable }] = await Promise.all([
    import('pg-copy-streams'),
    import('node:stream/promises'),
    import('node:stream'),
  ]);
  const stream = client.query(from(`copy ${table} (${columns.join(', ')}) from stdin`)) as ReturnType<
    typeof from
  >;
  // Finishes once PostgreSQL has taken every row (its CommandComplete), or fails with its error.
  await pipeline(Readable.from([text]), stream);
}
