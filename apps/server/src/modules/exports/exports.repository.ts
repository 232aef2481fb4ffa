import type { ExportKind } from '@elex/contract';
import { and, eq, gt, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { type ExportLinkRow, exportLinks } from './exports.tables.js';

/**
 * The exports read other modules' tables, read-only, one keyset page at a time: each page starts
 * after the last row of the one before on an index ordered the same way (time, id), so page 500
 * costs what page 1 does and nothing holds a cursor, a transaction or a connection between pages.
 * Amounts and times are rendered by the database: USDT as decimal strings with 6 decimals, times
 * ISO 8601 UTC with milliseconds.
 */

/** [start, end) in UTC: the first day at 00:00 to the day after the last. */
export interface ExportRange {
  start: Date;
  end: Date;
}

/** Where the next page starts: the last row's time (microseconds kept) and ids. */
export interface ExportKey {
  at: string;
  ids: string[];
}

export interface ExportPage {
  rows: string[][];
  next: ExportKey | null;
}

const usdt = (column: SQL) => sql`(${column}::numeric / 1000000)::numeric(38, 6)::text`;
const iso = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const keyAt = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

interface KindQuery {
  header: readonly string[];
  /** A page of rows as text cells (null for an empty cell), each row ending with its key columns. */
  page(db: Executor, range: ExportRange, after: ExportKey | null, limit: number): Promise<RawRow[]>;
  /** How many of the key's ids a row carries. */
  keyIds: number;
}

type RawRow = { cells: (string | null)[]; key_at: string; k1: string; k2?: string };

const afterClause = (after: ExportKey | null, at: SQL, ids: SQL[]) => {
  if (!after) return sql`true`;
  const left = sql.join([at, ...ids], sql`, `);
  const right = sql.join(
    [sql`${after.at}::timestamptz`, ...after.ids.map((id) => sql`${id}::bigint`)],
    sql`, `,
  );
  return sql`(${left}) > (${right})`;
};

const QUERIES: Record<ExportKind, KindQuery> = {
  withdrawals: {
    header: [
      'id',
      'requested_at',
      'member_id',
      'member_email',
      'plat_id',
      'exchange',
      'uid',
      'address',
      'amount_usdt',
      'from_cashback_usdt',
      'from_rewards_usdt',
      'status',
      'decided_at',
      'decided_via',
      'tx_hash',
      'failure_reason',
    ],
    keyIds: 1,
    page: async (db, range, after, limit) =>
      rowsOf<RawRow>(
        await db.execute(sql`
          select array[w.id::text, ${iso(sql`w.created_at`)}, w.user_id::text, u.email, w.plat_id::text,
                   e.name, w.uid, w.address, ${usdt(sql`w.amount_micro`)}, ${usdt(sql`w.cashback_micro`)},
                   ${usdt(sql`w.rewards_micro`)}, w.status, ${iso(sql`w.decided_at`)}, w.decided_via,
                   w.tx_hash, w.failure_reason] as cells,
                 ${keyAt(sql`w.created_at`)} as key_at, w.id::text as k1
          from withdrawals w
          join users u on u.id = w.user_id
          join exchanges e on e.id = w.plat_id
          where w.created_at >= ${range.start.toISOString()}::timestamptz and w.created_at < ${range.end.toISOString()}::timestamptz
            and ${afterClause(after, sql`w.created_at`, [sql`w.id`])}
          order by w.created_at, w.id
          limit ${limit}`),
      ),
  },
  members: {
    header: [
      'id',
      'registered_at',
      'email',
      'user_code',
      'invite_code',
      'inviter_id',
      'language',
      'marketing_consent',
      'withdrawals_locked_until',
      'deleted_at',
    ],
    keyIds: 1,
    page: async (db, range, after, limit) =>
      rowsOf<RawRow>(
        await db.execute(sql`
          select array[u.id::text, ${iso(sql`u.created_at`)}, u.email, u.user_code, u.invite_code,
                   u.inviter_id::text, u.locale, u.marketing_consent::text,
                   ${iso(sql`u.withdrawal_locked_until`)}, ${iso(sql`u.deleted_at`)}] as cells,
                 ${keyAt(sql`u.created_at`)} as key_at, u.id::text as k1
          from users u
          where u.created_at >= ${range.start.toISOString()}::timestamptz and u.created_at < ${range.end.toISOString()}::timestamptz
            and ${afterClause(after, sql`u.created_at`, [sql`u.id`])}
          order by u.created_at, u.id
          limit ${limit}`),
      ),
  },
  ledger: {
    header: [
      'line_id',
      'journal_id',
      'posted_at',
      'journal_kind',
      'journal_key',
      'account',
      'amount_usdt',
      'memo',
    ],
    keyIds: 2,
    page: async (db, range, after, limit) =>
      rowsOf<RawRow>(
        await db.execute(sql`
          select array[l.id::text, j.id::text, ${iso(sql`j.created_at`)}, j.kind, j.idempotency_key,
                   a.code, ${usdt(sql`l.amount`)}, j.memo] as cells,
                 ${keyAt(sql`j.created_at`)} as key_at, j.id::text as k1, l.id::text as k2
          from ledger_journals j
          join ledger_lines l on l.journal_id = j.id
          join ledger_accounts a on a.id = l.account_id
          where j.created_at >= ${range.start.toISOString()}::timestamptz and j.created_at < ${range.end.toISOString()}::timestamptz
            and ${afterClause(after, sql`j.created_at`, [sql`j.id`, sql`l.id`])}
          order by j.created_at, j.id, l.id
          limit ${limit}`),
      ),
  },
  rebates: {
    header: [
      'id',
      'plat_id',
      'exchange',
      'uid',
      'period_start',
      'period_end',
      'trading_volume_usdt',
      'fee_usdt',
      'commission_usdt',
      'status',
      'cash_rate_bps',
      'speed_up',
      'cashback_usdt',
      'failure_reason',
      'source',
      'source_label',
      'imported_at',
      'settled_at',
    ],
    keyIds: 1,
    page: async (db, range, after, limit) =>
      rowsOf<RawRow>(
        await db.execute(sql`
          select array[r.id::text, r.plat_id::text, e.name, r.uid, ${iso(sql`r.period_start`)},
                   ${iso(sql`r.period_end`)}, ${usdt(sql`r.trading_volume_micro`)}, ${usdt(sql`r.fee_micro`)},
                   ${usdt(sql`r.commission_micro`)}, r.status, r.cash_rate_bps::text, r.is_speed_up::text,
                   ${usdt(sql`r.amount_micro`)}, r.failure_reason, r.source, r.source_label,
                   ${iso(sql`r.created_at`)}, ${iso(sql`r.settled_at`)}] as cells,
                 ${keyAt(sql`r.period_start`)} as key_at, r.id::text as k1
          from rebates r
          join exchanges e on e.id = r.plat_id
          where r.period_start >= ${range.start.toISOString()}::timestamptz and r.period_start < ${range.end.toISOString()}::timestamptz
            and ${afterClause(after, sql`r.period_start`, [sql`r.id`])}
          order by r.period_start, r.id
          limit ${limit}`),
      ),
  },
  audit: {
    header: ['id', 'at', 'actor_id', 'actor', 'action', 'target', 'before', 'after', 'request_id'],
    keyIds: 1,
    page: async (db, range, after, limit) =>
      rowsOf<RawRow>(
        await db.execute(sql`
          select array[a.id::text, ${iso(sql`a.at`)}, a.actor_id::text, a.actor, a.action, a.target,
                   a.before::text, a.after::text, a.request_id] as cells,
                 ${keyAt(sql`a.at`)} as key_at, a.id::text as k1
          from audit_log a
          where a.at >= ${range.start.toISOString()}::timestamptz and a.at < ${range.end.toISOString()}::timestamptz
            and ${afterClause(after, sql`a.at`, [sql`a.id`])}
          order by a.at, a.id
          limit ${limit}`),
      ),
  },
};

export function exportHeader(kind: ExportKind): readonly string[] {
  return QUERIES[kind].header;
}

export async function selectExportPage(
  db: Executor,
  kind: ExportKind,
  range: ExportRange,
  after: ExportKey | null,
  limit: number,
): Promise<ExportPage> {
  const query = QUERIES[kind];
  const raw = await query.page(db, range, after, limit);
  const last = raw.at(-1);
  const next =
    raw.length < limit || !last
      ? null
      : { at: last.key_at, ids: [last.k1, ...(query.keyIds > 1 && last.k2 ? [last.k2] : [])] };
  return { rows: raw.map((row) => row.cells.map((cell) => cell ?? '')), next };
}

export async function insertExportLink(db: Executor, row: typeof exportLinks.$inferInsert): Promise<void> {
  await db.insert(exportLinks).values(row);
}

/** Takes the link for its one download: answers it when unused and unexpired, marking it used. */
export async function claimExportLink(
  db: Executor,
  tokenHash: string,
  now: Date,
): Promise<ExportLinkRow | undefined> {
  const [row] = await db
    .update(exportLinks)
    .set({ usedAt: now })
    .where(
      and(eq(exportLinks.tokenHash, tokenHash), isNull(exportLinks.usedAt), gt(exportLinks.expiresAt, now)),
    )
    .returning();
  return row;
}

/** Housekeeping: links expired before the cutoff, one batch. */
export async function deleteExportLinksExpiredBefore(
  db: Executor,
  cutoff: Date,
  limit: number,
): Promise<number> {
  const rows = rowsOf<{ token_hash: string }>(
    await db.execute(sql`
      delete from export_links where token_hash in (
        select token_hash from export_links where expires_at < ${cutoff.toISOString()}::timestamptz limit ${limit}
        for update skip locked)
      returning token_hash`),
  );
  return rows.length;
}
