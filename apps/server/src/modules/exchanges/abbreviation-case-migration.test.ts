import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.js';
import { databaseBeforeMigration } from '../../test/migrations-before.js';

const TAG = 'activity_version_abbreviation_case';

const database = databaseBeforeMigration(TAG);

describe(`migration ${TAG}`, () => {
  it('renames the partners whose abbreviations differ only in case, keeps the live one, says so in the audit log', async () => {
    const db = await database.migrateBefore();
    const partners: Array<[number, string, string]> = [
      // Three spellings of one abbreviation: the live partner keeps it even though a draft is older.
      [1, 'zz1', 'draft'],
      [2, 'ZZ1', 'live'],
      [3, 'Zz1', 'retired'],
      // A long one, so the renamed one still fits the 16 characters an abbreviation may have.
      [4, 'ABCDEFGHIJKLMNOP', 'live'],
      [12, 'abcdefghijklmnop', 'draft'],
      [5, 'OKX', 'live'],
    ];
    for (const [id, abbreviation, status] of partners) {
      await db.execute(sql`
        insert into exchanges (id, name, abbreviation, logo, position, score_tenths, cash_rate_bps,
          speed_up_cash_rate_bps, maker_fee_ppm, taker_fee_ppm, vip_rule, signup_url_template, referral_code,
          new_user_discount_percent, new_user_discount_days, status, updated_at)
        values (${id}, ${`Ex${id}`}, ${abbreviation}, '/logos/ex.svg', ${id}, 90, 4000, 5000, 200, 500,
          'either', 'https://x.example/r/{code}', 'CODE', 20, 90, ${status}, '2026-01-01T00:00:00Z')`);
    }
    await db.execute(sql`
      insert into exchange_activities (exchange_id, kind, titles, activity_url, position)
      values (2, 'hot', '{"en":"A","zh":"A","ko":"A"}', 'https://x.example/a', 0)`);

    await database.migrateRest();

    const rows = rowsOf<{ id: number; abbreviation: string; updated_at: Date | string }>(
      await db.execute(sql`select id, abbreviation, updated_at from exchanges order by id`),
    );
    expect(rows.map((row) => [row.id, row.abbreviation])).toEqual([
      [1, 'zz11'],
      [2, 'ZZ1'],
      [3, 'Zz13'],
      [4, 'ABCDEFGHIJKLMNOP'],
      [5, 'OKX'],
      [12, 'abcdefghijklmn12'],
    ]);
    // A renamed partner has a new version: an editor opened before cannot save the old name back.
    const moved = rows.filter(
      (row) => new Date(row.updated_at).getTime() > Date.parse('2026-01-01T00:00:00Z'),
    );
    expect(moved.map((row) => row.id)).toEqual([1, 3, 12]);
    const audit = rowsOf<{ actor: string; action: string; target: string; before: unknown; after: unknown }>(
      await db.execute(sql`select actor, action, target, before, after from audit_log order by target`),
    );
    expect(audit).toEqual([
      {
        actor: 'migration:activity_version_abbreviation_case',
        action: 'exchange.update',
        target: 'exchange:1',
        before: { abbreviation: 'zz1' },
        after: { abbreviation: 'zz11' },
      },
      {
        actor: 'migration:activity_version_abbreviation_case',
        action: 'exchange.update',
        target: 'exchange:12',
        before: { abbreviation: 'abcdefghijklmnop' },
        after: { abbreviation: 'abcdefghijklmn12' },
      },
      {
        actor: 'migration:activity_version_abbreviation_case',
        action: 'exchange.update',
        target: 'exchange:3',
        before: { abbreviation: 'Zz1' },
        after: { abbreviation: 'Zz13' },
      },
    ]);
    // From now on the database itself refuses another spelling, and existing activities have a version.
    await expect(db.execute(sql`update exchanges set abbreviation = 'okx' where id = 2`)).rejects.toThrow();
    const [activity] = rowsOf<{ updated_at: unknown }>(
      await db.execute(sql`select updated_at from exchange_activities`),
    );
    expect(activity?.updated_at).toBeTruthy();
  });
});
