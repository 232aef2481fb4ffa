import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { databaseBeforeMigration } from '../../test/migrations-before.js';

const database = databaseBeforeMigration('task_entry_threshold');

describe('migration 0045 (task entry threshold)', () => {
  it("gives the trade tasks' entries their tier's present threshold, nothing else, and the ledger stays append-only", async () => {
    const db = await database.migrateBefore();
    await db.execute(
      sql`insert into users (id, user_code, invite_code, created_at) values (1, 'U1', 'I1', '2026-01-01')`,
    );
    // Tier 2 was raised after the member claimed it: the value claimed under was never recorded.
    await db.execute(sql`update task_definitions set threshold_micro = 75000000000 where id = 'tradeTier2'`);
    await db.execute(sql`
      insert into points_entries (user_id, currency, amount, reason, reference, created_at) values
        (1, 'points', 100, 'task', 'tradeTier1', '2026-01-03'),
        (1, 'points', 200, 'task', 'tradeTier2', '2026-01-04'),
        (1, 'points', 100, 'task', 'bindUid', '2026-01-03'),
        (1, 'points', 10, 'checkIn', '2026-01-03', '2026-01-03')`);

    await database.migrateRest();

    const entries = await db.execute(
      sql`select currency, reference, threshold_micro::text as threshold from points_entries order by id`,
    );
    expect(entries.rows).toEqual([
      { currency: 'points', reference: 'tradeTier1', threshold: '10000000000' },
      { currency: 'points', reference: 'tradeTier2', threshold: '75000000000' },
      { currency: 'points', reference: 'bindUid', threshold: null },
      { currency: 'points', reference: '2026-01-03', threshold: null },
    ]);
    // The fill turned the append-only trigger off for itself only.
    await expect(
      db.execute(sql`update points_entries set amount = 1 where reference = 'tradeTier1'`),
    ).rejects.toThrow();
    // Only a task's entry carries a threshold.
    await expect(
      db.execute(sql`
        insert into points_entries (user_id, currency, amount, reason, reference, created_at, threshold_micro)
        values (1, 'points', 10, 'checkIn', '2026-01-04', '2026-01-04', 5)`),
    ).rejects.toThrow();
  });
});
