import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Executor } from '../../db/client.js';
import { databaseBeforeMigration, insertExchangeSeven } from '../../test/migrations-before.js';
import { checkAllInvariants } from './cashback.check.js';

const database = databaseBeforeMigration('rebate_journals');

describe('migration 0027 (rebate journals)', () => {
  it('points each record settled before it at the journal that credited it, and the ledger checks clean', async () => {
    const db = await database.migrateBefore();
    await insertExchangeSeven(db);
    await db.execute(sql`
      insert into referrals (plat_id, uid, registered_at, source, source_label, first_seen_at)
      values (7, 'OLD1', '2025-01-01', 'csv', 'old.csv', '2025-01-01')`);
    // Before 0027 a record was credited by a journal of its own, 'rebate:<id>'; one paid nothing and
    // one still waits.
    await db.execute(sql`
      insert into rebates (id, plat_id, uid, period_start, period_end, trading_volume_micro, fee_micro,
        commission_micro, status, failure_reason, cash_rate_bps, is_speed_up, amount_micro, source, source_label,
        created_at, settled_at)
      values
        (1, 7, 'OLD1', '2026-01-01', '2026-01-02', 1, 10000000, 10000000, 'completed', null, 5000, false, 5000000, 'csv', 'old.csv', '2026-01-03', '2026-01-04'),
        (2, 7, 'OLD1', '2026-01-02', '2026-01-03', 1, 8000000, 8000000, 'completed', null, 5000, false, 4000000, 'csv', 'old.csv', '2026-01-03', '2026-01-04'),
        (3, 7, 'OLD1', '2026-01-03', '2026-01-04', 1, 1, 0, 'failed', 'noCommission', null, null, null, 'csv', 'old.csv', '2026-01-05', '2026-01-06'),
        (4, 7, 'OLD1', '2026-01-04', '2026-01-05', 1, 2000000, 2000000, 'pending', null, null, null, null, 'csv', 'old.csv', '2026-01-05', null)`);
    await db.execute(sql`
      insert into ledger_accounts (id, code, kind, plat_id, uid, created_at) values
        (1, 'commission:7', 'commission', 7, null, '2026-01-04'),
        (2, 'cashback:7:OLD1', 'cashback', 7, 'OLD1', '2026-01-04')`);
    // A journal and its lines in one statement: the ledger checks the balance per statement.
    await db.execute(sql`
      with journals as (
        insert into ledger_journals (id, kind, idempotency_key, created_at) values
          (10, 'rebate', 'rebate:1', '2026-01-04'), (11, 'rebate', 'rebate:2', '2026-01-04')
        returning id
      )
      insert into ledger_lines (journal_id, account_id, amount) values
        (10, 1, -5000000), (10, 2, 5000000), (11, 1, -4000000), (11, 2, 4000000)`);

    await database.migrateRest();

    const records = await db.execute(sql`select id, journal_id from rebates order by id`);
    expect(records.rows).toEqual([
      { id: 1, journal_id: 10 },
      { id: 2, journal_id: 11 },
      { id: 3, journal_id: null },
      { id: 4, journal_id: null },
    ]);
    // The checks read the tables by name: this bare drizzle handle (no schema) serves them.
    expect(await checkAllInvariants(db as unknown as Executor)).toEqual([]);
    // The settle-once guard is back: a settled record refuses to change.
    await expect(db.execute(sql`update rebates set journal_id = 11 where id = 1`)).rejects.toThrow();
  });
});
