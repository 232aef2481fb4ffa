import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { bytea } from '../../db/column-types.js';
import { users } from '../auth/auth.tables.js';
import { exchangeBindings } from '../bindings/bindings.tables.js';
import { exchanges } from '../exchanges/exchanges.tables.js';

/**
 * Support requests and UID disputes (docs/support.md). A request of kind 'uidBoundByOther' that is not
 * closed freezes its UID's money: the partial index finds it by (platId, uid).
 */
export const supportRequests = pgTable(
  'support_requests',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    kind: text('kind').notNull(),
    platId: integer('plat_id').references(() => exchanges.id),
    uid: text('uid'),
    /** A dispute's claimant: the Polygon address the UID's withdrawals go to if it is moved to them. */
    address: text('address'),
    /**
     * A dispute's: the binding of the UID live when it was opened (null before 2026-11-29), the holder
     * its evidence is about: the only one its decision may confirm.
     */
    bindingId: bigint('binding_id', { mode: 'number' }).references(() => exchangeBindings.id),
    status: text('status').notNull(),
    resolution: text('resolution'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** The operator who closed it (moved, verified or closed). */
    closedBy: bigint('closed_by', { mode: 'number' }).references(() => users.id),
  },
  (table) => [
    index('support_requests_user_idx').on(table.userId, table.updatedAt),
    index('support_requests_status_idx').on(table.status, table.updatedAt),
    index('support_requests_open_disputes_idx')
      .on(table.platId, table.uid)
      .where(sql`${table.kind} = 'uidBoundByOther' and ${table.status} <> 'closed'`),
    // Decided disputes: the invite bonuses of a binding that ended meanwhile wait a while more
    // (read-models/held-invite-bonuses.ts).
    index('support_requests_decided_disputes_idx')
      .on(table.closedAt)
      .where(sql`${table.kind} = 'uidBoundByOther' and ${table.closedAt} is not null`),
    check('support_requests_status_check', sql`${table.status} in ('open', 'answered', 'closed')`),
    check(
      'support_requests_kind_check',
      sql`${table.kind} in ('uidBoundByOther', 'ownership', 'missingCashback', 'withdrawal', 'account', 'other')`,
    ),
    check(
      'support_requests_closed_check',
      sql`(${table.status} = 'closed') = (${table.closedAt} is not null and ${table.resolution} is not null)`,
    ),
  ],
);

/** Images members attach (screenshots), readable only by their member and operators. */
export const supportImages = pgTable(
  'support_images',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    requestId: bigint('request_id', { mode: 'number' })
      .notNull()
      .references(() => supportRequests.id),
    contentType: text('content_type').notNull(),
    /** Null once housekeeping erased it, a year after its request closed; the row stays a receipt. */
    bytes: bytea('bytes'),
    sizeBytes: integer('size_bytes').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    erasedAt: timestamp('erased_at', { withTimezone: true }),
  },
  (table) => [
    check(
      'support_images_type_check',
      sql`${table.contentType} in ('image/png', 'image/jpeg', 'image/webp')`,
    ),
    check('support_images_erased_check', sql`(${table.bytes} is null) = (${table.erasedAt} is not null)`),
    // Housekeeping's walk: the images still held, by request.
    index('support_images_held_idx').on(table.requestId).where(sql`${table.erasedAt} is null`),
  ],
);

/** The thread of a request: the member's messages and the operators' answers, oldest first. */
export const supportMessages = pgTable(
  'support_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    requestId: bigint('request_id', { mode: 'number' })
      .notNull()
      .references(() => supportRequests.id),
    author: text('author').notNull(),
    /** The operator who wrote it (author 'operator'). */
    operatorId: bigint('operator_id', { mode: 'number' }).references(() => users.id),
    text: text('text').notNull(),
    imageId: bigint('image_id', { mode: 'number' }).references(() => supportImages.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('support_messages_request_idx').on(table.requestId, table.id),
    check(
      'support_messages_author_check',
      sql`(${table.author} = 'member' and ${table.operatorId} is null)
        or (${table.author} = 'operator' and ${table.operatorId} is not null)`,
    ),
  ],
);

export type SupportRequestRow = typeof supportRequests.$inferSelect;
export type SupportMessageRow = typeof supportMessages.$inferSelect;
