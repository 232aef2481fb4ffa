import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Mails waiting to be sent, written in the same transaction as the change they report (architecture:
 * every write that must not be lost goes through an outbox). The recipient and the template parameters
 * (a code, a date) are one AES-256-GCM payload, erased after a successful send: the table never holds
 * a code or an address in clear.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    template: text('template').notNull(),
    locale: text('locale').notNull(),
    /** Encrypted `{ to, params }`; null once sent. */
    payload: text('payload'),
    /** The member the mail concerns, when there is one (a register code has none). */
    userId: bigint('user_id', { mode: 'number' }),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    /** A worker's lease: another instance skips the row until it passes. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    index('mail_outbox_due_idx').on(table.status, table.nextAttemptAt),
    check('mail_outbox_status_check', sql`${table.status} in ('pending', 'sent', 'failed')`),
  ],
);

export type MailOutboxRow = typeof mailOutbox.$inferSelect;
