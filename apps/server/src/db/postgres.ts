import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { Database, DatabaseHandle } from './database.js';
import { listenOnPooledConnection } from './member-changes-channel.js';
import { migrateIfBehind } from './migrate-if-behind.js';
import { NamingClient } from './named-statements.js';
import * as schema from './schema.js';

/**
 * The PostgreSQL side of openDatabase (client.ts), loaded with `import()` only when DATABASE_URL is
 * set: node-postgres and drizzle's driver for it are not on the start graph of a server on PGlite
 * (start-graph.test.ts).
 */
export async function openPostgres(
  target: { url: string; poolSize?: number },
  migrationsFolder: string,
): Promise<DatabaseHandle> {
  const pool: pg.Pool = new pg.Pool({
    connectionString: target.url,
    max: target.poolSize ?? 10,
    Client: NamingClient,
    onConnect: (client) => listenOnPooledConnection(pool, client),
  });
  // An idle client's error (a database restart) must not crash the process; the pool replaces it.
  pool.on('error', (error) => console.warn('PostgreSQL pool: idle client error', error.message));
  const db = drizzle(pool, { schema });
  await migrateIfBehind(db, migrationsFolder, migrate);
  return { db: db as unknown as Database, kind: 'postgres', close: () => pool.end() };
}
