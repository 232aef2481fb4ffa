import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.js';
import {
  databaseBeforeMigrationOnEither,
  insertLedgerAccountsOfSeven,
} from '../../test/migrations-before.js';

const database = databaseBeforeMigrationOnEither('ledger_day_sums');

describe('migration 0061 (the ledger summed by day and kinds)', () => {
  it('sums the lines booked before it by their journal’s UTC day, then keeps what is posted after', async () => {
    const db = await database.migrateBefore();
    await insertLedgerAccountsOfSeven(db, ['OLD1']);
    // Two rebate journals on 2026-01-04 (the second at its last millisecond), one on 01-05, a payout.
    await db.execute(sql`
      with journals as (
        insert into ledger_journals (id, kind, idempotency_key, created_at) values
          (10, 'rebate', 'r10', '2026-01-04 00:00+00'),
          (11, 'rebate', 'r11', '2026-01-04 23:59:59.999+00'),
          (12, 'rebate', 'r12', '2026-01-05 00:00+00'),
          (13, 'withdrawal', 'w13', '2026-01-05 08:00+00')
        returning id
      )
      insert into ledger_lines (journal_id, account_id, amount) values
        (10, 1, -10000000), (10, 2, 10000000), (11, 1, -2000000), (11, 2, 2000000),
        (12, 1, -3000000), (12, 2, 3000000), (13, 2, -4000000), (13, 3, 4000000)`);

    await database.migrateRest();

    const sums = async () =>
      rowsOf(
        await db.execute(sql`
          select to_char(day, 'YYYY-MM-DD') as day, account_kind, journal_kind, sum(amount)::text as amount,
            sum(lines)::int as lines
          from ledger_day_sums group by 1, 2, 3 order by 1, 2, 3`),
      );
    const migrated = [
      { day: '2026-01-04', account_kind: 'cashback', journal_kind: 'rebate', amount: '12000000', lines: 2 },
      {
        day: '2026-01-04',
        account_kind: 'commission',
        journal_kind: 'rebate',
        amount: '-12000000',
        lines: 2,
      },
      { day: '2026-01-05', account_kind: 'cashback', journal_kind: 'rebate', amount: '3000000', lines: 1 },
      {
        day: '2026-01-05',
        account_kind: 'cashback',
        journal_kind: 'withdrawal',
        amount: '-4000000',
        lines: 1,
      },
      { day: '2026-01-05', account_kind: 'commission', journal_kind: 'rebate', amount: '-3000000', lines: 1 },
      { day: '2026-01-05', account_kind: 'payout', journal_kind: 'withdrawal', amount: '4000000', lines: 1 },
    ];
    expect(await sums()).toEqual(migrated);

    // Posted after the migration: the trigger adds the statement's sums.
    await db.execute(sql`
      with journals as (
        insert into ledger_journals (id, kind, idempotency_key, created_at)
        values (14, 'rebate', 'r14', '2026-01-05 09:00+00') returning id
      )
      insert into ledger_lines (journal_id, account_id, amount) values (14, 1, -500000), (14, 2, 500000)`);
    // Half a USDT more on 01-05's rebate rows, one line more each.
    expect(await sums()).toEqual(
      migrated.map((row) =>
        row.day === '2026-01-05' && row.journal_kind === 'rebate'
          ? {
              ...row,
              amount: String(BigInt(row.amount) + (row.account_kind === 'cashback' ? 500000n : -500000n)),
              lines: 2,
            }
          : row,
      ),
    );
  });
});
