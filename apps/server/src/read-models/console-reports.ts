import { and, asc, count, desc, eq, gte, ilike, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { operators } from '../modules/admin/admin.tables.js';
import { analyticsEvents } from '../modules/analytics/analytics.tables.js';
import { type UserRow, users } from '../modules/auth/auth.tables.js';
import { exchangeBindings } from '../modules/bindings/bindings.tables.js';
import { exchanges } from '../modules/exchanges/exchanges.tables.js';
import {
  type LedgerAccountKind,
  ledgerAccounts,
  ledgerDaySums,
  ledgerJournals,
  ledgerLines,
} from '../modules/ledger/ledger.tables.js';

/**
 * Read-only reporting for the operator console (docs/architecture.md, "Boundaries": a read model):
 * member search, a member's ledger, the dashboard's daily figures, each one statement over several
 * modules' tables. Nothing here writes.
 */

const UTC_DAY = (column: unknown) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;

/** LIKE's wildcards in an operator's text match themselves. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

export interface MemberSearchRow {
  user: UserRow;
  isOperator: boolean;
  liveBindings: number;
}

/**
 * Members whose e-mail contains the text, whose user or invite code is it, or who ever bound it as a
 * UID (any member for no text); only the suspended ones when asked; newest first. The members who
 * bound the UID are looked up first, so every branch of the match is one an index serves (the e-mail
 * by trigrams, `users_email_trgm_idx`; the codes by their unique indexes; the ids by the key) and the
 * planner may combine them or walk the newest members, whichever the text makes cheaper: a subquery
 * among them made it read every member at a million.
 */
export async function searchMemberRows(
  db: Executor,
  query: { text: string; suspendedOnly: boolean; page: number; pageSize: number },
): Promise<{ rows: MemberSearchRow[]; total: number }> {
  const text = query.text.trim();
  const code = text.toUpperCase();
  // A UID has had a handful of holders at most: their ids go into the statement as values. Asked per
  // exchange, so the bindings' index (exchange first, then UID) is probed instead of read whole.
  const boundBy = text
    ? await db
        .selectDistinct({ userId: exchangeBindings.userId })
        .from(exchangeBindings)
        .where(
          and(
            inArray(exchangeBindings.platId, db.select({ id: exchanges.id }).from(exchanges)),
            eq(exchangeBindings.uid, text),
          ),
        )
    : [];
  const where = and(
    text
      ? or(
          ilike(users.email, `%${likeLiteral(text.toLowerCase())}%`),
          eq(users.userCode, code),
          eq(users.inviteCode, code),
          boundBy.length > 0
            ? inArray(
                users.id,
                boundBy.map((row) => row.userId),
              )
            : undefined,
        )
      : undefined,
    query.suspendedOnly ? isNotNull(users.suspendedAt) : undefined,
  );
  // The outer row named with its table: in a one-table select drizzle writes ${users.id} as a bare "id",
  // which inside the subquery is the binding's own (found 2026-11-29: the list counted the bindings
  // whose id equalled their member's).
  const liveBindings = sql<number>`(select count(*)::int from ${exchangeBindings}
    where ${exchangeBindings.userId} = users.id and ${exchangeBindings.unboundAt} is null)`;
  const isOperator = sql<boolean>`exists (select 1 from ${operators} where ${operators.userId} = users.id)`;
  const rows = await db
    .select({ user: users, liveBindings, isOperator })
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const [total] = await db.select({ value: count() }).from(users).where(where);
  return {
    rows: rows.map((row) => ({ ...row, liveBindings: Number(row.liveBindings) })),
    total: total?.value ?? 0,
  };
}

export interface LedgerLineReport {
  lineId: number;
  at: Date;
  kind: string;
  memo: string | null;
  account: string;
  amount: bigint;
  balanceAfter: bigint;
}

/** Lines of some accounts, newest first, with each account's running balance after the line. */
export async function selectLedgerLinePage(
  db: Executor,
  codes: readonly string[],
  page: { page: number; pageSize: number },
): Promise<{ rows: LedgerLineReport[]; total: number }> {
  if (codes.length === 0) return { rows: [], total: 0 };
  const balanceAfter = sql<string>`sum(${ledgerLines.amount}) over (partition by ${ledgerLines.accountId} order by ${ledgerLines.id})`;
  const lines = db
    .select({
      lineId: sql<number>`${ledgerLines.id}`.as('line_id'),
      at: sql<Date>`${ledgerJournals.createdAt}`.as('at'),
      kind: sql<string>`${ledgerJournals.kind}`.as('kind'),
      memo: sql<string | null>`${ledgerJournals.memo}`.as('memo'),
      account: sql<string>`${ledgerAccounts.code}`.as('account'),
      amount: sql<string>`${ledgerLines.amount}`.as('amount'),
      balanceAfter: balanceAfter.as('balance_after'),
    })
    .from(ledgerLines)
    .innerJoin(ledgerJournals, eq(ledgerJournals.id, ledgerLines.journalId))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerLines.accountId))
    .where(inArray(ledgerAccounts.code, [...codes]))
    .as('lines');
  const rows = await db
    .select()
    .from(lines)
    .orderBy(desc(lines.lineId))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  const [total] = await db
    .select({ value: count() })
    .from(ledgerLines)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerLines.accountId))
    .where(inArray(ledgerAccounts.code, [...codes]));
  return {
    rows: rows.map((row) => ({
      lineId: Number(row.lineId),
      at: row.at instanceof Date ? row.at : new Date(row.at),
      kind: row.kind,
      memo: row.memo,
      account: row.account,
      amount: BigInt(row.amount),
      balanceAfter: BigInt(row.balanceAfter),
    })),
    total: total?.value ?? 0,
  };
}

// ---------------------------------------------------------------------------------------------------
// Dashboard

/** Sign-ups per UTC day in [from, to). */
export async function countSignUpsByDay(db: Executor, from: Date, to: Date) {
  const day = UTC_DAY(users.createdAt);
  const rows = await db
    .select({ day, value: count() })
    .from(users)
    .where(and(gte(users.createdAt, from), lt(users.createdAt, to)))
    .groupBy(day);
  return new Map(rows.map((row) => [row.day, Number(row.value)]));
}

/** UIDs bound per UTC day in [from, to). */
export async function countBindingsByDay(db: Executor, from: Date, to: Date) {
  const day = UTC_DAY(exchangeBindings.boundAt);
  const rows = await db
    .select({ day, value: count() })
    .from(exchangeBindings)
    .where(and(gte(exchangeBindings.boundAt, from), lt(exchangeBindings.boundAt, to)))
    .groupBy(day);
  return new Map(rows.map((row) => [row.day, Number(row.value)]));
}

/**
 * Per UTC day in [from, to) (days as YYYY-MM-DD), the sum of the lines booked to accounts of one kind
 * by journals of some kinds: cashback accrued (rebate journals into cashback accounts), paid (lines
 * into `payout`). Read from the sums the ledger keeps by day (`ledger_day_sums`, a few rows a day
 * whatever the number of lines), equal to the lines' own sums (`ledger:check`).
 */
export async function sumLinesByDayAndKind(
  db: Executor,
  filter: { accountKind: LedgerAccountKind; journalKinds?: readonly string[]; from: string; to: string },
) {
  const day = sql<string>`to_char(${ledgerDaySums.day}, 'YYYY-MM-DD')`;
  const rows = await db
    .select({ day, total: sql<string>`sum(${ledgerDaySums.amount})` })
    .from(ledgerDaySums)
    .where(
      and(
        eq(ledgerDaySums.accountKind, filter.accountKind),
        filter.journalKinds ? inArray(ledgerDaySums.journalKind, [...filter.journalKinds]) : undefined,
        gte(ledgerDaySums.day, filter.from),
        lt(ledgerDaySums.day, filter.to),
      ),
    )
    .groupBy(ledgerDaySums.day);
  return new Map(rows.map((row) => [row.day, BigInt(row.total)]));
}

/**
 * Funds on hold for withdrawals under review: hold accounts with a positive balance (the balance each
 * account keeps, equal to the sum of its lines: `ledger:check`).
 */
export async function sumOpenHolds(db: Executor): Promise<{ count: number; amountMicro: bigint }> {
  const open = sql`${ledgerAccounts.balance} > 0`;
  const [row] = await db
    .select({
      count: sql<number>`count(*) filter (where ${open})`,
      amount: sql<string>`coalesce(sum(${ledgerAccounts.balance}) filter (where ${open}), 0)`,
    })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.kind, 'hold'));
  return { count: Number(row?.count ?? 0), amountMicro: BigInt(row?.amount ?? 0) };
}

export async function countMembersAndBindings(db: Executor) {
  const [members] = await db.select({ value: count() }).from(users).where(isNull(users.deletedAt));
  const [bindings] = await db
    .select({ value: count() })
    .from(exchangeBindings)
    .where(isNull(exchangeBindings.unboundAt));
  return { members: members?.value ?? 0, liveBindings: bindings?.value ?? 0 };
}

/** Page views by route in [from, to), most viewed first; the console's own pages are left out. */
export async function countPageViews(db: Executor, from: Date, to: Date, limit: number) {
  const views = count();
  const rows = await db
    .select({ page: analyticsEvents.page, views })
    .from(analyticsEvents)
    .where(
      and(
        eq(analyticsEvents.event, 'page_view'),
        gte(analyticsEvents.receivedAt, from),
        lt(analyticsEvents.receivedAt, to),
        sql`${analyticsEvents.page} not like '/admin%'`,
      ),
    )
    .groupBy(analyticsEvents.page)
    .orderBy(desc(views), asc(analyticsEvents.page))
    .limit(limit);
  return rows.map((row) => ({ page: row.page, views: Number(row.views) }));
}
