import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { chunks, rowsOf } from '../../db/rows.js';
import type { ParsedAccount } from './accounts.js';
import { cashbackCreditDays, ledgerAccounts, ledgerJournals, ledgerLines } from './ledger.tables.js';

/**
 * Creates the accounts that do not exist yet and answers the id of every code asked for. With `lock`
 * it also locks them all, in code order (chunks of ascending codes, each locked in order): a posting
 * holds every account it moves before it writes, so two postings touching the same accounts queue in
 * one order and cannot deadlock (the kept balances are updated on these rows).
 */
export async function ensureAccountRows(
  tx: Executor,
  accounts: readonly ParsedAccount[],
  at: Date,
  options: { lock?: boolean } = {},
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  const sorted = options.lock
    ? [...accounts].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
    : accounts;
  for (const part of chunks(sorted)) {
    await tx
      .insert(ledgerAccounts)
      .values(
        part.map((account) => ({
          code: account.code,
          kind: account.kind,
          platId: account.platId,
          uid: account.uid,
          userId: account.userId,
          referenceId: account.referenceId,
          createdAt: at,
        })),
      )
      .onConflictDoNothing({ target: ledgerAccounts.code });
    const select = tx
      .select({ id: ledgerAccounts.id, code: ledgerAccounts.code })
      .from(ledgerAccounts)
      .where(
        inArray(
          ledgerAccounts.code,
          part.map((account) => account.code),
        ),
      );
    const rows = options.lock
      ? await select.orderBy(sql`${ledgerAccounts.code} collate "C"`).for('update')
      : await select;
    for (const row of rows) ids.set(row.code, row.id);
  }
  return ids;
}

/**
 * Locks account rows in code order (one order for every caller, so two postings cannot deadlock). In
 * chunks of ascending codes, each locked in order, so the whole set is still locked in code order and
 * no statement carries more parameters than PostgreSQL takes (a settlement can touch 100,000 UIDs).
 */
export async function lockAccountRows(tx: Executor, codes: readonly string[]): Promise<void> {
  const sorted = [...new Set(codes)].sort();
  for (const part of chunks(sorted)) {
    await tx
      .select({ id: ledgerAccounts.id })
      .from(ledgerAccounts)
      .where(inArray(ledgerAccounts.code, part))
      // Byte order, as the chunks are sorted (codes are ASCII), whatever the database's collation.
      .orderBy(sql`${ledgerAccounts.code} collate "C"`)
      .for('update');
  }
}

/** Kept balances by account code (0 for an account that does not exist yet). */
export async function selectBalances(db: Executor, codes: readonly string[]): Promise<Map<string, bigint>> {
  const balances = new Map<string, bigint>(codes.map((code) => [code, 0n]));
  for (const part of chunks(codes)) {
    const rows = await db
      .select({ code: ledgerAccounts.code, balance: ledgerAccounts.balance })
      .from(ledgerAccounts)
      .where(inArray(ledgerAccounts.code, part));
    for (const row of rows) balances.set(row.code, row.balance);
  }
  return balances;
}

export interface NewJournal {
  kind: string;
  key: string;
  memo: string | null;
  at: Date;
  lines: ReadonlyArray<{ accountId: number; amount: bigint }>;
}

/** Journals a statement writes with their lines: the database checks balance per statement. */
const JOURNALS_PER_STATEMENT = 10_000;

/**
 * Inserts journals whose key is new together with their lines, each chunk of whole journals in one
 * statement (the ledger's balance trigger checks every statement), with all rows in one JSON parameter
 * so no statement nears PostgreSQL's parameter limit. Answers the id of each key inserted now; a key
 * that existed books nothing.
 */
export async function insertJournalsWithLines(
  tx: Executor,
  journals: readonly NewJournal[],
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const part of chunks(journals, JOURNALS_PER_STATEMENT)) {
    const journalRows = part.map((journal) => ({
      kind: journal.kind,
      key: journal.key,
      memo: journal.memo,
      at: journal.at.toISOString(),
    }));
    const lineRows = part.flatMap((journal) =>
      journal.lines.map((line) => ({
        key: journal.key,
        account_id: line.accountId,
        amount: line.amount.toString(),
      })),
    );
    const rows = rowsOf<{ id: string | number; key: string }>(
      await tx.execute(sql`
        with new_journals as (
          insert into ${ledgerJournals} (kind, idempotency_key, memo, created_at)
          select kind, key, memo, at
          from rows from (json_to_recordset(${JSON.stringify(journalRows)}::json)
            as (kind text, key text, memo text, at timestamptz)) with ordinality as j(kind, key, memo, at, n)
          order by n
          on conflict (idempotency_key) do nothing
          returning id, idempotency_key
        ), new_lines as (
          insert into ${ledgerLines} (journal_id, account_id, amount)
          select nj.id, l.account_id, l.amount
          from rows from (json_to_recordset(${JSON.stringify(lineRows)}::json)
            as (key text, account_id bigint, amount bigint)) with ordinality as l(key, account_id, amount, n)
          join new_journals nj on nj.idempotency_key = l.key
          -- Posting order: the overdraft replay (ledger:check) reads lines in id order.
          order by l.n
        )
        select id, idempotency_key as key from new_journals`),
    );
    for (const row of rows) ids.set(row.key, Number(row.id));
  }
  return ids;
}

export async function selectJournalIds(db: Executor, keys: readonly string[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  // One statement per 10,000 keys, all in one JSON parameter (a settlement page asks for 20,000).
  for (const part of chunks(keys, 10_000)) {
    const rows = rowsOf<{ id: string | number; key: string }>(
      await db.execute(sql`
        select j.id, j.idempotency_key as key from ${ledgerJournals} j
        where j.idempotency_key in (select json_array_elements_text(${JSON.stringify(part)}::json))`),
    );
    for (const row of rows) ids.set(row.key, Number(row.id));
  }
  return ids;
}

/**
 * Sums of lines per account, limited to journals of some kinds: "credited cashback" is the rebate
 * journals' lines, whatever else later moves the account.
 */
export async function sumLinesByAccount(
  db: Executor,
  filter: { codes: readonly string[]; journalKinds: readonly string[] },
): Promise<Array<{ code: string; total: bigint }>> {
  if (filter.codes.length === 0) return [];
  const rows = await db
    .select({
      code: ledgerAccounts.code,
      total: sql<string>`sum(${ledgerLines.amount})`,
    })
    .from(ledgerLines)
    .innerJoin(ledgerJournals, eq(ledgerJournals.id, ledgerLines.journalId))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerLines.accountId))
    .where(
      and(
        inArray(ledgerJournals.kind, [...filter.journalKinds]),
        inArray(ledgerAccounts.code, [...filter.codes]),
      ),
    )
    .groupBy(ledgerAccounts.code);
  return rows.map((row) => ({ ...row, total: BigInt(row.total) }));
}

/**
 * The cashback credited by rebate journals since a moment, per UID of the given exchanges, ranked per
 * exchange in the database: each exchange's first `top` UIDs (largest first, UID order among equals)
 * with how many UIDs were credited and their total. Only those rows travel: a daily-import ledger has
 * a line per UID and day, and the public statistics need ten of each exchange's UIDs, not all of them.
 * A UID whose credits in the window sum to nothing or less is not counted. The window's whole days are
 * read from `cashback_credit_days` (a row per UID and day), its first, partial day from the lines.
 */
export async function rankCashbackCreditedSince(
  db: Executor,
  filter: { platIds: readonly number[]; since: Date; top: number },
): Promise<Array<{ platId: number; uid: string; total: bigint; holders: number; exchangeTotal: bigint }>> {
  if (filter.platIds.length === 0) return [];
  // Whole days from the credits kept per account and day; the window's first, partial day from its lines.
  const since = filter.since;
  const nextDay = new Date(
    Date.UTC(since.getUTCFullYear(), since.getUTCMonth(), since.getUTCDate() + 1),
  ).toISOString();
  const rows = rowsOf<{
    plat_id: number | string;
    uid: string;
    total: string;
    holders: number | string;
    exchange_total: string;
  }>(
    await db.execute(sql`
      with window_credits as (
        select c.account_id, sum(c.amount) as total from (
          select account_id, amount from ${cashbackCreditDays} where day >= ${nextDay.slice(0, 10)}::date
          union all
          select l.account_id, l.amount
          from ${ledgerJournals} j
          join ${ledgerLines} l on l.journal_id = j.id
          where j.kind = 'rebate' and j.created_at >= ${filter.since} and j.created_at < ${nextDay}::timestamptz
        ) c
        group by c.account_id
        having sum(c.amount) > 0
      ), ranked as (
        select a.plat_id, a.uid, c.total,
          -- Equal sums in the UID's byte order, whatever the database's collation.
          row_number() over (partition by a.plat_id order by c.total desc, a.uid collate "C") as place,
          count(*) over (partition by a.plat_id) as holders,
          sum(c.total) over (partition by a.plat_id) as exchange_total
        from window_credits c
        join ${ledgerAccounts} a on a.id = c.account_id
        where a.kind = 'cashback' and a.uid is not null
          and a.plat_id in (${sql.join(
            filter.platIds.map((platId) => sql`${platId}`),
            sql`, `,
          )})
      )
      select plat_id, uid, total::text as total, holders, exchange_total::text as exchange_total
      from ranked where place <= ${filter.top}
      order by plat_id, place`),
  );
  return rows.map((row) => ({
    platId: Number(row.plat_id),
    uid: row.uid,
    total: BigInt(row.total),
    holders: Number(row.holders),
    exchangeTotal: BigInt(row.exchange_total),
  }));
}

export async function countLedgerRows(db: Executor) {
  const [accounts] = await db.select({ value: count() }).from(ledgerAccounts);
  const [journals] = await db.select({ value: count() }).from(ledgerJournals);
  const [lines] = await db.select({ value: count() }).from(ledgerLines);
  return { accounts: accounts?.value ?? 0, journals: journals?.value ?? 0, lines: lines?.value ?? 0 };
}

/**
 * The latest lines of some accounts, newest first, each with its account's balance after it (a running
 * sum in line order, which is posting order: balances are sums of lines).
 */
export async function selectRecentLines(
  db: Executor,
  codes: readonly string[],
  limit: number,
): Promise<
  Array<{ code: string; kind: string; memo: string | null; at: Date; amount: bigint; balanceAfter: bigint }>
> {
  if (codes.length === 0) return [];
  const result = await db.execute(sql`
    select code, kind, memo, at, amount, balance_after from (
      select a.code, j.kind, j.memo, j.created_at as at, l.id, l.amount,
        sum(l.amount) over (partition by l.account_id order by l.id) as balance_after
      from ${ledgerLines} l
      join ${ledgerAccounts} a on a.id = l.account_id
      join ${ledgerJournals} j on j.id = l.journal_id
      where a.code in (${sql.join(
        [...new Set(codes)].map((code) => sql`${code}`),
        sql`, `,
      )})
    ) movements
    order by id desc
    limit ${limit}`);
  return (
    result as unknown as {
      rows: Array<{
        code: string;
        kind: string;
        memo: string | null;
        at: string | Date;
        amount: string;
        balance_after: string;
      }>;
    }
  ).rows.map((row) => ({
    code: row.code,
    kind: row.kind,
    memo: row.memo,
    at: new Date(row.at),
    amount: BigInt(row.amount),
    balanceAfter: BigInt(row.balance_after),
  }));
}
