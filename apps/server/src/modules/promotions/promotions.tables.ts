import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables.js';

/**
 * The exclusive sign-up codes (`encr`, issue 11) operators create in the console. A registration uses
 * one by raising `signups` with a conditional UPDATE in its own transaction, which also holds the cap.
 */
export const promotionCodes = pgTable(
  'promotion_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Upper-cased: codes compare case-insensitively. */
    code: text('code').notNull(),
    /** What the code is for (campaign, partner, channel): for operators only. */
    note: text('note').notNull().default(''),
    /** The operator who created it; null for the codes the migration recorded. */
    createdById: bigint('created_by_id', { mode: 'number' }).references(() => users.id),
    /** The operator's e-mail at the time, or 'migration'. */
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** When the code stops working (the start of the UTC day after its last valid day); null: never. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** How many sign-ups it may give; null: no cap. */
    maxUses: integer('max_uses'),
    /** Registrations that used it. Never lowered: an account deleted later still used it. */
    signups: integer('signups').notNull().default(0),
    /** Set while an operator has disabled it. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('promotion_codes_code_unique').on(table.code),
    check('promotion_codes_code_upper_check', sql`${table.code} = upper(${table.code})`),
    check('promotion_codes_max_uses_check', sql`${table.maxUses} is null or ${table.maxUses} > 0`),
    // The cap holds in the database too, whatever a caller does.
    check(
      'promotion_codes_signups_check',
      sql`${table.signups} >= 0 and (${table.maxUses} is null or ${table.signups} <= ${table.maxUses})`,
    ),
  ],
);

export type PromotionCodeRow = typeof promotionCodes.$inferSelect;
export type NewPromotionCode = typeof promotionCodes.$inferInsert;
