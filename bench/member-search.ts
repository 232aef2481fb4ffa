/**
 * The console's member search at a million members (issue 14), figures not verdicts. BENCH_MEMBERS
 * members (default 1,000,000; e-mails `trader<n>@<one of five domains>`, a tenth with a bound UID, a
 * hundred suspended) on a scratch database; the trigram index built after the rows, as migration 0062
 * builds it on a live table (its time printed). Then each search, in BENCH_ROUNDS interleaved rounds
 * (default 5) after a warm-up, median (min–max): the read model (`searchMemberRows`: the union of
 * indexed matches) against the statement it replaced (one OR over e-mail, codes and UIDs, kept here as
 * the baseline); both must list the same members and count the same total.
 * PostgreSQL on a scratch database when BENCH_DATABASE_URL names a server, else embedded PGlite (use a
 * smaller BENCH_MEMBERS there; BENCH_KEEP=1 keeps the PostgreSQL database). `npm run bench:member-search -w @elex/bench`;
 * not part of `npm test`.
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client.js';
import { rowsOf } from '../apps/server/src/db/rows.js';
import { seedPartnerCatalog } from '../apps/server/src/db/seed/seed-catalog.js';
import { searchMemberRows } from '../apps/server/src/read-models/console-reports.js';
import { fmt, scratchDatabase, shownMs, timed } from './scratch.js';
import { spread } from './spread.js';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PAGE_SIZE = 20;
const BITGET = 4;

async function seedMembers(db: Database) {
  await seedPartnerCatalog(db);
  await db.execute(sql`drop index users_email_trgm_idx`);
  await db.execute(sql`
    insert into users (email, user_code, invite_code, created_at, suspended_at, suspension_reason)
    select 'trader' || n || '@' || (array['gmail.com', 'naver.com', 'qq.com', 'proton.me', 'example.org'])[n % 5 + 1],
      'EX' || upper(to_hex(n)), 'IN' || upper(to_hex(n)), timestamptz '2026-01-01' + n * interval '10 s',
      case when n % ${Math.max(1, Math.floor(MEMBERS / 100))} = 0 then timestamptz '2026-06-01' end,
      case when n % ${Math.max(1, Math.floor(MEMBERS / 100))} = 0 then 'bench' end
    from generate_series(1, ${MEMBERS}::int) n`);
  await db.execute(sql`
    insert into exchange_bindings (user_id, plat_id, uid, address, bound_at)
    select id, ${BITGET}, 'BUID' || id, '0x52908400098527886E0F7030069857D2E4169EE7', created_at
    from users where id % 10 = 0`);
  const started = performance.now();
  await db.execute(sql`create index users_email_trgm_idx on users using gin (email gin_trgm_ops)`);
  const indexMs = performance.now() - started;
  await db.execute(sql`analyze`);
  return indexMs;
}

/** The statement the search ran before: one OR across the e-mail, the codes and the UIDs. */
async function searchBefore(db: Database, text: string, suspendedOnly: boolean, page: number) {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  const code = text.toUpperCase();
  const where = sql.join(
    [
      text
        ? sql`(users.email ilike ${pattern} or users.user_code = ${code} or users.invite_code = ${code}
            or users.id in (select user_id from exchange_bindings where uid = ${text}))`
        : sql`true`,
      suspendedOnly ? sql`users.suspended_at is not null` : sql`true`,
    ],
    sql` and `,
  );
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      select users.id,
        (select count(*)::int from exchange_bindings b where b.user_id = users.id and b.unbound_at is null),
        exists (select 1 from operators o where o.user_id = users.id)
      from users where ${where}
      order by users.created_at desc, users.id desc limit ${PAGE_SIZE} offset ${(page - 1) * PAGE_SIZE}`),
  );
  const [total] = rowsOf<{ total: number }>(
    await db.execute(sql`select count(*)::int as total from users where ${where}`),
  );
  return { ids: rows.map((row) => Number(row.id)), total: total?.total ?? 0 };
}

const SEARCHES: ReadonlyArray<{ label: string; text: string; suspendedOnly?: boolean; page?: number }> = [
  { label: 'one e-mail', text: `trader${Math.floor(MEMBERS / 2) + 7}@` },
  { label: 'part of an e-mail (about 1 in 1,000)', text: `er${Math.floor(MEMBERS / 1000) + 3}1` },
  { label: 'a domain (1 in 5)', text: 'naver' },
  { label: 'a user code', text: `ex${(Math.floor(MEMBERS / 3) + 1).toString(16)}` },
  { label: 'a UID', text: `BUID${Math.floor(MEMBERS / 10) * 10 - 20}` },
  { label: 'nothing matches', text: 'nobody@nowhere' },
  { label: 'suspended only', text: '', suspendedOnly: true },
  { label: 'every member, page 50', text: '', page: 50 },
];

async function main() {
  const database = await scratchDatabase();
  const { db } = database;
  try {
    console.log(
      `Member search, ${database.label}: ${fmt(MEMBERS, 0)} members, load ${os.loadavg()[0]?.toFixed(1)}`,
    );
    const indexMs = await seedMembers(db);
    console.log(`  the trigram index built on the filled table in ${fmt(indexMs / 1000)} s`);
    for (const search of SEARCHES) {
      const now: number[] = [];
      const before: number[] = [];
      let found = 0;
      for (let round = 0; round < ROUNDS + 1; round += 1) {
        const query = {
          text: search.text,
          suspendedOnly: search.suspendedOnly ?? false,
          page: search.page ?? 1,
          pageSize: PAGE_SIZE,
        };
        const after = await timed(() => searchMemberRows(db, query));
        const old = await timed(() => searchBefore(db, query.text, query.suspendedOnly, query.page));
        const ids = after.value.rows.map((row) => row.user.id);
        if (after.value.total !== old.value.total || ids.join() !== old.value.ids.join()) {
          throw new Error(`"${search.text}": the two searches differ`);
        }
        found = after.value.total;
        if (round === 0) continue; // warm-up
        now.push(after.ms);
        before.push(old.ms);
      }
      const ratio = spread(before).median / spread(now).median;
      console.log(
        `  ${search.label} ("${search.text}", ${fmt(found, 0)} found): now ${shownMs(now)}, before ${shownMs(before)}; ${fmt(ratio)}x`,
      );
    }
  } finally {
    await database.close();
  }
}

await main();
