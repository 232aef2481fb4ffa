import { and, eq, gte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type CorrectionRow, corrections, type NewCorrectionRow } from './corrections.tables.js';

/** The corrections module's queries; every function accepts the database or an open transaction. */

export async function insertCorrection(tx: Executor, row: NewCorrectionRow): Promise<CorrectionRow> {
  const [inserted] = await tx.insert(corrections).values(row).returning();
  if (!inserted) throw new Error('the correction was not inserted');
  return inserted;
}

/** The correction a proposer made with this request id (a click sent again), if any. */
export async function findByRequest(
  db: Executor,
  proposedBy: string,
  requestId: string,
): Promise<CorrectionRow | undefined> {
  const [row] = await db
    .select()
    .from(corrections)
    .where(and(eq(corrections.proposedBy, proposedBy), eq(corrections.requestId, requestId)))
    .limit(1);
  return row;
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

/**
 * What one operator booked for one member without a second operator since `since`: the sum of the
 * absolute amounts of their corrections that posted at once.
 */
export async function sumPostedAtOnceSince(
  db: Executor,
  query: { userId: number; proposedById: number; since: Date },
): Promise<bigint> {
  const [row] = await db
    .select({ micro: sql<string>`coalesce(sum(abs(${corrections.amountMicro})), 0)::text` })
    .from(corrections)
    .where(
      and(
        eq(corrections.userId, query.userId),
        eq(corrections.proposedById, query.proposedById),
        eq(corrections.needsApproval, false),
        eq(corrections.status, 'posted'),
        gte(corrections.proposedAt, query.since),
      ),
    );
  return BigInt(row?.micro ?? '0');
}
