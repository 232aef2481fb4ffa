import fs from 'node:fs';
import path from 'node:path';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { serverRoot } from '../paths.js';
import { listenOnPooledConnection } from './member-changes-channel.js';
import { NamingClient } from './named-statements.js';
import * as schema from './schema.js';

type Schema = typeof schema;
/** One type for both engines: repositories never know which one they run on. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** A repository function accepts the database or an open transaction. */
export type Executor = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export type DatabaseTarget =
  /** `template`: a dump of an already migrated database to start from (tests make one per run). */
  | { kind: 'pglite'; dataDir?: string; template?: Blob }
  | { kind: 'postgres'; url: string; poolSize?: number };

const migrationsFolder = path.join(serverRoot, 'drizzle');

/** Opens the database and brings it to the latest migration; the same migrations serve both engines. */
export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.kind === 'postgres') {
    const pool: pg.Pool = new pg.Pool({
      connectionString: target.url,
      max: target.poolSize ?? 10,
      Client: NamingClient,
      onConnect: (client) => listenOnPooledConnection(pool, client),
    });
    // An idle client's error (a database restart) must not crash the process; the pool replaces it.
    pool.on('error', (error) => console.warn('PostgreSQL pool: idle client error', error.message));
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder });
    return { db: db as unknown as Database, kind: 'postgres', close: () => pool.end() };
  }
  if (target.dataDir) fs.mkdirSync(target.dataDir, { recursive: true });
  // The embedded engine is loaded only when used: a server on PostgreSQL never needs it.
  const [{ PGlite }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  const client = target.template
    ? await PGlite.create({ loadDataDir: target.template })
    : await PGlite.create(target.dataDir);
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  return { db: db as unknown as Database, kind: 'pglite', close: () => client.close() };
}
