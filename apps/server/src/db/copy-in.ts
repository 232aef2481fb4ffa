import type { DatabaseHandle, Transaction } from './database.js';

/**
 * Rows into a table by `COPY … FROM STDIN` in the transaction's own connection (issue 14: staging a
 * figures file as COPY text instead of `json_to_recordset` batches). On PostgreSQL the text goes
 * through node-postgres's copy protocol (`pg-copy-streams`, loaded on first use like pg itself); on
 * PGlite, which has no COPY protocol, it is the `blob` of `COPY … FROM '/dev/blob'`. The caller sends
 * a bounded batch at a time: the text is built per batch, never for a whole file.
 */

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const NEEDS_ESCAPE = /[\\\t\n\r]/;

/**
 * A value as a field of COPY's text format: a backslash, tab, newline or carriage return is written as
 * its backslash escape so it cannot end the field or the row; null is `\N`. (A NUL character cannot
 * be stored in PostgreSQL text at all, by COPY or otherwise.)
 */
function copyField(value: string | number | bigint | null): string {
  if (value === null) return '\\N';
  const text = String(value);
  return NEEDS_ESCAPE.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c] ?? c) : text;
}

/** One row of COPY text (its values escaped, tab-separated, ending the line). */
export function copyRow(values: ReadonlyArray<string | number | bigint | null>): string {
  let row = '';
  for (let i = 0; i < values.length; i += 1) row += (i === 0 ? '' : '\t') + copyField(values[i] ?? null);
  return `${row}\n`;
}

type Copying = {
  query(statement: unknown, params?: unknown[], options?: { blob?: Blob }): unknown;
};

/** The connection (node-postgres client, or PGlite's transaction) drizzle runs the transaction on. */
function connectionOf(tx: Transaction): Copying {
  const client = (tx as unknown as { session?: { client?: Copying } }).session?.client;
  if (!client || typeof client.query !== 'function')
    throw new Error('copyInto: no client behind the transaction');
  return client;
}

/**
 * Appends `text` (rows made by copyRow) to `table`'s `columns` with one COPY statement. `table` and
 * `columns` are the caller's identifiers, never input.
 */
export async function copyInto(
  tx: Transaction,
  kind: DatabaseHandle['kind'],
  table: string,
  columns: readonly string[],
  text: string,
): Promise<void> {
  if (text.length === 0) return;
  const client = connectionOf(tx);
  const target = `${table} (${columns.join(', ')})`;
  if (kind === 'pglite') {
    await client.query(`copy ${target} from '/dev/blob'`, [], { blob: new Blob([text]) });
    return;
  }
  const [{ from }, { pipeline }, { Readable }] = await Promise.all([
    import('pg-copy-streams'),
    import('node:stream/promises'),
    import('node:stream'),
  ]);
  const stream = client.query(from(`copy ${target} from stdin`)) as ReturnType<typeof from>;
  // The stream ends once PostgreSQL has taken the rows (or fails with its error: the COPY, and the
  // import's transaction with it, is then aborted).
  await pipeline(Readable.from([text]), stream);
}
