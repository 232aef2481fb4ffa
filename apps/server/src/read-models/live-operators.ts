import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { operators } from '../modules/admin/admin.tables.js';
import { users } from '../modules/auth/auth.tables.js';

/** Whether any live member (not a deleted account) holds the operator role. */
export async function anyLiveOperator(db: Executor): Promise<boolean> {
  const [row] = await db
    .select({ userId: operators.userId })
    .from(operators)
    .innerJoin(users, eq(users.id, operators.userId))
    .where(isNull(users.deletedAt))
    .limit(1);
  return row !== undefined;
}

/** Whether this member holds the operator role on a live account (a plain read: no lock). */
export async function isLiveOperator(db: Executor, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ userId: operators.userId })
    .from(operators)
    .innerJoin(users, eq(users.id, operators.userId))
    .where(and(eq(operators.userId, userId), isNull(users.deletedAt)))
    .limit(1);
  return row !== undefined;
}
