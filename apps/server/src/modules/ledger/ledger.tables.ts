import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables.js';
import { exchanges } from '../exchanges/exchanges.tables.js';

/**
 * The money ledger (docs/ledger.md): double-entry and append-only, in integer micro-USDT.
 *
 * - An account is named by its code (`commission:<platId>`, `cashback:<platId>:<uid>`,
 *   `rewards:<userId>`, `rewards-expense`, `hold:<withdrawalId>`, `payout`, `adjustments`); the parts of the code are
 *   kept as columns too, so reports group by exchange or UID without parsing text.
 * - A journal is one movement; its lines sum to zero. The database checks that at commit (a deferred
 *   constraint trigger) and refuses UPDATE, DELETE and TRUNCATE on accounts, journals and lines
 *   (migration 0007_ledger_append_only). A correction is a new journal.
 * - A balance is the sum of an account's lines, kept on the account (`balance`) by a statement trigger
 *   on the lines as they are inserted, so a balance is one row read; `ledger:check` proves the kept
 *   balance equals the sum of the lines for every account (migration 0021_kept_balances).
 */
export const LEDGER_ACCOUNT_KINDS = [
  'commission',
  'cashback',
  'rewards',
  'rewards-expense',
  'hold',
  'payout',
  'adjustments',
] as const;
export type LedgerAccountKind = (typeof LEDGER_ACCOUNT_KINDS)[number];

export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    code: text('code').notNull(),
    kind: text('kind').$type<LedgerAccountKind>().notNull(),
    platId: integer('plat_id').references(() => exchanges.id),
    uid: text('uid'),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id),
    /** The withdrawal of a `hold:<withdrawalId>` account. */
    referenceId: bigint('reference_id', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /**
     * The sum of the account's lines, kept by the database (trigger `ledger_lines_keep_balances`); only
     * that trigger may change it (`ledger_accounts_append_only` refuses any other UPDATE).
     */
    balance: bigint('balance', { mode: 'bigint' }).notNull().default(sql`0`),
  },
  (table) => [
    uniqueIndex('ledger_accounts_code_unique').on(table.code),
    index('ledger_accounts_kind_plat_uid_idx').on(table.kind, table.platId, table.uid),
    index('ledger_accounts_user_id_idx').on(table.userId),
    check(
      'ledger_accounts_kind_check',
      sql`${table.kind} in ('commission', 'cashback', 'rewards', 'rewards-expense', 'hold', 'payout', 'adjustments')`,
    ),
    // The code is derived from the parts: one spelling per account, checked by the database.
    check(
      'ledger_accounts_code_check',
      sql`${table.code} = coalesce(case ${table.kind}
        when 'commission' then 'commission:' || ${table.platId}
        when 'cashback' then 'cashback:' || ${table.platId} || ':' || ${table.uid}
        when 'rewards' then 'rewards:' || ${table.userId}
        when 'hold' then 'hold:' || ${table.referenceId}
        else ${table.kind} end, '')`,
    ),
    // What we owe a member never goes below zero: postJournal refuses it first, this is the backstop.
    check(
      'ledger_accounts_balance_check',
      sql`${table.kind} not in ('cashback', 'rewards', 'hold') or ${table.balance} >= 0`,
    ),
  ],
);

export const ledgerJournals = pgTable(
  'ledger_journals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** What moved: 'rebate', 'inviteBonus', later the withdrawal kinds. */
    kind: text('kind').notNull(),
    /** Makes a posting idempotent: the same key posts once ('rebate:<rebateId>' ...). */
    idempotencyKey: text('idempotency_key').notNull(),
    memo: text('memo'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('ledger_journals_idempotency_key_unique').on(table.idempotencyKey),
    index('ledger_journals_kind_created_idx').on(table.kind, table.createdAt),
    // The ledger export walks journals by day, every kind.
    index('ledger_journals_created_idx').on(table.createdAt, table.id),
  ],
);

export const ledgerLines = pgTable(
  'ledger_lines',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    journalId: bigint('journal_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerJournals.id),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerAccounts.id),
    /** Signed micro-USDT: positive adds to the account, negative takes from it. */
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
  },
  (table) => [
    // Balances are sums by account; the running-balance check reads them in id order.
    index('ledger_lines_account_idx').on(table.accountId, table.id, table.amount),
    index('ledger_lines_journal_idx').on(table.journalId),
    check('ledger_lines_amount_check', sql`${table.amount} <> 0`),
  ],
);

/**
 * The ledger's lines summed by the UTC day of their journal, the kind of their account and the kind of
 * their journal, kept by a statement trigger on `ledger_lines` (migration 0061_ledger_day_sums) so the
 * console's dashboard reads a few rows a day instead of every line of the period (issue 14). Each
 * posting statement **adds** rows (its own sums), never updates one: concurrent postings take no lock
 * here and cannot deadlock on a shared day. Housekeeping folds the rows of past days into one per
 * key; `ledger:check` proves the sums per key equal the lines', and `kept:rebuild` recomputes them.
 */
export const ledgerDaySums = pgTable(
  'ledger_day_sums',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    day: date('day', { mode: 'string' }).notNull(),
    accountKind: text('account_kind').$type<LedgerAccountKind>().notNull(),
    journalKind: text('journal_kind').notNull(),
    /** Numeric: a sum of bigints may pass 2^63. */
    amount: numeric('amount').notNull(),
    lines: bigint('lines', { mode: 'number' }).notNull(),
  },
  (table) => [index('ledger_day_sums_kind_day_idx').on(table.accountKind, table.journalKind, table.day)],
);

/**
 * Cashback credited by rebate journals, per cashback account and UTC day of the journal, kept by the
 * same statement trigger as `ledger_day_sums` (migration 0063_cashback_credit_days) so the public
 * statistics' 30-day ranking reads a row per UID and day instead of joining every line of the window
 * to its journal and account (issue 14). Insert-only deltas like the day sums: several rows a key until
 * housekeeping folds a past day's; `ledger:check` proves them, `kept:rebuild` recomputes them.
 */
export const cashbackCreditDays = pgTable(
  'cashback_credit_days',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    day: date('day', { mode: 'string' }).notNull(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    /** An account's credits of a day: far inside a bigint (2^63 micro-USDT is 9.2 trillion USDT). */
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
  },
  // The window's rows read from the index alone (day first), and a past day's rows per account folded.
  (table) => [index('cashback_credit_days_day_idx').on(table.day, table.accountId, table.amount)],
);

export type LedgerAccountRow = typeof ledgerAccounts.$inferSelect;
export type LedgerJournalRow = typeof ledgerJournals.$inferSelect;
export type LedgerLineRow = typeof ledgerLines.$inferSelect;
