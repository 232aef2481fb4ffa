import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * A member. The row outlives the account: deletion erases the personal fields (email, password hash,
 * marketing flag) and keeps the id so money records stay linked, anonymised.
 */
export const users = pgTable(
  'users',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Lower-cased; null once the account is deleted. */
    email: text('email'),
    /** argon2id PHC string; null once the account is deleted. */
    passwordHash: text('password_hash'),
    userCode: text('user_code').notNull(),
    inviteCode: text('invite_code').notNull(),
    inviterId: bigint('inviter_id', { mode: 'number' }).references((): AnyPgColumn => users.id),
    marketingConsent: boolean('marketing_consent').notNull().default(false),
    /** The language of the last login or registration: mails sent later (a withdrawal result) use it. */
    locale: text('locale').notNull().default('en'),
    /** The exclusive sign-up code used at registration; its grant is once per account. */
    signupEncr: text('signup_encr'),
    /** spec: withdrawal restricted 72 hours after a password change or reset. */
    withdrawalLockedUntil: timestamp('withdrawal_locked_until', { withTimezone: true }),
    /**
     * issue 12: an operator's suspension: no login, no withdrawal, until reinstated. The reason is
     * shown to the member on a refused login; who and when are also in the audit log.
     */
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    suspensionReason: text('suspension_reason'),
    suspendedBy: bigint('suspended_by', { mode: 'number' }).references((): AnyPgColumn => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('users_email_unique').on(table.email),
    uniqueIndex('users_user_code_unique').on(table.userCode),
    uniqueIndex('users_invite_code_unique').on(table.inviteCode),
    index('users_inviter_id_idx').on(table.inviterId),
    // Exports and the daily alert summary read members by registration day.
    index('users_created_idx').on(table.createdAt, table.id),
    // E-mails compare case-insensitively because they are stored lower-cased; the database holds the line.
    check('users_email_lower_check', sql`${table.email} = lower(${table.email})`),
    check(
      'users_suspension_check',
      sql`(${table.suspendedAt} is null) = (${table.suspensionReason} is null)`,
    ),
    index('users_suspended_idx').on(table.suspendedAt).where(sql`${table.suspendedAt} is not null`),
    // The console's member search finds text anywhere in an e-mail (`ilike '%…%'`): trigrams serve it
    // (migration 0062 creates pg_trgm; PGlite loads it, db/embedded.ts).
    index('users_email_trgm_idx').using('gin', table.email.op('gin_trgm_ops')),
  ],
);

/** A login. Only the SHA-256 of the token is stored, so a database leak yields no usable session. */
export const sessions = pgTable(
  'sessions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('sessions_token_hash_unique').on(table.tokenHash),
    index('sessions_user_id_idx').on(table.userId),
  ],
);

/**
 * E-mailed one-time codes. The e-mail and the requester's IP are kept as keyed hashes and the code as
 * HMAC(APP_SECRET, email|module|code): the table holds nothing a reader could use or link to a person.
 * The caps (per e-mail, per IP) are counted from here so they hold across instances.
 */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    emailHash: text('email_hash').notNull(),
    module: smallint('module').notNull(),
    codeHash: text('code_hash').notNull(),
    ipHash: text('ip_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (table) => [
    index('verification_codes_email_module_idx').on(table.emailHash, table.module, table.id),
    index('verification_codes_email_created_idx').on(table.emailHash, table.createdAt),
    index('verification_codes_ip_created_idx').on(table.ipHash, table.createdAt),
    index('verification_codes_created_idx').on(table.createdAt),
  ],
);

/** spec: the e-mail of a deleted account cannot register again; kept only as HMAC(APP_SECRET, email). */
export const deletedEmails = pgTable('deleted_emails', {
  emailHash: text('email_hash').primaryKey(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull(),
});

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type VerificationCodeRow = typeof verificationCodes.$inferSelect;
