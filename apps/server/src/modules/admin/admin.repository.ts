import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import {
  type AuditLogRow,
  auditLog,
  type ImportRunRow,
  importRuns,
  type MediaFileRow,
  mediaFiles,
  operators,
} from './admin.tables.js';

/** The admin module's own tables: operators, the audit log, import runs and uploaded media. */

export type NewAuditEntry = Omit<typeof auditLog.$inferInsert, 'id'>;
export type NewImportRun = Omit<typeof importRuns.$inferInsert, 'id'>;
export type NewMediaFile = typeof mediaFiles.$inferInsert;

export async function findOperatorRow(db: Executor, userId: number) {
  const [row] = await db.select().from(operators).where(eq(operators.userId, userId)).limit(1);
  return row;
}

/** The role's row held `FOR KEY SHARE`: a revocation (it deletes the row) waits for the transaction. */
export async function holdOperatorRow(db: Executor, userId: number) {
  const [row] = await db
    .select({ userId: operators.userId })
    .from(operators)
    .where(eq(operators.userId, userId))
    .for('key share');
  return row;
}

/**
 * Serialises first grants: two bootstraps on an empty database would otherwise both see no operator
 * and both grant (held until the transaction ends).
 */
export async function lockOperatorBootstrap(tx: Executor): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('operators|bootstrap', 0))`);
}

/** Grants the role unless held; answers whether it was granted now. */
export async function insertOperatorUnlessPresent(
  tx: Executor,
  row: { userId: number; grantedAt: Date; grantedBy: string },
): Promise<boolean> {
  const inserted = await tx
    .insert(operators)
    .values(row)
    .onConflictDoNothing({ target: operators.userId })
    .returning({ userId: operators.userId });
  return inserted.length > 0;
}

export async function deleteOperatorRow(tx: Executor, userId: number) {
  const [row] = await tx.delete(operators).where(eq(operators.userId, userId)).returning();
  return row;
}

export async function insertAuditRow(tx: Executor, entry: NewAuditEntry): Promise<AuditLogRow> {
  const [row] = await tx.insert(auditLog).values(entry).returning();
  if (!row) throw new Error('audit row not written');
  return row;
}

export async function selectAuditPage(
  db: Executor,
  filter: { action?: string | undefined; target?: string | undefined; page: number; pageSize: number },
): Promise<{ rows: AuditLogRow[]; total: number }> {
  const where = and(
    filter.action ? eq(auditLog.action, filter.action) : undefined,
    filter.target ? eq(auditLog.target, filter.target) : undefined,
  );
  const rows = await db
    .select()
    .from(auditLog)
    .where(where)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(filter.pageSize)
    .offset((filter.page - 1) * filter.pageSize);
  const [total] = await db.select({ value: count() }).from(auditLog).where(where);
  return { rows, total: total?.value ?? 0 };
}

/** Who the audit log says acted on each of these targets (the first entry of each). */
export async function selectAuditActors(
  db: Executor,
  targets: readonly string[],
): Promise<Map<string, string>> {
  if (targets.length === 0) return new Map();
  const rows = await db
    .select({ target: auditLog.target, actor: auditLog.actor })
    .from(auditLog)
    .where(inArray(auditLog.target, [...targets]))
    .orderBy(auditLog.id);
  const actors = new Map<string, string>();
  for (const row of rows) if (!actors.has(row.target)) actors.set(row.target, row.actor);
  return actors;
}

export async function insertImportRunRow(tx: Executor, run: NewImportRun): Promise<ImportRunRow> {
  const [row] = await tx.insert(importRuns).values(run).returning();
  if (!row) throw new Error('import run not written');
  return row;
}

/** Writes the outcome onto a run opened earlier in this transaction (`insertImportRunRow`). */
export async function updateImportRunRow(tx: Executor, id: number, run: NewImportRun): Promise<ImportRunRow> {
  const [row] = await tx.update(importRuns).set(run).where(eq(importRuns.id, id)).returning();
  if (!row) throw new Error(`import run ${id} not found`);
  return row;
}

export async function selectImportRunPage(
  db: Executor,
  page: { page: number; pageSize: number },
): Promise<{ rows: ImportRunRow[]; total: number }> {
  const rows = await db
    .select()
    .from(importRuns)
    .orderBy(desc(importRuns.startedAt), desc(importRuns.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  const [total] = await db.select({ value: count() }).from(importRuns);
  return { rows, total: total?.value ?? 0 };
}

/** Stores a file once per content (the SHA-256 is its name). */
export async function insertMediaUnlessPresent(tx: Executor, file: NewMediaFile): Promise<void> {
  await tx.insert(mediaFiles).values(file).onConflictDoNothing({ target: mediaFiles.sha256 });
}

export async function findMediaRow(db: Executor, sha256: string): Promise<MediaFileRow | undefined> {
  const [row] = await db.select().from(mediaFiles).where(eq(mediaFiles.sha256, sha256)).limit(1);
  return row;
}
