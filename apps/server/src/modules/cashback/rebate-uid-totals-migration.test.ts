import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { databaseBeforeMigration, insertExchangeSeven } from '../../test/migrations-before.js';

const database = databaseBeforeMigration('rebate_uid_totals');

describe('migration 0029 (rebate UID totals)', () => {
  it('totals the records stored before it per UID and status, then keeps them as records settle', async () => {
    const db = await database.migrateBefore();
    await insertExchangeSeven(db);
    await db.execute(sql`
      insert into rebates (id, plat_id, uid, period_start, period_end, trading_volume_micro, fee_micro,
        commission_micro, status, failure_reason, cash_rate_bps, is_speed_up, amount_micro, source, source_label,
        created_at, settled_at)
      values
        (1, 7, 'OLD1', '2026-01-01', '2026-01-02', 100, 1, 0, 'failed', 'noCommission', null, null, null, 'csv', 'a.csv', '2026-01-03', '2026-01-04'),
        (2, 7, 'OLD1', '2026-01-02', '2026-01-03', 250, 1, 1, 'pending', null, null, null, null, 'csv', 'a.csv', '2026-01-05', null),
        (3, 7, 'OLD1', '2026-01-03', '2026-01-04', 50, 1, 1, 'pending', null, null, null, null, 'csv', 'b.csv', '2026-01-06', null),
        (4, 7, 'OLD2', '2026-01-03', '2026-01-04', 7, 1, 1, 'pending', null, null, null, null, 'csv', 'b.csv', '2026-01-06', null)`);

    await database.migrateRest();

    const totals = async () =>
      (
        await db.execute(sql`
          select uid, status, records::int, trading_volume_micro::text as volume,
            to_char(last_created_at at time zone 'UTC', 'YYYY-MM-DD') as last
          from rebate_uid_totals order by uid, status`)
      ).rows;
    expect(await totals()).toEqual([
      { uid: 'OLD1', status: 'failed', records: 1, volume: '100', last: '2026-01-03' },
      { uid: 'OLD1', status: 'pending', records: 2, volume: '300', last: '2026-01-06' },
      { uid: 'OLD2', status: 'pending', records: 1, volume: '7', last: '2026-01-06' },
    ]);
    // Settling moves a record between statuses; a new record adds to its UID.
    await db.execute(sql`
      update rebates set status = 'failed', failure_reason = 'noCommission', settled_at = '2026-01-07'
      where id = 2`);
    await db.execute(sql`
      insert into rebates (id, plat_id, uid, period_start, period_end, trading_volume_micro, fee_micro,
        commission_micro, source, source_label, created_at)
      values (5, 7, 'OLD2', '2026-01-04', '2026-01-05', 3, 1, 1, 'csv', 'c.csv', '2026-01-08')`);
    expect(await totals()).toEqual([
      { uid: 'OLD1', status: 'failed', records: 2, volume: '350', last: '2026-01-05' },
      { uid: 'OLD1', status: 'pending', records: 1, volume: '50', last: '2026-01-06' },
      { uid: 'OLD2', status: 'pending', records: 2, volume: '10', last: '2026-01-08' },
    ]);
  });
});
