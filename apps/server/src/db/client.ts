import fs from 'node:fs';
import path from 'node:path';
import { serverRoot } from '../paths.js';
import type { Database, DatabaseHandle } from './database.js';
import { openEmbedded } from './embedded.js';
import { migrateIfBehind } from './migrate-if-behind.js';
import * as schema from './schema.js';

export type { Database, DatabaseHandle, Executor, Transaction } from './database.js';

export type DatabaseTarget =
  /**
   * `template`: a dump of an already migrated database to start from (the suite makes one per run),
   * unpacked into `dataDir` when one is given. `sharedBuffers`: embedded.ts.
   */
  | { kind: 'pglite'; dataDir?: string; template?: Blob; sharedBuffers?: string }
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
  const [client, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    openEmbedded({
      dataDir: target.dataDir,
      loadDataDir: target.template,
      sharedBuffers: target.sharedBuffers,
    }),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  const db = drizzlePglite(client, { schema });
  await migrateIfBehind(db, migrationsFolder, migratePglite);
  return { db: db as unknown as Database, kind: 'pglite', close: () => client.close() };
}
