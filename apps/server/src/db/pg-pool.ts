import type pg from 'pg';

/**
 * Whether a drizzle handle's client (`$client`) is node-postgres's Pool, told by its shape: asking with
 * `instanceof pg.Pool` would load pg, which a server on PGlite never needs (db/postgres.ts, loaded only
 * on PostgreSQL). pg's Pool connects and queries and counts its clients; PGlite has no such counts, a
 * single pg.Client neither.
 */
export function isPgPool(client: unknown): client is pg.Pool {
  if (typeof client !== 'object' || client === null) return false;
  const pool = client as Record<'connect' | 'query' | 'totalCount' | 'idleCount' | 'waitingCount', unknown>;
  return (
    typeof pool.connect === 'function' &&
    typeof pool.query === 'function' &&
    typeof pool.totalCount === 'number' &&
    typeof pool.idleCount === 'number' &&
    typeof pool.waitingCount === 'number'
  );
}
