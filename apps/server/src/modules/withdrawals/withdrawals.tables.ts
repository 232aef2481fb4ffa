import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
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

/** spec: under review (pending), failed, completed; and cancelled by the member while under review. */
export const WITHDRAWAL_STATUS = ['pending', 'completed', 'failed', 'cancelled'] as const;
export type WithdrawalStatusValue = (typeof WITHDRAWAL_STATUS)[number];

/**
 * Who decided: an operator in the console, an operator at the command line, the member (cancel), or
 * the payout fast lane completing what it sent without review (docs/withdrawals.md "Fast lane").
 */
export const DECIDED_VIA = ['console', 'cli', 'member', 'auto'] as const;
export type DecidedVia = (typeof DECIDED_VIA)[number];

/**
 * A member's request to send USDT on Polygon (docs/withdrawals.md). The money itself is in the ledger:
 * the request moves `amount` from the UID's cashback and the member's rewards to `hold:<id>` (the two
 * parts are kept here so a rejection returns each exactly), payment moves the hold to `payout`, a
 * rejection or cancellation moves it back.
 *
 * A row is decided once: only a pending row changes, only its decision fields change, and nothing is
 * deleted (trigger withdrawals_decide_once, migration 0011). (user_id, request_id) makes a retried
 * request create one withdrawal.
 */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** Made once per form by the page: a retried click sends it again. */
    requestId: uuid('request_id').notNull(),
    platId: integer('plat_id')
      .notNull()
      .references(() => exchanges.id),
    uid: text('uid').notNull(),
    /** The receiving Polygon address, EIP-55 checksummed, as confirmed with the e-mail code. */
    address: text('address').notNull(),
    amountMicro: bigint('amount_micro', { mode: 'bigint' }).notNull(),
    /** The part taken from `cashback:<platId>:<uid>` (drawn first). */
    cashbackMicro: bigint('cashback_micro', { mode: 'bigint' }).notNull(),
    /** The part taken from `rewards:<userId>`. */
    rewardsMicro: bigint('rewards_micro', { mode: 'bigint' }).notNull(),
    status: text('status').$type<WithdrawalStatusValue>().notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** The operator who decided (console); null from the command line or for the member's cancel. */
    decidedBy: bigint('decided_by', { mode: 'number' }).references(() => users.id),
    decidedVia: text('decided_via').$type<DecidedVia>(),
    /** The payout transaction on Polygon (completed), lower-case. */
    txHash: text('tx_hash'),
    /** The operator's reason (failed). */
    failureReason: text('failure_reason'),
  },
  (table) => [
    uniqueIndex('withdrawals_user_request_unique').on(table.userId, table.requestId),
    // One payout transaction pays one withdrawal: a hash entered twice is a mistake, never a second payment.
    uniqueIndex('withdrawals_tx_hash_unique').on(table.txHash),
    index('withdrawals_user_created_idx').on(table.userId, table.createdAt, table.id),
    index('withdrawals_status_created_idx').on(table.status, table.createdAt, table.id),
    // Exports and the daily alert summary read every status by day.
    index('withdrawals_created_idx').on(table.createdAt, table.id),
    check(
      'withdrawals_amount_check',
      sql`${table.amountMicro} > 0 and ${table.cashbackMicro} >= 0 and ${table.rewardsMicro} >= 0
        and ${table.cashbackMicro} + ${table.rewardsMicro} = ${table.amountMicro}`,
    ),
    check('withdrawals_address_check', sql`${table.address} ~ '^0x[0-9a-fA-F]{40}$'`),
    check(
      'withdrawals_status_check',
      sql`(${table.status} = 'pending' and ${table.decidedAt} is null and ${table.decidedVia} is null
            and ${table.decidedBy} is null and ${table.txHash} is null and ${table.failureReason} is null)
        or (${table.status} = 'completed' and ${table.decidedAt} is not null and ${table.decidedVia} in ('console', 'cli', 'auto')
            and ${table.txHash} ~ '^0x[0-9a-f]{64}$' and ${table.failureReason} is null)
        or (${table.status} = 'failed' and ${table.decidedAt} is not null and ${table.decidedVia} in ('console', 'cli')
            and ${table.txHash} is null and length(${table.failureReason}) > 0)
        or (${table.status} = 'cancelled' and ${table.decidedAt} is not null and ${table.decidedVia} = 'member'
            and ${table.decidedBy} is null and ${table.txHash} is null and ${table.failureReason} is null)`,
    ),
  ],
);

export type WithdrawalRow = typeof withdrawals.$inferSelect;
export type NewWithdrawalRow = typeof withdrawals.$inferInsert;
