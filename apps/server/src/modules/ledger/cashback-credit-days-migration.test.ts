import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.js';
import {
  databaseBeforeMigrationOnEither,
  insertLedgerAccountsOfSeven,
} from '../../test/migrations-before.js';

const database = databaseBeforeMigrationOnEither('cashback_credit_days');

describe('migration 0063 (cashback credited per account and day)', () => {
  it('sums the rebates booked before it per UID and UTC day, then keeps both tables as lines are posted', async () => {
    const db = await database.migrateBefore();
    await insertLedgerAccountsOfSeven(db, ['OLD1', 'OLD2']);
    // OLD1: two rebates on 01-04 (the second at its last millisecond), one on 01-05, a payout on 01-05.
    // OLD2: a rebate on 01-05 taken back the same day by a rebate journal the other way (no credit left).
    await db.execute(sql`
      with journals as (
        insert into ledger_journals (id, kind, idempotency_key, created_at) values
          (10, 'rebate', 'r10', '2026-01-04 00:00+00'),
          (11, 'rebate', 'r11', '2026-01-04 23:59:59.999+00'),
          (12, 'rebate', 'r12', '2026-01-05 00:00+00'),
          (13, 'withdrawal', 'w13', '2026-01-05 08:00+00'),
          (14, 'rebate', 'r14', '2026-01-05 01:00+00'),
          (15, 'rebate', 'r15', '2026-01-05 02:00+00')
        returning id
      )
      insert into ledger_lines (journal_id, account_id, amount) values
        (10, 1, -10000000), (10, 2, 10000000), (11, 1, -2000000), (11, 2, 2000000),
        (12, 1, -3000000), (12, 2, 3000000), (13, 2, -4000000), (13, 4, 4000000),
        (14, 1, -6000000), (14, 3, 6000000), (15, 3, -6000000), (15, 1, 6000000)`);

    await database.migrateRest();

    const credits = async () =>
      rowsOf(
        await db.execute(sql`
          select to_char(day, 'YYYY-MM-DD') as day, account_id::int as account, sum(amount)::text as amount
          from cashback_credit_days group by 1, 2 order by 1, 2`),
      );
    const migrated = [
      { day: '2026-01-04', account: 2, amount: '12000000' },
      { day: '2026-01-05', account: 2, amount: '3000000' },
    ];
    expect(await credits()).toEqual(migrated);
    const cashbackRebateSum = async () =>
      rowsOf<{ amount: string }>(
        await db.execute(sql`select sum(amount)::text as amount from ledger_day_sums
          where day = '2026-01-06' and account_kind = 'cashback' and journal_kind = 'rebate'`),
      )[0]?.amount;

    // Posted after the migration: the trigger adds the statement's credits, and still its day sums.
    await db.execute(sql`
      with journals as (
        insert into ledger_journals (id, kind, idempotency_key, created_at) values
          (16, 'rebate', 'r16', '2026-01-06 09:00+00'), (17, 'rebate', 'r17', '2026-01-06 10:00+00')
        returning id
      )
      insert into ledger_lines (journal_id, account_id, amount) values
        (16, 1, -500000), (16, 2, 500000), (17, 1, -700000), (17, 3, 700000)`);
    expect(await credits()).toEqual([
      ...migrated,
      { day: '2026-01-06', account: 2, amount: '500000' },
      { day: '2026-01-06', account: 3, amount: '700000' },
    ]);
    expect(await cashbackRebateSum()).toBe('1200000');
  });
});
