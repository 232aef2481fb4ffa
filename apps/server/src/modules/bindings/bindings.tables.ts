import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables.js';
import { exchanges } from '../exchanges/exchanges.tables.js';

/**
 * A member's exchange UIDs. A UID belongs to one member at a time: the partial unique index on
 * (platId, uid) among live bindings decides a race of two members in the database. Unbinding keeps
 * the row (unbound_at, reason, operator); the UID's cashback stays on its ledger account until the
 * UID is bound again.
 */
export const exchangeBindings = pgTable(
  'exchange_bindings',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    platId: integer('plat_id')
      .notNull()
      .references(() => exchanges.id),
    uid: text('uid').notNull(),
    /** The Polygon address that receives this UID's withdrawals, EIP-55 checksummed. */
    address: text('address').notNull(),
    boundAt: timestamp('bound_at', { withTimezone: true }).notNull(),
    unboundAt: timestamp('unbound_at', { withTimezone: true }),
    unbindReason: text('unbind_reason'),
    /** The operator who unbound it. */
    unboundBy: bigint('unbound_by', { mode: 'number' }).references(() => users.id),
    /**
     * When an operator confirmed that the member owns the UID (support request evidence); until then,
     * or until OWNERSHIP.holdDays after bound_at, the binding's money cannot be withdrawn.
     */
    ownershipVerifiedAt: timestamp('ownership_verified_at', { withTimezone: true }),
    ownershipVerifiedBy: bigint('ownership_verified_by', { mode: 'number' }).references(() => users.id),
  },
  (table) => [
    uniqueIndex('exchange_bindings_live_uid_unique')
      .on(table.platId, table.uid)
      .where(sql`${table.unboundAt} is null`),
    index('exchange_bindings_user_idx').on(table.userId, table.boundAt),
    // Where a holder's history starts (an earlier holder's deletion, historyFrom): read by every member
    // call that lists the member's bindings; without it each binding scans every unbound one.
    index('exchange_bindings_plat_uid_idx').on(table.platId, table.uid, table.unboundAt),
  ],
);

/**
 * The member's XME account (bindXmeUid), one per member and one member per XME account. `locked_at`
 * is set when the account earns the binding task: from then on the member cannot swap it, so it is
 * never freed for another member to bind and claim with.
 */
export const xmeBindings = pgTable(
  'xme_bindings',
  {
    userId: bigint('user_id', { mode: 'number' })
      .primaryKey()
      .references(() => users.id),
    xmeUid: text('xme_uid').notNull(),
    boundAt: timestamp('bound_at', { withTimezone: true }).notNull(),
    lockedAt: timestamp('locked_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('xme_bindings_xme_uid_unique').on(table.xmeUid),
    // An XME id is one account in any letter case: binding looks its holder up by lower(xme_uid)
    // (findXmeHolder), and so does the task payouts' notify trigger (migration 0058). Without this
    // index both read every XME binding (migration 0060).
    index('xme_bindings_xme_uid_lower_idx').on(sql`lower(${table.xmeUid})`),
  ],
);

/**
 * A member who tried to bind a UID that the exchange's roster does not list yet (an exchange fed by
 * CSV or sync, where a new account can take CASHBACK.rosterDelayHours to appear): when the UID joins
 * the roster, the member is mailed once (`notified_at`).
 */
export const uidWatches = pgTable(
  'uid_watches',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    platId: integer('plat_id')
      .notNull()
      .references(() => exchanges.id),
    uid: text('uid').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.platId, table.uid] }),
    index('uid_watches_waiting_idx').on(table.platId, table.uid).where(sql`${table.notifiedAt} is null`),
  ],
);

export type ExchangeBindingRow = typeof exchangeBindings.$inferSelect;
