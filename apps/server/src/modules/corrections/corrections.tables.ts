import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables.js';
import { exchanges } from '../exchanges/exchanges.tables.js';
import { ledgerJournals } from '../ledger/ledger.tables.js';

export const CORRECTION_STATUS = ['pending', 'posted', 'rejected'] as const;
export type CorrectionStatusValue = (typeof CORRECTION_STATUS)[number];
export const CORRECTION_ACCOUNT = ['cashback', 'rewards'] as const;
export type CorrectionAccountValue = (typeof CORRECTION_ACCOUNT)[number];

/**
 * An operator's correction of a member's money (docs/operator-console.md, "Corrections"). The money
 * itself moves in the ledger: journal `correction:<id>` (kind `correction`) between the member's
 * account and `adjustments`, booked when the correction is posted; a pending or rejected one has none.
 *
 * Decided once: only a pending row changes, only its decision fields, and nothing is deleted (trigger
 * corrections_decide_once in this branch's migration).
 */
export const corrections = pgTable(
  'corrections',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The member whose money it corrects (a UID's cashback: the member who bound it). */
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    account: text('account').$type<CorrectionAccountValue>().notNull(),
    platId: integer('plat_id').references(() => exchanges.id),
    uid: text('uid'),
    /** The ledger account: `cashback:<platId>:<uid>` or `rewards:<userId>`. */
    accountCode: text('account_code').notNull(),
    /** Signed micro-USDT: positive credits the member. */
    amountMicro: bigint('amount_micro', { mode: 'bigint' }).notNull(),
    /** Shown to the member as written. */
    reason: text('reason').notNull(),
    status: text('status').$type<CorrectionStatusValue>().notNull(),
    /** Above the threshold when proposed: needed a second operator. */
    needsApproval: boolean('needs_approval').notNull(),
    proposedById: bigint('proposed_by_id', { mode: 'number' }).references(() => users.id),
    /** The proposer's e-mail at the time, or 'cli:<os user>'. */
    proposedBy: text('proposed_by').notNull(),
    proposedAt: timestamp('proposed_at', { withTimezone: true }).notNull(),
    decidedById: bigint('decided_by_id', { mode: 'number' }).references(() => users.id),
    decidedBy: text('decided_by'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    rejectionReason: text('rejection_reason'),
    journalId: bigint('journal_id', { mode: 'number' }).references(() => ledgerJournals.id),
    /**
     * The console's id of the proposal (a retried click sends it again): one correction per proposer
     * and id (migration 0043). Null for a call without one (the command line, older clients).
     */
    requestId: uuid('request_id'),
  },
  (table) => [
    index('corrections_status_proposed_idx').on(table.status, table.proposedAt, table.id),
    index('corrections_user_idx').on(table.userId, table.proposedAt),
    index('corrections_account_idx').on(table.accountCode, table.status),
    uniqueIndex('corrections_request_unique').on(table.proposedBy, table.requestId),
    check('corrections_amount_check', sql`${table.amountMicro} <> 0`),
    check(
      'corrections_account_check',
      sql`(${table.account} = 'cashback' and ${table.platId} is not null and ${table.uid} is not null
            and ${table.accountCode} = 'cashback:' || ${table.platId} || ':' || ${table.uid})
        or (${table.account} = 'rewards' and ${table.platId} is null and ${table.uid} is null
            and ${table.accountCode} = 'rewards:' || ${table.userId})`,
    ),
    check(
      'corrections_status_check',
      sql`(${table.status} = 'pending' and ${table.decidedAt} is null and ${table.decidedBy} is null
            and ${table.journalId} is null and ${table.rejectionReason} is null)
        or (${table.status} = 'posted' and ${table.decidedAt} is not null and ${table.decidedBy} is not null
            and ${table.journalId} is not null and ${table.rejectionReason} is null)
        or (${table.status} = 'rejected' and ${table.decidedAt} is not null and ${table.decidedBy} is not null
            and ${table.journalId} is null and length(${table.rejectionReason}) > 0)`,
    ),
  ],
);

export type CorrectionRow = typeof corrections.$inferSelect;
export type NewCorrectionRow = typeof corrections.$inferInsert;
