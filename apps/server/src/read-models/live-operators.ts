import { eq, isNull } from 'drizzle-orm';
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
