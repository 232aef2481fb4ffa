import { and, count, desc, eq, gt, inArray, or } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import {
  type CorrectionAccountValue,
  type CorrectionRow,
  corrections,
  type NewCorrectionRow,
} from './corrections.tables.js';

/** The corrections module's queries; every function accepts the database or an open transaction. */

export async function insertCorrection(tx: Executor, row: NewCorrectionRow): Promise<CorrectionRow> {
  const [inserted] = await tx.insert(corrections).values(row).returning();
  if (!inserted) throw new Error('the correction was not inserted');
  return inserted;
}

/** The correction, locked until the transaction ends: of two racing decisions the second waits, then sees the first's. */
export async function lockCorrection(tx: Executor, id: number): Promise<CorrectionRow | undefined> {
  const [row] = await tx.select().from(corrections).where(eq(corrections.id, id)).for('update');
  return row;
}

export async function decideCorrection(
  tx: Executor,
  id: number,
  decision: Pick<
    CorrectionRow,
    'status' | 'decidedById' | 'decidedBy' | 'decidedAt' | 'rejectionReason' | 'journalId'
  >,
): Promise<CorrectionRow> {
  const [row] = await tx
    .update(corrections)
    .set(decision)
    .where(and(eq(corrections.id, id), eq(corrections.status, 'pending')))
    .returning();
  if (!row) throw new Error(`correction ${id} was not pending`);
  return row;
}

/** An account the member sees adjustments of, from a moment on (a UID taken over after a deletion). */
export interface VisibleAccount {
  code: string;
  from: Date | null;
}

/** Posted corrections of these accounts, newest first. */
export async function selectPostedPage(
  db: Executor,
  accounts: readonly VisibleAccount[],
  kind: CorrectionAccountValue | undefined,
  page: { offset: number; limit: number },
): Promise<{ rows: CorrectionRow[]; total: number }> {
  if (accounts.length === 0) return { rows: [], total: 0 };
  const whole = accounts.filter((account) => account.from === null).map((account) => account.code);
  const visible = or(
    ...(whole.length > 0 ? [inArray(corrections.accountCode, whole)] : []),
    ...accounts
      .filter((account) => account.from !== null)
      .map((account) =>
        and(eq(corrections.accountCode, account.code), gt(corrections.decidedAt, account.from as Date)),
      ),
  );
  const where = and(
    eq(corrections.status, 'posted'),
    visible,
    kind ? eq(corrections.account, kind) : undefined,
  );
  const [totalRow] = await db.select({ value: count() }).from(corrections).where(where);
  const rows = await db
    .select()
    .from(corrections)
    .where(where)
    .orderBy(desc(corrections.decidedAt), desc(corrections.id))
    .offset(page.offset)
    .limit(page.limit);
  return { rows, total: totalRow?.value ?? 0 };
}
