import { sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Executor } from './client.js';
import { isPgPool } from './pg-pool.js';
import { rowsOf } from './rows.js';

/**
 * Runs a hot read as a named prepared statement on node-postgres (parsed and planned once per
 * connection, then only executed), and as a plain parameterized query on PGlite, which has no named
 * statements but is in-process. `name` must be unique per `text`. Only for the database handle, not a
 * transaction: a transaction's statements go through drizzle on its own connection.
 */
export async function queryPrepared<T>(
  db: Executor,
  name: string,
  text: string,
  values: readonly unknown[],
): Promise<T[]> {
  const client = (db as { $client?: unknown }).$client;
  if (isPgPool(client)) {
    return (await client.query<T & pg.QueryResultRow>({ name, text, values: [...values] })).rows;
  }
  const pglite = client as { query?: (text: string, values: unknown[]) => Promise<{ rows: T[] }> };
  if (typeof pglite?.query !== 'function') throw new Error('queryPrepared needs the database handle');
  return (await pglite.query(text, [...values])).rows;
}

/**
 * The text of a prepared statement ($1, $2 … placeholders) run on any executor, a transaction's
 * included: the same SQL where a check must be made again under the transaction's locks. Every `$n` of
 * the text is a placeholder (none may stand inside a literal or a comment), each with its value.
 */
export async function queryText<T>(db: Executor, text: string, values: readonly unknown[]): Promise<T[]> {
  const parts = text.split(/\$(\d+)/);
  const chunks = parts.map((part, index) => {
    if (index % 2 === 0) return sql.raw(part);
    const position = Number(part);
    if (position < 1 || position > values.length) {
      throw new RangeError(`queryText: $${part} has no value (${values.length} given)`);
    }
    return sql`${values[position - 1]}`;
  });
  return rowsOf<T>(await db.execute(sql.join(chunks)));
}
