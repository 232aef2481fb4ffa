import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { databaseBeforeMigration } from '../../test/migrations-before.js';

const database = databaseBeforeMigration('promotion_codes');

describe('the promotion codes migration', () => {
  it('records the codes accounts signed up with, counted and disabled, so none earns a bonus until an operator enables it', async () => {
    const db = await database.migrateBefore();
    await db.execute(sql`
      insert into users (id, user_code, invite_code, signup_encr, created_at) values
        (1, 'U1', 'I1', 'spring', '2026-01-03'),
        (2, 'U2', 'I2', 'SPRING', '2026-01-01'),
        (3, 'U3', 'I3', 'BOGUS777', '2026-01-02'),
        (4, 'U4', 'I4', null, '2026-01-02')`);

    await database.migrateRest();

    const codes = await db.execute(sql`
      select code, signups, created_by, created_at = timestamptz '2026-01-01T00:00:00Z' as first_use,
        disabled_at is not null as disabled, max_uses, expires_at
      from promotion_codes order by code`);
    expect(codes.rows).toEqual([
      {
        code: 'BOGUS777',
        signups: 1,
        created_by: 'migration',
        first_use: false,
        disabled: true,
        max_uses: null,
        expires_at: null,
      },
      {
        code: 'SPRING',
        signups: 2,
        created_by: 'migration',
        first_use: true,
        disabled: true,
        max_uses: null,
        expires_at: null,
      },
    ]);
  });
});
