import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Database } from '../db/client.js';
import * as schema from '../db/schema.js';
import { openEmptyEmbeddedDatabase } from './embedded-test-database.js';
import { createScratchDatabase, type ScratchDatabase } from './scratch-database.js';

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
    client = await openEmptyEmbeddedDatabase();
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

/**
 * As databaseBeforeMigration, on the suite's engine: with TEST_DATABASE_URL a PostgreSQL database of
 * its own (dropped after the file), else an embedded one. For a data migration whose SQL must do the
 * same on both.
 */
export function databaseBeforeMigrationOnEither(name: string) {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const embedded = databaseBeforeMigration(name);
    return {
      migrateBefore: async () => (await embedded.migrateBefore()) as unknown as Database,
      migrateRest: embedded.migrateRest,
    };
  }
  let scratch: ScratchDatabase | undefined;
  let pool: pg.Pool | undefined;
  let before: string | undefined;
  beforeAll(async () => {
    scratch = await createScratchDatabase(url, 'elex_migration');
    pool = new pg.Pool({ connectionString: scratch.url, max: 2 });
    before = migrationsBefore(name);
  });
  afterAll(async () => {
    await pool?.end();
    await scratch?.drop();
    if (before) fs.rmSync(before, { recursive: true, force: true });
  });
  const database = () => {
    if (!pool) throw new Error('the database opens before the tests (beforeAll)');
    return drizzlePg(pool, { schema });
  };
  return {
    async migrateBefore() {
      const db = database();
      await migratePg(db, { migrationsFolder: before as string });
      return db as unknown as Database;
    },
    migrateRest: () => migratePg(database(), { migrationsFolder: MIGRATIONS }),
  };
}

/**
 * Runs the SQL of the migration called `name` (its tag without the number) once more on a migrated
 * database: a data migration that must be idempotent, or one applied to rows a test made after it ran.
 */
export async function runMigrationAgain(db: Database, name: string): Promise<void> {
  const file = fs.readdirSync(MIGRATIONS).find((entry) => entry.replace(/^\d+_/, '') === `${name}.sql`);
  if (!file) throw new Error(`no migration called ${name}`);
  const statements = fs.readFileSync(path.join(MIGRATIONS, file), 'utf8').split('--> statement-breakpoint');
  for (const statement of statements) await db.execute(sql.raw(statement));
}

/** Exchange 7, a row every schema since 0003_exchanges accepts: the data migrations' tests book on it. */
export async function insertExchangeSeven(db: Database): Promise<void> {
  await db.execute(sql`
    insert into exchanges (id, name, abbreviation, logo, position, score_tenths, cash_rate_bps,
      speed_up_cash_rate_bps, maker_fee_ppm, taker_fee_ppm, vip_rule, signup_url_template, referral_code,
      new_user_discount_percent, new_user_discount_days, fees_checked_on)
    values (7, 'Ex', 'EX', 'ex.png', 1, 45, 5000, 5000, 200, 500, 'either', 'https://ex.test/{code}', 'CODE', 20, 90,
      '2026-01-01')`);
}

/**
 * Exchange 7 and ledger accounts on it for a ledger migration's test: `commission:7` is id 1, a cashback
 * account per UID follows (ids 2, 3, …), then `payout`.
 */
export async function insertLedgerAccountsOfSeven(db: Database, uids: readonly string[]): Promise<void> {
  await insertExchangeSeven(db);
  await db.execute(sql`
    insert into ledger_accounts (id, code, kind, plat_id, uid, created_at)
    values (1, 'commission:7', 'commission', 7, null, '2026-01-04')`);
  for (const [index, uid] of uids.entries()) {
    await db.execute(sql`
      insert into ledger_accounts (id, code, kind, plat_id, uid, created_at)
      values (${index + 2}, ${`cashback:7:${uid}`}, 'cashback', 7, ${uid}, '2026-01-04')`);
  }
  await db.execute(sql`
    insert into ledger_accounts (id, code, kind, created_at)
    values (${uids.length + 2}, 'payout', 'payout', '2026-01-04')`);
}
