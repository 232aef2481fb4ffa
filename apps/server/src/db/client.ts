import fs from 'node:fs';
import path from 'node:path';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { serverRoot } from '../paths.js';
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
    // node-postgres is loaded only when used: a server on PGlite never needs it.
    const { openPostgres } = await import('./postgres.js');
    return openPostgres(target, migrationsFolder);
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
