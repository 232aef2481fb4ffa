import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { databaseBeforeMigration, insertExchangeSeven } from '../../test/migrations-before.js';

const database = databaseBeforeMigration('rebate_uid_days');

describe('migration 0032 (paid cashback per UID and trading day)', () => {
  it('sums the records paid before it by the UTC day their periods start, then adds what settles or arrives paid', async () => {
    const db = await database.migrateBefore();
    await insertExchangeSeven(db);
    await db.execute(sql`
      insert into ledger_accounts (id, code, kind, plat_id, uid, created_at) values
        (1, 'commission:7', 'commission', 7, null, '2026-01-04'),
        (2, 'cashback:7:OLD1', 'cashback', 7, 'OLD1', '2026-01-04')`);
    await db.execute(sql`
      with journals as (
        insert into ledger_journals (id, kind, idempotency_key, created_at) values (10, 'rebate', 'r10', '2026-01-04')
        returning id
      )
      insert into ledger_lines (journal_id, account_id, amount) values (10, 1, -10000000), (10, 2, 10000000)`);
    // Two periods of 2026-01-01 (UTC), one of 01-02, one completed without cashback, one pending.
    await db.execute(sql`
      insert into rebates (id, plat_id, uid, period_start, period_end, trading_volume_micro, fee_micro,
        commission_micro, status, failure_reason, cash_rate_bps, is_speed_up, amount_micro, source, source_label,
        created_at, settled_at, journal_id)
      values
        (1, 7, 'OLD1', '2026-01-01 00:00+00', '2026-01-01 01:00+00', 1, 10000000, 10000000, 'completed', null, 5000, false, 5000000, 'csv', 'a.csv', '2026-01-03', '2026-01-04', 10),
        (2, 7, 'OLD1', '2026-01-01 23:00+00', '2026-01-02 00:00+00', 1, 8000000, 8000000, 'completed', null, 5000, false, 4000000, 'csv', 'a.csv', '2026-01-03', '2026-01-04', 10),
        (3, 7, 'OLD1', '2026-01-02 00:00+00', '2026-01-02 01:00+00', 1, 2000000, 2000000, 'completed', null, 5000, false, 1000000, 'csv', 'a.csv', '2026-01-03', '2026-01-04', 10),
        (4, 7, 'OLD1', '2026-01-03 00:00+00', '2026-01-03 01:00+00', 1, 1, 0, 'completed', null, 5000, false, 0, 'csv', 'a.csv', '2026-01-04', '2026-01-05', null),
        (5, 7, 'OLD2', '2026-01-03 00:00+00', '2026-01-03 01:00+00', 1, 1400000, 1400000, 'pending', null, null, null, null, 'csv', 'b.csv', '2026-01-05', null, null)`);

    await database.migrateRest();

    const days = async () =>
      (
        await db.execute(sql`
          select uid, to_char(day, 'YYYY-MM-DD') as day, amount_micro::text as amount
          from rebate_uid_days order by uid, day`)
      ).rows;
    expect(await days()).toEqual([
      { uid: 'OLD1', day: '2026-01-01', amount: '9000000' },
      { uid: 'OLD1', day: '2026-01-02', amount: '1000000' },
    ]);
    // The pending record settles paid; a record arrives already paid (an import decides it at once).
    await db.execute(sql`
      update rebates set status = 'completed', cash_rate_bps = 5000, is_speed_up = false, amount_micro = 700000,
        settled_at = '2026-01-06', journal_id = 10
      where id = 5`);
    await db.execute(sql`
      insert into rebates (id, plat_id, uid, period_start, period_end, trading_volume_micro, fee_micro,
        commission_micro, status, cash_rate_bps, is_speed_up, amount_micro, source, source_label, created_at,
        settled_at, journal_id)
      values (6, 7, 'OLD1', '2026-01-02 05:00+00', '2026-01-02 06:00+00', 1, 1000000, 1000000, 'completed', 5000,
        false, 500000, 'csv', 'c.csv', '2026-01-07', '2026-01-07', 10)`);
    expect(await days()).toEqual([
      { uid: 'OLD1', day: '2026-01-01', amount: '9000000' },
      { uid: 'OLD1', day: '2026-01-02', amount: '1500000' },
      { uid: 'OLD2', day: '2026-01-03', amount: '700000' },
    ]);
  });
});
