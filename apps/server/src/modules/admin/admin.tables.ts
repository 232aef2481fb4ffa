import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { bytea } from '../../db/column-types.js';
import type { Explained } from '../../lib/reasons.js';
import { users } from '../auth/auth.tables.js';
import { exchanges } from '../exchanges/exchanges.tables.js';

/**
 * The operator console (docs/operator-console.md): who may use it, what every operator did, CSV
 * uploads and the logos operators uploaded.
 */

/** A member who may use the operator console. Granted and revoked with `npm run ops -- admin:grant`. */
export const operators = pgTable('operators', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id),
  grantedAt: timestamp('granted_at', { withTimezone: true }).notNull(),
  /** Who granted it: an operator's e-mail, 'bootstrap:cli:<os user>' for the first, or (older rows) 'cli:<os user>'. */
  grantedBy: text('granted_by').notNull(),
});

/**
 * Every operator action: who, what, when, the state before and after. Append-only: a trigger
 * refuses UPDATE, DELETE and TRUNCATE (migration 0010_admin). Written in the action's transaction
 * where the action runs in one.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** The operator's user id; null for a command-line action. */
    actorId: bigint('actor_id', { mode: 'number' }).references(() => users.id),
    /** The operator's e-mail at the time, or 'bootstrap:cli:<os user>' / (older rows) 'cli:<os user>': readable even after an account is gone. */
    actor: text('actor').notNull(),
    /** What was done: 'withdrawal.approve', 'binding.unbind', 'exchange.update' ... */
    action: text('action').notNull(),
    /** What it was done to: 'withdrawal:12', 'binding:4:UID123', 'exchange:3', 'user:9' ... */
    target: text('target').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    /** The HTTP request's id (x-request-id), to find the request in the logs. */
    requestId: text('request_id'),
  },
  (table) => [
    index('audit_log_at_idx').on(table.at, table.id),
    index('audit_log_action_idx').on(table.action, table.at),
    index('audit_log_target_idx').on(table.target, table.at),
  ],
);

export const IMPORT_KINDS = ['referrals', 'rebates'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];
export const IMPORT_STATUSES = ['succeeded', 'rejected', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** One CSV upload from the console and what became of it (sync runs are in sync_runs). */
export const importRuns = pgTable(
  'import_runs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').$type<ImportKind>().notNull(),
    platId: integer('plat_id')
      .notNull()
      .references(() => exchanges.id),
    fileName: text('file_name').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    operatorId: bigint('operator_id', { mode: 'number' }).references(() => users.id),
    status: text('status').$type<ImportStatus>().notNull(),
    rowCount: integer('row_count').notNull().default(0),
    inserted: integer('inserted').notNull().default(0),
    /** Rows already known (roster) or already imported (figures). */
    duplicates: integer('duplicates').notNull().default(0),
    settledCompleted: integer('settled_completed').notNull().default(0),
    settledFailed: integer('settled_failed').notNull().default(0),
    creditedMicro: bigint('credited_micro', { mode: 'bigint' }).notNull().default(sql`0`),
    problemCount: integer('problem_count').notNull().default(0),
    /** The first problems ({line, field, reason}), at most IMPORT_PROBLEMS_KEPT; `problemCount` counts all. */
    problems: jsonb('problems').$type<Array<{ line: number; field: string } & Explained>>(),
    /** An unexpected fault's message. */
    error: text('error'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('import_runs_started_idx').on(table.startedAt, table.id),
    check('import_runs_kind_check', sql`${table.kind} in ('referrals', 'rebates')`),
    check('import_runs_status_check', sql`${table.status} in ('succeeded', 'rejected', 'failed')`),
  ],
);

/**
 * Files operators uploaded (exchange logos), named by the SHA-256 of their content: the URL
 * `/media/<sha256>.<ext>` never changes meaning, so it is cached for good. In the database rather
 * than DATA_DIR so every instance serves it.
 */
export const mediaFiles = pgTable(
  'media_files',
  {
    sha256: text('sha256').primaryKey(),
    contentType: text('content_type').notNull(),
    bytes: bytea('bytes').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    uploadedBy: bigint('uploaded_by', { mode: 'number' }).references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    check(
      'media_files_type_check',
      sql`${table.contentType} in ('image/svg+xml', 'image/png', 'image/webp')`,
    ),
    check('media_files_sha256_check', sql`${table.sha256} ~ '^[0-9a-f]{64}$'`),
  ],
);

export type OperatorRow = typeof operators.$inferSelect;
export type AuditLogRow = typeof auditLog.$inferSelect;
export type ImportRunRow = typeof importRuns.$inferSelect;
export type MediaFileRow = typeof mediaFiles.$inferSelect;
