import { and, count, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import type { ParsedAccount } from './accounts.js';
import { ledgerAccounts, ledgerJournals, ledgerLines } from './ledger.tables.js';

/** Rows of a raw query on either driver (node-postgres and PGlite both answer `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** Postgres takes at most 65,535 parameters a statement: multi-row inserts go in chunks. */
export const INSERT_CHUNK = 1000;

export function chunks<T>(items: readonly T[], size = INSERT_CHUNK): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

/** Creates the accounts that do not exist yet and answers the id of every code asked for. */
export async function ensureAccountRows(
  tx: Executor,
  accounts: readonly ParsedAccount[],
  at: Date,
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const part of chunks(accounts)) {
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
    const rows = await tx
      .select({ id: ledgerAccounts.id, code: ledgerAccounts.code })
      .from(ledgerAccounts)
      .where(
        inArray(
          ledgerAccounts.code,
          part.map((account) => account.code),
        ),
      );
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

/** Balances by account code: the sums of their lines (0 for an account without lines or none at all). */
export async function selectBalances(db: Executor, codes: readonly string[]): Promise<Map<string, bigint>> {
  const balances = new Map<string, bigint>(codes.map((code) => [code, 0n]));
  for (const part of chunks(codes)) {
    const rows = await db
      .select({
        code: ledgerAccounts.code,
        total: sql<string>`coalesce(sum(${ledgerLines.amount}), 0)`,
      })
      .from(ledgerAccounts)
      .innerJoin(ledgerLines, eq(ledgerLines.accountId, ledgerAccounts.id))
      .where(inArray(ledgerAccounts.code, part))
      .groupBy(ledgerAccounts.code);
    for (const row of rows) balances.set(row.code, BigInt(row.total));
  }
  return balances;
}

export interface NewJournal {
  kind: string;
  key: string;
  memo: string | null;
  at: Date;
}

/** Inserts journals whose key is new; answers the id of each key inserted now. */
export async function insertJournalRows(
  tx: Executor,
  journals: readonly NewJournal[],
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const part of chunks(journals)) {
    const rows = await tx
      .insert(ledgerJournals)
      .values(
        part.map((journal) => ({
          kind: journal.kind,
          idempotencyKey: journal.key,
          memo: journal.memo,
          createdAt: journal.at,
        })),
      )
      .onConflictDoNothing({ target: ledgerJournals.idempotencyKey })
      .returning({ id: ledgerJournals.id, key: ledgerJournals.idempotencyKey });
    for (const row of rows) ids.set(row.key, row.id);
  }
  return ids;
}

export async function selectJournalIds(db: Executor, keys: readonly string[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const part of chunks(keys)) {
    const rows = await db
      .select({ id: ledgerJournals.id, key: ledgerJournals.idempotencyKey })
      .from(ledgerJournals)
      .where(inArray(ledgerJournals.idempotencyKey, part));
    for (const row of rows) ids.set(row.key, row.id);
  }
  return ids;
}

export async function insertLineRows(
  tx: Executor,
  lines: ReadonlyArray<{ journalId: number; accountId: number; amount: bigint }>,
): Promise<void> {
  for (const part of chunks(lines, 2000)) await tx.insert(ledgerLines).values(part);
}

/**
 * Sums of lines per account, limited to journals of some kinds and optionally a time window:
 * "credited cashback" is the rebate journals' lines, whatever else later moves the account.
 */
export async function sumLinesByAccount(
  db: Executor,
  filter: { codes?: readonly string[]; accountKind?: string; journalKinds: readonly string[]; since?: Date },
): Promise<Array<{ code: string; platId: number | null; uid: string | null; total: bigint }>> {
  if (filter.codes && filter.codes.length === 0) return [];
  const rows = await db
    .select({
      code: ledgerAccounts.code,
      platId: ledgerAccounts.platId,
      uid: ledgerAccounts.uid,
      total: sql<string>`sum(${ledgerLines.amount})`,
    })
    .from(ledgerLines)
    .innerJoin(ledgerJournals, eq(ledgerJournals.id, ledgerLines.journalId))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerLines.accountId))
    .where(
      and(
        inArray(ledgerJournals.kind, [...filter.journalKinds]),
        filter.codes ? inArray(ledgerAccounts.code, [...filter.codes]) : undefined,
        filter.accountKind ? eq(ledgerAccounts.kind, filter.accountKind as never) : undefined,
        filter.since ? gte(ledgerJournals.createdAt, filter.since) : undefined,
      ),
    )
    .groupBy(ledgerAccounts.code, ledgerAccounts.platId, ledgerAccounts.uid);
  return rows.map((row) => ({ ...row, total: BigInt(row.total) }));
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
