import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client.js';
import { seedPartnerCatalog } from '../apps/server/src/db/seed/seed-catalog.js';

/**
 * A ledger as daily imports leave it, for the benches that read one (ledger-days, statistics): an
 * exchange's commission account, a cashback account per UID and the payout account, then a journal
 * per UID and day, posted a statement per page as an import's settlement posts them.
 */
export const WITHDRAWALS_PER_DAY = 100;
/** UIDs a posting statement books, as an import's settlement page. */
const PAGE = Number(process.env.BENCH_LEDGER_PAGE ?? 5_000);
export const BITGET = 4;

/** The accounts: the exchange's commission, a cashback account per UID, payout. Ids known for the lines. */
export async function seedAccounts(db: Database, uids: number, created: Date) {
  await seedPartnerCatalog(db);
  await db.execute(sql`
    insert into ledger_accounts (id, code, kind, plat_id, uid, created_at)
    values (1, ${`commission:${BITGET}`}, 'commission', ${BITGET}, null, ${created})`);
  await db.execute(
    sql`insert into ledger_accounts (id, code, kind, created_at) values (2, 'payout', 'payout', ${created})`,
  );
  await db.execute(sql`
    insert into ledger_accounts (id, code, kind, plat_id, uid, created_at)
    select 2 + n, 'cashback:' || ${BITGET} || ':BENCH' || lpad(n::text, 7, '0'), 'cashback', ${BITGET},
      'BENCH' || lpad(n::text, 7, '0'), ${created}
    from generate_series(1, ${uids}) n`);
  await db.execute(sql`select setval(pg_get_serial_sequence('ledger_accounts', 'id'), ${uids + 2})`);
}

/**
 * One day as an import and the day's payouts post it: a journal per UID crediting its cashback, a
 * statement per page of PAGE UIDs (as the import posts a page's journals), then WITHDRAWALS_PER_DAY
 * journals paying a little of some UIDs' cashback out.
 */
export async function postDay(db: Database, uids: number, day: number, start: Date) {
  const base = day * (uids + WITHDRAWALS_PER_DAY);
  for (let first = 1; first <= uids; first += PAGE) {
    await db.execute(sql`
      with journals as (
        insert into ledger_journals (id, kind, idempotency_key, created_at)
        select ${base} + n, 'rebate', 'bench:' || ${day} || ':' || n, ${start}::timestamptz + n * interval '1 ms'
        from generate_series(${first}::int, ${Math.min(first + PAGE - 1, uids)}::int) n
        returning id
      )
      insert into ledger_lines (journal_id, account_id, amount)
      select id, account_id, amount from journals,
        lateral (values (1::bigint, -(1000000 + (id % 977) * 1000)::bigint),
                        (2 + id - ${base}, 1000000 + (id % 977) * 1000)) line(account_id, amount)`);
  }
  await db.execute(sql`
    with journals as (
      insert into ledger_journals (id, kind, idempotency_key, created_at)
      select ${base + uids} + n, 'withdrawal', 'bench-w:' || ${day} || ':' || n,
        ${start}::timestamptz + interval '12 hours' + n * interval '1 s'
      from generate_series(1, ${WITHDRAWALS_PER_DAY}) n
      returning id
    )
    insert into ledger_lines (journal_id, account_id, amount)
    select id, account_id, amount from journals,
      lateral (values (2 + (id - ${base + uids}) * 7 % ${uids} + 1, -500000::bigint), (2::bigint, 500000::bigint))
        line(account_id, amount)`);
}
