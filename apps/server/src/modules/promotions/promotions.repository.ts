import { and, count, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { nextVersion } from '../../db/row-version.js';
import { type NewPromotionCode, type PromotionCodeRow, promotionCodes } from './promotions.tables.js';

export async function findPromotionCodeByCode(
  db: Executor,
  code: string,
): Promise<PromotionCodeRow | undefined> {
  const [row] = await db.select().from(promotionCodes).where(eq(promotionCodes.code, code)).limit(1);
  return row;
}

/**
 * The row held until the transaction ends: a registration using the code waits, and an operator's
 * change checks its version under it. FOR NO KEY UPDATE, as for the other versioned rows: nothing
 * references a code's key (a member keeps the code's text), and a registration's count is an UPDATE
 * that waits for this lock all the same.
 */
export async function findPromotionCodeForUpdate(
  tx: Executor,
  id: number,
): Promise<PromotionCodeRow | undefined> {
  const [row] = await tx
    .select()
    .from(promotionCodes)
    .where(eq(promotionCodes.id, id))
    .limit(1)
    .for('no key update');
  return row;
}

/**
 * Counts one sign-up, only while the code is enabled, not expired and under its cap, in one
 * statement: concurrent registrations queue on the row lock and each sees the count the previous one
 * committed, so a cap of N gives exactly N. Answers the row, or undefined when the code cannot be used.
 */
export async function countSignup(
  tx: Executor,
  code: string,
  now: Date,
): Promise<PromotionCodeRow | undefined> {
  const [row] = await tx
    .update(promotionCodes)
    .set({ signups: sql`${promotionCodes.signups} + 1` })
    .where(
      and(
        eq(promotionCodes.code, code),
        isNull(promotionCodes.disabledAt),
        or(isNull(promotionCodes.expiresAt), gt(promotionCodes.expiresAt, now)),
        or(isNull(promotionCodes.maxUses), lt(promotionCodes.signups, promotionCodes.maxUses)),
      ),
    )
    .returning();
  return row;
}

/** Inserts a code unless one with the same code exists (answers undefined then). */
export async function insertPromotionCode(
  tx: Executor,
  values: NewPromotionCode,
): Promise<PromotionCodeRow | undefined> {
  const [row] = await tx
    .insert(promotionCodes)
    .values(values)
    .onConflictDoNothing({ target: promotionCodes.code })
    .returning();
  return row;
}

/** An operator's change: moves the code's version (`updatedAt`), a sign-up's count does not. */
export async function updatePromotionCodeRow(
  tx: Executor,
  id: number,
  patch: Partial<Pick<NewPromotionCode, 'note' | 'expiresAt' | 'maxUses' | 'disabledAt'>>,
  at: Date,
): Promise<PromotionCodeRow> {
  const [row] = await tx
    .update(promotionCodes)
    .set({ ...patch, updatedAt: nextVersion(promotionCodes.updatedAt, at) })
    .where(eq(promotionCodes.id, id))
    .returning();
  if (!row) throw new Error(`promotion code ${id} vanished inside its transaction`);
  return row;
}

export async function selectPromotionCodePage(
  db: Executor,
  page: { page: number; pageSize: number },
): Promise<{ rows: PromotionCodeRow[]; total: number }> {
  const rows = await db
    .select()
    .from(promotionCodes)
    .orderBy(desc(promotionCodes.createdAt), desc(promotionCodes.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  const [total] = await db.select({ n: count() }).from(promotionCodes);
  return { rows, total: total?.n ?? 0 };
}
