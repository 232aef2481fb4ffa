import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables.js';
import { exchangeBindings } from '../bindings/bindings.tables.js';
import { exchanges } from '../exchanges/exchanges.tables.js';

export const INGEST_SOURCES = ['csv', 'api'] as const;
export type IngestSourceKind = (typeof INGEST_SOURCES)[number];

/**
 * The roster: UIDs that registered at an exchange with our referral code. Natural key (platId, uid):
 * the first report of a UID wins, later ones are "already known".
 */
export const referrals = pgTable(
  'referrals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    platId: integer('plat_id')
      .notNull()
      .references(() => exchanges.id),
    uid: text('uid').notNull(),
    registeredAt: timestamp('registered_at', { withTimezone: true }).notNull(),
    source: text('source').$type<IngestSourceKind>().notNull(),
    /** The file name or the adapter call that reported it. */
    sourceLabel: text('source_label').notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('referrals_plat_uid_unique').on(table.platId, table.uid),
    // The console's roster search by UID prefix, in byte order whatever the database's collation.
    index('referrals_plat_uid_bytes_idx').on(table.platId, sql`(${table.uid} collate "C")`),
    check('referrals_source_check', sql`${table.source} in ('csv', 'api')`),
  ],
);

export const REBATE_STATUS = ['pending', 'completed', 'failed'] as const;

/**
 * What an exchange reported for one UID and period, and what became of it. Natural key
 * (platId, uid, periodStart, periodEnd): importing the same period twice records it once.
 * Pending until settled; settling fills the rate applied and the amount (completed) or the reason
 * (failed) once: a trigger refuses any other change (migration 0007_ledger_append_only).
 */
export const rebates = pgTable(
  'rebates',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /**
     * The exchange that reported it. No foreign key since migration 0049: a key's check runs once per
     * stored row (about 5–10 µs a row each, 9–18 % of storing the million-line import's records); the
     * statement triggers `rebates_references_insert`/`_update` check the distinct exchanges a statement
     * names instead (and lock them `for key share`, as the key did), and `exchanges_keep_rebates`
     * refuses deleting or renumbering an exchange a record names. Both raise foreign_key_violation
     * naming the old constraint, `rebates_plat_id_exchanges_id_fk` (docs/decisions.md, "The
     * references of `rebates` checked once per statement").
     */
    platId: integer('plat_id').notNull(),
    uid: text('uid').notNull(),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    tradingVolumeMicro: bigint('trading_volume_micro', { mode: 'bigint' }).notNull(),
    feeMicro: bigint('fee_micro', { mode: 'bigint' }).notNull(),
    commissionMicro: bigint('commission_micro', { mode: 'bigint' }).notNull(),
    status: text('status').$type<(typeof REBATE_STATUS)[number]>().notNull().default('pending'),
    /** A message key: 'uidNotReferred', 'noCommission'. */
    failureReason: text('failure_reason'),
    /** The cash rate applied at settlement, basis points of the fee. */
    cashRateBps: integer('cash_rate_bps'),
    isSpeedUp: boolean('is_speed_up'),
    /** The member's cashback, set at settlement (completed). */
    amountMicro: bigint('amount_micro', { mode: 'bigint' }),
    source: text('source').$type<IngestSourceKind>().notNull(),
    sourceLabel: text('source_label').notNull(),
    /** When the exchange's figures arrived. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    /**
     * The `rebate` journal that credited it (completed with cashback): one journal per UID and
     * settlement page carries the sum of its records (docs/ledger.md), set with the outcome. No foreign
     * key since migration 0049 (see `platId`): the same statement triggers check the distinct journals
     * a statement names, raising foreign_key_violation as `rebates_journal_id_ledger_journals_id_fk`
     * did; nothing guards the journal's side, as journals are never updated, deleted or truncated
     * (migration 0007).
     */
    journalId: bigint('journal_id', { mode: 'number' }),
    /**
     * The figures file's import run that stored it (migration 0048): who imported a UID's figures is
     * read from it (read-models/own-imports.ts). Null for records of the exchanges' API, for the demo
     * seed, and for records stored before the migration. Not indexed: only read with a record found by
     * its UID, and every index slows the million-line import. No foreign key either: its check costs
     * about 7 µs a stored row (a fifth of the import's time per row); the run row is written first in the
     * import's own transaction and runs are never deleted (docs/decisions.md, "Records name their import
     * run").
     */
    importRunId: bigint('import_run_id', { mode: 'number' }),
  },
  (table) => [
    uniqueIndex('rebates_natural_key_unique').on(table.platId, table.uid, table.periodStart, table.periodEnd),
    // A member's records of a UID, newest period first, ties by id: the index's own order, so a page
    // stops after its rows whatever plan PostgreSQL keeps for the statement (migration 0031).
    index('rebates_plat_uid_period_end_id_idx').on(table.platId, table.uid, table.periodEnd, table.id),
    // Pending records by UID (migration 0031): a member's estimates read their own UID's, not every
    // pending record of the exchange; settlement numbers the due ones in this order.
    index('rebates_pending_uid_idx')
      .on(table.platId, table.uid, table.periodEnd)
      .where(sql`${table.status} = 'pending'`),
    // Records refused as 'uidNotReferred' settle again once their UID joins the roster (late rosters).
    index('rebates_unreferred_idx')
      .on(table.platId, table.uid)
      .where(sql`${table.status} = 'failed' and ${table.failureReason} = 'uidNotReferred'`),
    // Reconciliation: the commission received in a period, and the records still open, per exchange.
    index('rebates_created_idx').on(table.createdAt),
    index('rebates_open_idx')
      .on(table.platId, table.periodEnd, table.id)
      .where(sql`${table.status} <> 'completed'`),
    // The rebates export reads by trading day; the daily alert summary by arrival (rebates_created_idx).
    index('rebates_period_start_idx').on(table.periodStart, table.id),
    // ledger:check sums each journal's records; a journal's records for the console.
    index('rebates_journal_idx').on(table.journalId).where(sql`${table.journalId} is not null`),
    check('rebates_period_check', sql`${table.periodEnd} > ${table.periodStart}`),
    check(
      'rebates_amounts_check',
      sql`${table.tradingVolumeMicro} >= 0 and ${table.feeMicro} >= 0 and ${table.commissionMicro} >= 0`,
    ),
    check('rebates_source_check', sql`${table.source} in ('csv', 'api')`),
    check(
      'rebates_status_check',
      sql`(${table.status} = 'pending' and ${table.amountMicro} is null and ${table.settledAt} is null
            and ${table.failureReason} is null)
        or (${table.status} = 'completed' and ${table.amountMicro} between 0 and ${table.commissionMicro}
            and ${table.cashRateBps} is not null and ${table.settledAt} is not null
            and ${table.failureReason} is null)
        or (${table.status} = 'failed' and ${table.amountMicro} is null and ${table.settledAt} is not null
            and ${table.failureReason} is not null)`,
    ),
    // Cashback is credited when it is decided: a completed record with an amount names its journal.
    check(
      'rebates_journal_check',
      sql`(${table.journalId} is not null) = (${table.status} = 'completed' and ${table.amountMicro} > 0)`,
    ),
  ],
);

/**
 * What each UID's records add up to, per status, kept by statement triggers on `rebates` as records are
 * stored and settled (migration 0029_rebate_uid_totals), so a member's list counts its records, the
 * trading-volume task sums them and the detail page finds the last arrival without reading a heavy
 * trader's hundred thousand rows (issue 14). `ledger:check` proves they equal the records' aggregates.
 * `lastCreatedAt` is exact for the UID (the greatest over its statuses): a settled record leaves its
 * arrival behind in the pending row's figure.
 */
export const rebateUidTotals = pgTable(
  'rebate_uid_totals',
  {
    platId: integer('plat_id').notNull(),
    uid: text('uid').notNull(),
    status: text('status').$type<(typeof REBATE_STATUS)[number]>().notNull(),
    records: bigint('records', { mode: 'number' }).notNull(),
    /** Sum of the records' trading volume (micro-USDT); numeric: a sum of bigints may pass 2^63. */
    tradingVolumeMicro: numeric('trading_volume_micro').notNull(),
    lastCreatedAt: timestamp('last_created_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.platId, table.uid, table.status] })],
);

/**
 * Each UID's paid cashback per trading day (the UTC day its records' periods start), kept by statement
 * triggers on `rebates` as records are stored completed or settled (migration 0032_rebate_uid_days):
 * the binding detail's daily chart reads 90 rows, not a heavy trader's 24 records a day (issue 14).
 * Only completed records with an amount count; a completed record never changes (rebates_settle_once).
 * `ledger:check` proves the figures equal the records' sums.
 */
export const rebateUidDays = pgTable(
  'rebate_uid_days',
  {
    platId: integer('plat_id').notNull(),
    uid: text('uid').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    /** Numeric: a sum of bigints may pass 2^63. */
    amountMicro: numeric('amount_micro').notNull(),
  },
  (table) => [primaryKey({ columns: [table.platId, table.uid, table.day] })],
);

/**
 * Event rewards a member received (invite bonuses now; tasks and promotions later), paid by ledger
 * journals into `rewards:<userId>`. An invite bonus is once per rebate (unique kind + rebate); one
 * journal pays a member's invite bonuses of a settlement page, their sum (`journal_key`).
 */
export const eventRewards = pgTable(
  'event_rewards',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** A key the web translates: 'inviteBonus'. */
    kind: text('kind').notNull(),
    amountMicro: bigint('amount_micro', { mode: 'bigint' }).notNull(),
    /** The friend whose cashback earned an invite bonus. */
    sourceUserId: bigint('source_user_id', { mode: 'number' }).references(() => users.id),
    rebateId: bigint('rebate_id', { mode: 'number' }).references(() => rebates.id),
    /** INVITE_BONUS_PERCENT when it was booked. */
    bonusPercent: smallint('bonus_percent'),
    /**
     * The friend's binding whose records paid an invite bonus (null before 2026-11-28): the bonus waits
     * for that binding's ownership check, whatever becomes of the binding (docs/withdrawals.md).
     */
    bindingId: bigint('binding_id', { mode: 'number' }).references(() => exchangeBindings.id),
    /** When that binding's ownership hold ends, if the bonus was booked inside it (unconfirmed binding). */
    holdEndsAt: timestamp('hold_ends_at', { withTimezone: true }),
    /**
     * The ownership disputes open on the bonus's UID when it was booked, if any (null when none):
     * whatever the binding's age, a bonus booked while its UID is disputed waits for every one of them
     * to be decided (docs/withdrawals.md).
     */
    disputeIds: bigint('dispute_ids', { mode: 'number' }).array(),
    /** The ledger journal's idempotency key. */
    journalKey: text('journal_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('event_rewards_kind_rebate_unique').on(table.kind, table.rebateId),
    // One journal pays an inviter's bonuses of a settlement page: several rewards share its key.
    index('event_rewards_journal_key_idx').on(table.journalKey),
    index('event_rewards_user_created_idx').on(table.userId, table.createdAt, table.id),
    // A dispute's UID panel: the bonuses a holder's cashback paid since the binding (support.md).
    index('event_rewards_friend_bonus_idx')
      .on(table.sourceUserId, table.createdAt)
      .where(sql`${table.kind} = 'inviteBonus'`),
    // A dispute's bonuses (held-invite-bonuses.ts): few, so a partial index costs an import nothing.
    index('event_rewards_dispute_idx')
      .using('gin', table.disputeIds)
      .where(sql`${table.disputeIds} is not null`),
    check('event_rewards_amount_check', sql`${table.amountMicro} > 0`),
  ],
);

/**
 * What each friend's cashback has earned their inviter in invite bonuses, kept by a statement trigger
 * on `event_rewards` as settlement books them (migration 0033_invite_bonus_totals). myFriends reads a
 * page of friends' figures and the inviter's total here, not a busy inviter's ten thousand rewards
 * (issue 14). Event rewards are append-only, so the trigger only adds. `ledger:check` proves the
 * figures equal the rewards' sums.
 */
export const inviteBonusTotals = pgTable(
  'invite_bonus_totals',
  {
    inviterId: bigint('inviter_id', { mode: 'number' }).notNull(),
    friendId: bigint('friend_id', { mode: 'number' }).notNull(),
    /** Numeric: a sum of bigints may pass 2^63. */
    amountMicro: numeric('amount_micro').notNull(),
  },
  (table) => [primaryKey({ columns: [table.inviterId, table.friendId] })],
);

/**
 * What each friend's binding has paid each inviter in invite bonuses (`amount_micro`), the part booked
 * inside the binding's ownership hold (`held_micro`) and when that hold ends, kept by a statement
 * trigger on `event_rewards` (migration 0037). The withdrawable summary reads an inviter's bindings
 * still in their hold, and a dispute's bindings, here: summing a new whale inviter's ten thousand
 * bonuses on every call held `withdrawable` at a few hundred calls a second (issue 14). Bonuses booked
 * before 2026-11-28 name no binding and are not here (they are never held). `ledger:check` proves the
 * figures equal the rewards' sums.
 */
export const inviteBonusBindingTotals = pgTable(
  'invite_bonus_binding_totals',
  {
    bindingId: bigint('binding_id', { mode: 'number' }).notNull(),
    inviterId: bigint('inviter_id', { mode: 'number' }).notNull(),
    amountMicro: numeric('amount_micro').notNull(),
    heldMicro: numeric('held_micro').notNull(),
    /**
     * The binding's hold end, when some bonus was booked inside it: the same for all of them (`bound_at`
     * plus the hold); were the hold's length changed meanwhile, the latest, which holds more, not less.
     */
    holdEndsAt: timestamp('hold_ends_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.bindingId, table.inviterId] }),
    // An inviter's bindings whose hold may not have ended (held-invite-bonuses.ts).
    index('invite_bonus_binding_totals_held_idx').on(table.inviterId, table.holdEndsAt),
  ],
);

/**
 * How many event rewards each member has, kept by a statement trigger on `event_rewards` (migration
 * 0034_event_reward_counts): seeRewardData's count for a busy inviter was a scan of ten thousand
 * rewards on every page (issue 14). Rewards are append-only, so the trigger only adds; `ledger:check`
 * proves the counts.
 */
export const eventRewardCounts = pgTable('event_reward_counts', {
  userId: bigint('user_id', { mode: 'number' }).primaryKey(),
  rewards: bigint('rewards', { mode: 'number' }).notNull(),
});

export type ReferralRow = typeof referrals.$inferSelect;
export type RebateRow = typeof rebates.$inferSelect;
export type EventRewardRow = typeof eventRewards.$inferSelect;
