import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openEmptyEmbeddedDatabase } from '../test/embedded-test-database.js';
import { migrateIfBehind } from './migrate-if-behind.js';

/**
 * A restart on an up-to-date database does not run drizzle's migrator (it read and hashed every
 * migration file and ran four statements on each start); an empty database and one a migration behind
 * are migrated as before (docs/decisions.md, "Cold start on PGlite").
 */
const MIGRATIONS = path.resolve(import.meta.dirname, '../../drizzle');
const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as {
  entries: Array<{ tag: string; when: number }>;
};
const newest = journal.entries.at(-1);

let client: PGlite;
let behindFolder: string;

beforeAll(async () => {
  client = await openEmptyEmbeddedDatabase();
  // The migrations as a deployment one release back had them: the journal without its newest entry.
  behindFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-migrations-'));
  fs.cpSync(MIGRATIONS, behindFolder, { recursive: true });
  fs.writeFileSync(
    path.join(behindFolder, 'meta', '_journal.json'),
    JSON.stringify({ ...journal, entries: journal.entries.slice(0, -1) }),
  );
}, 120_000);
afterAll(async () => {
  await client?.close();
  if (behindFolder) fs.rmSync(behindFolder, { recursive: true, force: true });
});

async function applied() {
  const result = await client.query<{ count: number; newest: string }>(
    'select count(*)::int as count, max(created_at)::text as newest from drizzle.__drizzle_migrations',
  );
  return result.rows[0];
}

describe('migrateIfBehind', () => {
  it('migrates an empty database, skips the migrator when current, migrates one a migration behind', async () => {
    const db = drizzle(client);
    const spy = vi.fn(migrate);

    // An empty data directory (first start): no migrations table, so the migrator runs.
    expect(await migrateIfBehind(db, behindFolder, spy)).toBe('migrated');
    expect(spy).toHaveBeenCalledTimes(1);
    expect(await applied()).toEqual({
      count: journal.entries.length - 1,
      newest: String(journal.entries.at(-2)?.when),
    });
    // Up to date with that journal: not called again.
    expect(await migrateIfBehind(db, behindFolder, spy)).toBe('current');
    expect(spy).toHaveBeenCalledTimes(1);

    // A release adds a migration: the database is one behind the journal, and the migrator applies it.
    expect(await migrateIfBehind(db, MIGRATIONS, spy)).toBe('migrated');
    expect(spy).toHaveBeenCalledTimes(2);
    expect(await applied()).toEqual({ count: journal.entries.length, newest: String(newest?.when) });
    const tables = await db.execute(
      sql`select count(*)::int as count from pg_tables where schemaname = 'public'`,
    );
    expect(tables.rows[0]?.count).toBeGreaterThan(10);

    // The next start: current, the migrator is not called.
    expect(await migrateIfBehind(db, MIGRATIONS, spy)).toBe('current');
    expect(spy).toHaveBeenCalledTimes(2);
  }, 120_000);
});
