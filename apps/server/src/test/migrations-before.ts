import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import * as schema from '../db/schema.js';

/** The server's migrations folder. */
const MIGRATIONS = path.resolve(import.meta.dirname, '../../drizzle');

/**
 * A copy of the migrations whose journal stops before the migration called `name` (its tag without the
 * number, which may change when branches merge): the database a deployment had then, to test what the
 * migration does to the data it finds. The caller removes the folder.
 */
function migrationsBefore(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-migrations-'));
  fs.cpSync(MIGRATIONS, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const stop = journal.entries.findIndex((entry) => entry.tag.replace(/^\d+_/, '') === name);
  expect(stop).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, stop);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

/**
 * For a migration's test file: an embedded database of its own (never the suite's migrated template),
 * migrated by `migrateBefore()` up to the migration called `name` and by `migrateRest()` through it and
 * every later one, with the data the test adds in between. Opened before the file's tests, closed
 * after them.
 */
export function databaseBeforeMigration(name: string) {
  let client: PGlite | undefined;
  let before: string | undefined;
  beforeAll(async () => {
    // A dump of a fresh database (global-setup.ts) spares this file an initdb of its own.
    const empty = inject('pgliteEmpty');
    client =
      empty && fs.existsSync(empty)
        ? await PGlite.create({ loadDataDir: new Blob([fs.readFileSync(empty)]) })
        : await PGlite.create();
    before = migrationsBefore(name);
  });
  afterAll(async () => {
    await client?.close();
    if (before) fs.rmSync(before, { recursive: true, force: true });
  });
  const database = () => {
    if (!client) throw new Error('the database opens before the tests (beforeAll)');
    return drizzle(client, { schema });
  };
  return {
    async migrateBefore() {
      const db = database();
      await migrate(db, { migrationsFolder: before as string });
      return db;
    },
    migrateRest: () => migrate(database(), { migrationsFolder: MIGRATIONS }),
  };
}
