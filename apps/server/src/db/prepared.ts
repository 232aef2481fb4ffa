import pg from 'pg';
import type { Executor } from './client.js';

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
  if (client instanceof pg.Pool) {
    return (await client.query<T & pg.QueryResultRow>({ name, text, values: [...values] })).rows;
  }
  const pglite = client as { query?: (text: string, values: unknown[]) => Promise<{ rows: T[] }> };
  if (typeof pglite?.query !== 'function') throw new Error('queryPrepared needs the database handle');
  return (await pglite.query(text, [...values])).rows;
}
