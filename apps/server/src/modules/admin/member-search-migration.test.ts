import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.js';
import { databaseBeforeMigrationOnEither } from '../../test/migrations-before.js';

const database = databaseBeforeMigrationOnEither('member_search_trigram');

describe('migration 0062 (member search by trigrams)', () => {
  it('finds the index an operator built beforehand (docs/operations.md, "Upgrading a large database")', async () => {
    const db = await database.migrateBefore();
    await db.execute(sql`create extension if not exists pg_trgm`);
    await db.execute(
      sql`create index if not exists users_email_trgm_idx on users using gin (email gin_trgm_ops)`,
    );

    await database.migrateRest();

    const indexes = rowsOf<{ name: string }>(
      await db.execute(
        sql`select indexname as name from pg_indexes where tablename = 'users' and indexname like '%trgm%'`,
      ),
    );
    expect(indexes).toEqual([{ name: 'users_email_trgm_idx' }]);
  });
});
