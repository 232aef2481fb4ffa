import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';

/** drizzle's migrator for one engine (drizzle-orm/pglite/migrator or node-postgres/migrator). */
type Migrate<D> = (db: D, config: { migrationsFolder: string }) => Promise<void>;

/** The database side of drizzle's default migrations table, enough to ask for the newest row. */
interface Queryable {
  execute(query: ReturnType<typeof sql>): Promise<unknown>;
}

/**
 * Runs drizzle's migrator unless the database already holds the newest migration of the journal.
 *
 * drizzle applies a migration when its journal time (`when`) is later than the `created_at` of the
 * newest row in drizzle.__drizzle_migrations, and never compares hashes (an edited migration file is
 * not applied again, here as there). So when that row is at or after the journal's newest `when`,
 * drizzle would apply nothing: one read answers that, instead of reading and hashing every migration
 * file and four statements on each start (docs/decisions.md, "Cold start on PGlite"). A database
 * without the table (an empty data directory) fails the read and is migrated.
 */
export async function migrateIfBehind<D extends Queryable>(
  db: D,
  migrationsFolder: string,
  migrate: Migrate<D>,
): Promise<'current' | 'migrated'> {
  if ((await newestApplied(db)) >= newestInJournal(migrationsFolder)) return 'current';
  await migrate(db, { migrationsFolder });
  return 'migrated';
}

function newestInJournal(migrationsFolder: string): number {
  const journal = JSON.parse(
    fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
  ) as {
    entries: Array<{ when: number }>;
  };
  const times = journal.entries.map((entry) => entry.when);
  // An empty journal: left to the migrator (it still makes its table).
  return times.length > 0 ? Math.max(...times) : Number.POSITIVE_INFINITY;
}

async function newestApplied(db: Queryable): Promise<number> {
  try {
    const result = (await db.execute(
      sql`select max(created_at)::text as newest from drizzle.__drizzle_migrations`,
    )) as { rows: Array<{ newest: string | null }> };
    const newest = result.rows[0]?.newest;
    return newest == null ? Number.NEGATIVE_INFINITY : Number(newest);
  } catch {
    // No migrations table yet (a first start): the migrator creates it.
    return Number.NEGATIVE_INFINITY;
  }
}
